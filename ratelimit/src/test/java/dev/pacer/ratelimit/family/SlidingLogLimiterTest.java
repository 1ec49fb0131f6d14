package dev.pacer.ratelimit.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.DesignOnManualClock;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The sliding window log on the manual clock: the limit over every window length, exact retries, the ring's bound and
 * resize.
 */
class SlidingLogLimiterTest extends DesignOnManualClock {

    @Test
    void atTwoPerMinuteTheThirdWaitsForTheOldestToLeaveTheLastMinute() {
        RateLimiter l = limiter("sliding-log:window=1m", 2.0 / 60);
        assertEquals(0, acquireAt(l, T0 + 24 * S));
        assertEquals(0, acquireAt(l, T0 + 36 * S));
        clock.set(T0 + 49 * S);
        assertFalse(l.tryAcquire(1, Duration.ofSeconds(34)), "24 s leaves the last minute at 84 s, 35 s away");
        assertEquals(0, l.snapshot().refusals());
        assertEquals(35 * S, l.acquire(), "refused at 49 s, let through at 84 s");
        assertEquals(1, l.snapshot().refusals());
        assertEquals(11 * S, acquireAt(l, T0 + 85 * S), "36 s leaves at 96 s (where the fixed window took it at once)");
    }

    @Test
    void theFixedWindowsBoundaryBurstIsHeldToTheLimit() {
        RateLimiter l = limiter("sliding-log:window=1m", 2.0 / 60);
        assertEquals(0, acquireAt(l, T0 + 58 * S));
        assertEquals(0, acquireAt(l, T0 + 59 * S));
        assertEquals(57 * S, acquireAt(l, T0 + 61 * S), "the fixed window's third at 61 s waits for 58 s to leave: 118 "
                + "s");
        assertEquals(1, l.snapshot().refusals());
    }

    @Test
    void anEntryLeavesExactlyAWindowAfterItsStart() {
        RateLimiter l = limiter("sliding-log:window=100ms", 10); // 1 per 100 ms
        LockingLimiter w = (LockingLimiter) l;
        assertEquals(T0, w.reserve(1, T0));
        assertEquals(LockingLimiter.REFUSED, w.reserve(1, T0 + 100 * MS - 1), "still within the last 100 ms");
        assertEquals(T0 + 100 * MS, w.retryAt(1, T0 + 100 * MS - 1));
        assertEquals(T0 + 100 * MS, w.reserve(1, T0 + 100 * MS), "a window old: gone");
    }

    @Test
    void aRequestForSeveralPermitsRetriesWhenEnoughOfTheOldestHaveLeft() {
        RateLimiter l = limiter("sliding-log", 10); // 10 per 1 s
        assertEquals(0, l.acquire(4));
        assertEquals(0, acquireAt(l, T0 + 100 * MS) + l.acquire(2));
        assertEquals(0, acquireAt(l, T0 + 200 * MS) + l.acquire(2));
        clock.set(T0 + 300 * MS);
        // full: 4 at 0, 3 at 100 ms, 3 at 200 ms; 5 more need 5 gone: the 4 at 0 and the first at 100 ms
        assertFalse(l.tryAcquire(5, Duration.ofMillis(799)));
        assertTrue(l.tryAcquire(5, Duration.ofMillis(800)), "all of 100 ms leave at 1.1 s");
        assertEquals(T0 + 1_100 * MS, clock.nanoTime());
        assertEquals(1, l.snapshot().refusals(), "refused once at 300 ms, then let through");
        assertThrows(IllegalArgumentException.class, () -> l.acquire(11));
        assertFalse(l.tryAcquire(11, Duration.ofDays(1)));
    }

    @Test
    void aGreedyCallerGetsTheLimitAtOnceAndAgainWhenItLeaves() {
        RateLimiter l = limiter("sliding-log", 1000);
        Grant g = l.newGrant();
        for (int i = 0; i < 1000; i++) {
            assertEquals(0, l.acquire(g));
        }
        assertEquals(S, l.acquire(g), "the 1001st waits for the first 1000 to leave");
        for (int i = 1; i < 1000; i++) {
            assertEquals(0, l.acquire(g), "the rest of the first 1000 have left too: " + i);
        }
        assertEquals(S, l.acquire(g));
        assertEquals(2, l.snapshot().refusals());
    }

    @Test
    void aLowerRateKeepsTheNewestEntriesWhichDecideAsTheWholeLogWouldAndSaysSo() {
        RateLimiter l = limiter("sliding-log", 10); // 10 per 1 s
        for (int i = 0; i < 10; i++) {
            assertEquals(0, acquireAt(l, T0 + i * 10 * MS)); // 0, 10, ..., 90 ms
        }
        clock.set(T0 + 100 * MS);
        l.reconfigure(RateSpec.of(5)); // keeps 50..90 ms
        assertEquals("a lower limit keeps only the newest start times it holds", l.rateChangeNote());
        assertFalse(l.tryAcquire());
        // the whole log would wait for 6 of 10 to leave: the 6th oldest, 50 ms, leaves at 1.05 s; so does the ring's
        // oldest
        assertEquals(T0 + 1_050 * MS, ((LockingLimiter) l).earliest(1, clock.nanoTime()));
        l.reconfigure(RateSpec.of(10)); // a raise keeps all 5
        assertEquals("", l.rateChangeNote(), "a raise drops nothing and says nothing");
        for (int i = 0; i < 5; i++) {
            assertEquals(0, l.acquire(), "raised in the same window, the ring has forgotten 0..40 ms: " + i);
        }
        assertFalse(l.tryAcquire(), "10 entries within the last second");
        assertEquals(T0 + 1_050 * MS, ((LockingLimiter) l).earliest(1, clock.nanoTime()), "the oldest kept, 50 ms, "
                + "leaves");
        assertEquals(0, l.snapshot().refusals());
    }

    @Test
    void theLogsSizeIsBoundedAndARateThatWouldPassTheBoundIsRefusedBeforeAnythingChanges() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> limiter("sliding-log", 2e7));
        assertEquals("the sliding-log limiter would log 20000000 start times (20000000 ops/s over its window=1s), over "
                + "its"
                + " bound of 10000000: shorten the window, or use sliding-window", e.getMessage());
        RateLimiter l = limiter("sliding-log:window=100ms", 2e7); // 2 million entries
        assertEquals(0, l.acquire(2_000_000));
        assertFalse(l.tryAcquire());
        e = assertThrows(IllegalArgumentException.class, () -> l.reconfigure(RateSpec.of(2e8)));
        assertTrue(e.getMessage().contains("would log 20000000 start times"), e.getMessage());
        assertEquals(2e7, l.spec().opsPerSecond(), "the refused change left the rate");
        assertEquals(100 * MS, l.acquire(), "and the log");
    }

    @Test
    void aPauseResetsNothingTheEntriesAgeDuringIt() {
        RateLimiter l = limiter("sliding-log", 10);
        for (int i = 0; i < 10; i++) {
            acquireAt(l, T0 + i * 100 * MS); // 0, 100, ..., 900 ms
        }
        l.pause();
        clock.set(T0 + 1_450 * MS);
        l.resume();
        for (int i = 0; i < 5; i++) {
            assertEquals(0, l.acquire(), "0..400 ms left during the pause");
        }
        assertEquals(50 * MS, l.acquire(), "500 ms leaves at 1.5 s");
    }

    @Test
    void aReadingOlderThanTheNewestEntryStartsAtTheNewest() {
        LockingLimiter l = (LockingLimiter) limiter("sliding-log", 10);
        assertEquals(T0 + 50 * MS, l.reserve(1, T0 + 50 * MS));
        assertEquals(T0 + 50 * MS, l.reserve(1, T0 + 40 * MS), "a thread that read the clock first and locked second");
    }
}
