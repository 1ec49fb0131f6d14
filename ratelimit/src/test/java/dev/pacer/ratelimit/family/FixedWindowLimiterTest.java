package dev.pacer.ratelimit.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

/**
 * The fixed window counter on the manual clock: the 2-per-minute example of the article "Rate Limiting Part 1",
 * its boundary flaw, refusals and retries.
 */
class FixedWindowLimiterTest extends DesignOnManualClock {

    /** The article's example rate: 2 requests per minute. */
    static final double TWO_PER_MINUTE = 2.0 / 60;

    @Test
    void theSeedsTwoPerMinuteExampleRefusesTheThirdInAWindowUntilTheNextOpens() {
        RateLimiter l = limiter("fixed-window:window=1m", TWO_PER_MINUTE);
        assertEquals(0, acquireAt(l, T0 + 24 * S), "00:00:24, window 1's first");
        assertEquals(0, acquireAt(l, T0 + 36 * S), "00:00:36, window 1's second");
        clock.set(T0 + 49 * S);
        assertFalse(l.tryAcquire(), "00:00:49: window 1 is full");
        assertFalse(l.tryAcquire(1, Duration.ofSeconds(10)), "window 2 opens in 11 s");
        assertEquals(0, l.snapshot().refusals(), "tryAcquire gave up before asking");
        assertEquals(11 * S, l.acquire(), "refused at 00:00:49, let through when window 2 opens at 00:01:00");
        assertEquals(1, l.snapshot().refusals());
        assertEquals(0, acquireAt(l, T0 + 72 * S), "00:01:12 belongs to window 2: its second");
        assertEquals(48 * S, acquireAt(l, T0 + 72 * S), "window 2 full at 00:01:12: waits for 00:02:00");
        assertEquals(2, l.snapshot().refusals());
        assertEquals(5, l.snapshot().permitsGranted());
    }

    @Test
    void theKnownFlawLetsTwiceTheLimitThroughWithinOneWindowLengthAcrossABoundary() {
        RateLimiter l = limiter("fixed-window:window=1m", TWO_PER_MINUTE);
        // the article's numbers: 00:00:58, 00:00:59, then 00:01:01, 00:01:02
        for (long s : new long[] {58, 59, 61, 62}) {
            assertEquals(0, acquireAt(l, T0 + s * S), "at second " + s);
        }
        assertEquals(4, l.snapshot().permitsGranted(), "4 in [00:00:30, 00:01:30), twice the 2 per minute");
        assertEquals(0, l.snapshot().refusals());
        clock.set(T0 + 63 * S);
        assertFalse(l.tryAcquire(), "but window 2 holds to its 2");
    }

    @Test
    void aGreedyCallerGetsAWindowsLimitAtOnceThenOneRefusalAndTheNextWindow() {
        RateLimiter l = limiter("fixed-window", 1000); // 1000 per 1 s window
        Grant g = l.newGrant();
        for (int i = 0; i < 1000; i++) {
            assertEquals(0, l.acquire(g));
        }
        assertEquals(T0, clock.nanoTime(), "the whole limit at once");
        assertEquals(S, l.acquire(g), "the 1001st waits for the next window");
        assertEquals(T0 + S, g.startNanos());
        assertEquals(1, l.snapshot().refusals());
        for (int i = 1; i < 1000; i++) {
            assertEquals(0, l.acquire(g));
        }
        assertEquals(S, l.acquire(g));
        assertEquals(2, l.snapshot().refusals());
        assertEquals(2001, l.snapshot().permitsGranted());
    }

    @Test
    void windowsAreHalfOpenAndAlignedToTheOrigin() {
        RateLimiter l = RateLimiters.builder(RateSpec.of(10)).design(LimiterDesign.parse("fixed-window:window=100ms"))
                .clock(clock).sleeper(new ManualSleeper(clock)).origin(T0 + 30 * MS).build(); // 1 per 100 ms window
        LockingLimiter w = (LockingLimiter) l;
        assertEquals(T0 + 30 * MS, w.reserve(1, T0 + 30 * MS), "window [30 ms, 130 ms)");
        assertEquals(LockingLimiter.REFUSED, w.reserve(1, T0 + 130 * MS - 1), "its last nanosecond");
        assertEquals(T0 + 130 * MS, w.retryAt(1, T0 + 130 * MS - 1), "retry when the next opens");
        assertEquals(T0 + 130 * MS, w.reserve(1, T0 + 130 * MS), "the next window's first nanosecond");
        assertEquals(T0 + 230 * MS, w.earliest(1, T0 + 150 * MS));
        assertEquals(T0 + 230 * MS, w.reserve(1, T0 + 230 * MS), "the window after");
        assertEquals(T0 + 330 * MS, w.earliest(1, T0 + 220 * MS),
                "a reading from before the current window (a thread that lost the race) is judged in it: full");
    }

    @Test
    void aRateChangeKeepsTheWindowsCountAndAppliesTheNewLimitToTheRestOfIt() {
        RateLimiter l = limiter("fixed-window", 1000);
        for (int i = 0; i < 600; i++) {
            l.acquire();
        }
        l.reconfigure(RateSpec.of(500)); // limit 500: the window's 600 is over it
        assertEquals("", l.rateChangeNote());
        assertEquals(S, l.acquire(), "over the new limit: refused until the next window");
        assertEquals(1, l.snapshot().refusals());
        for (int i = 1; i < 500; i++) {
            assertEquals(0, l.acquire());
        }
        assertFalse(l.tryAcquire(), "the next window holds to 500");
        l.reconfigure(RateSpec.of(800));
        for (int i = 500; i < 800; i++) {
            assertEquals(0, l.acquire(), "raised to 800 in the same window: " + i);
        }
        assertFalse(l.tryAcquire());
    }

    @Test
    void aPauseResetsNothingTheWindowsStayOnTheClock() {
        RateLimiter l = limiter("fixed-window", 10); // 10 per 1 s window
        for (int i = 0; i < 10; i++) {
            l.acquire();
        }
        clock.set(T0 + 200 * MS);
        l.pause();
        clock.set(T0 + 500 * MS);
        l.resume();
        assertEquals(500 * MS, l.acquire(), "resumed in the same window: still full");
        clock.set(T0 + 1_500 * MS);
        l.pause();
        clock.set(T0 + 3_200 * MS);
        l.resume();
        for (int i = 0; i < 10; i++) {
            assertEquals(0, l.acquire(), "the window [3 s, 4 s) opened during the pause, empty");
        }
        assertEquals(800 * MS, l.acquire());
    }

    @Test
    void permitsCountEachAndARequestOverTheLimitCanNeverPass() {
        RateLimiter l = limiter("fixed-window", 10);
        assertEquals(0, l.acquire(7));
        assertFalse(l.tryAcquire(4, Duration.ZERO), "7 + 4 > 10");
        assertTrue(l.tryAcquire(4, Duration.ofSeconds(1)), "in the next window");
        assertEquals(T0 + S, clock.nanoTime());
        assertFalse(l.tryAcquire(11, Duration.ofDays(1)), "more than a window's limit");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> l.acquire(11));
        assertEquals("the fixed-window limiter lets at most 10 permits through per 1s window: 11 at once can never "
                + "pass;"
                + " ask for fewer or lengthen the window", e.getMessage());
    }

    @Test
    void theWindowOptionSetsTheLimitAndBadOptionsSayWhich() {
        RateLimiter l = limiter("fixed-window:window=250ms", 1000); // 250 per window
        for (int i = 0; i < 250; i++) {
            assertEquals(0, l.acquire());
        }
        assertEquals(250 * MS, l.acquire());
        RateLimiter slow = limiter("fixed-window", 0.1);
        assertEquals(0, slow.acquire());
        assertEquals(S, slow.acquire(), "below half a permit per window the limit is still 1: 1/s, not 0.1/s");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> limiter("fixed-window:window=0",
                10));
        assertEquals("the fixed-window limiter's window must be a duration >= 1ms, e.g. 500ms or 10s, got '0'",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> limiter("fixed-window:queue=3", 10));
        assertEquals("the fixed-window limiter has no option 'queue': it takes window", e.getMessage());
    }
}
