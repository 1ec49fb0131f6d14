package dev.pacer.ratelimit.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.DesignOnManualClock;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The leaky bucket on the manual clock: fixed spacing, no stored credit, the queue bound's refusals. */
class LeakyBucketLimiterTest extends DesignOnManualClock {

    RateLimiter leaky(String design, double rate) {
        return RateLimiters.builder(RateSpec.of(rate)).design(LimiterDesign.parse(design))
                .clock(clock).sleeper(new ManualSleeper(clock)).build();
    }

    /** The design's answer for a caller asking at {@code now}, as if callers arrived together (no one waits here). */
    static long reserveAt(RateLimiter l, long now) {
        return ((LockingLimiter) l).reserve(1, now);
    }

    @Test
    void aBurstOfArrivalsLeavesOneSpacingApartAndEachWaitsItsTurn() {
        RateLimiter l = leaky("leaky", 100); // 10 ms spacing
        for (int i = 0; i < 5; i++) {
            assertEquals(T0 + i * 10 * MS, reserveAt(l, T0), "caller " + i + " of five arriving together");
        }
        Grant g = l.newGrant();
        assertEquals(50 * MS, l.acquire(g), "the sixth waits behind the five");
        assertEquals(T0, g.scheduledNanos());
        assertEquals(T0 + 50 * MS, g.startNanos());
    }

    @Test
    void idleTimeIsNotStoredAsCredit() {
        RateLimiter l = leaky("leaky", 100);
        l.acquire();
        clock.advance(1_000 * MS); // a second idle: a token bucket would have stored 100 permits
        assertEquals(0, l.acquire());
        assertEquals(10 * MS, l.acquire(), "the second after the idle gap still waits a spacing");
    }

    @Test
    void withNoQueueACallerInsideTheSpacingIsRefusedAndAsksAgainWhenItEnds() {
        RateLimiter l = leaky("leaky:queue=0", 100);
        l.acquire();
        clock.advance(4 * MS);
        assertFalse(l.tryAcquire(), "the article's version: inside the spacing, refused");
        assertFalse(l.tryAcquire(1, Duration.ofMillis(5)), "allowed at 10 ms, 6 ms away");
        assertEquals(0, l.snapshot().refusals(), "tryAcquire gave up before asking: no refusal");
        assertEquals(6 * MS, l.acquire(), "refused at 4 ms, asked again at 10 ms");
        assertEquals(1, l.snapshot().refusals());
        assertEquals(T0 + 10 * MS, clock.nanoTime());
        assertEquals(LockingLimiter.REFUSED, reserveAt(l, T0 + 19 * MS));
        assertEquals(T0 + 20 * MS, reserveAt(l, T0 + 20 * MS));
    }

    @Test
    void aBoundedQueueRefusesTheCallerThatWouldWaitLongerThanItAndLetsItInWhenAPlaceFrees() {
        RateLimiter l = leaky("leaky:queue=2", 100);
        assertEquals(T0, reserveAt(l, T0));
        assertEquals(T0 + 10 * MS, reserveAt(l, T0));
        assertEquals(T0 + 20 * MS, reserveAt(l, T0), "two spacings ahead: the queue's last place");
        assertEquals(LockingLimiter.REFUSED, reserveAt(l, T0), "three spacings ahead: refused");
        Grant g = l.newGrant();
        // refused at T0; a place frees at 30 - 20 = 10 ms; then it leaves at 30 ms
        assertEquals(30 * MS, l.acquire(g));
        assertEquals(1, l.snapshot().refusals());
        assertEquals(T0 + 30 * MS, g.startNanos());
        assertTrue(l.tryAcquire(1, Duration.ofMillis(10)), "next leaves at 40 ms, 10 ms away");
    }

    @Test
    void aRateChangeKeepsTheQueueInRequestsAndSpacesTheRestAtTheNewRate() {
        RateLimiter l = leaky("leaky", 100);
        l.acquire();
        l.reconfigure(RateSpec.of(1000)); // one request ahead: next was 10 ms away, one new spacing now
        assertEquals(1 * MS, l.acquire());
        assertEquals(1 * MS, l.acquire());
        assertEquals("", l.rateChangeNote());
        l.reconfigure(RateSpec.of(100)); // a decrease keeps the queued time: the next leaves 1 ms on, then 10 ms
        assertEquals(1 * MS, l.acquire());
        assertEquals(10 * MS, l.acquire());
    }
}
