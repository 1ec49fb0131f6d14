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
 * The sliding window counter on the manual clock: the article's weighted example ("Rate Limiting Part 1"), exact
 * retry times within the
 * window and across into the next, rate change, pause. Estimate at e ns into a window of W: previous × (W − e) / W
 * + current, and one permit passes when it is below the limit.
 */
class SlidingWindowLimiterTest extends DesignOnManualClock {

    void acquireAt(RateLimiter l, long at, int times) {
        clock.set(at);
        for (int i = 0; i < times; i++) {
            assertEquals(0, l.acquire(), "at " + (at - T0) + " ns, permit " + i);
        }
    }

    /** The article's retry for its example: 00:01:00 + 26 666 666 667 ns. */
    static final long SEEDS_RETRY = T0 + 60 * S + 26_666_666_667L;

    /**
     * The article's example, limit 10 per minute: 9 in [00:00, 00:01), 5 in [00:01, 00:02). At 10 per minute the
     * limiter itself lets only 4 in by 00:01:15 after 9 (9 × 0.75 + 4 = 10.75): the 5 are let in at a raised limit (a
     * rate change keeps both counts), then the limit returns to 10.
     */
    LockingLimiter seedsWindows() {
        LockingLimiter l = (LockingLimiter) limiter("sliding-window:window=1m", 10.0 / 60);
        for (int i = 0; i < 9; i++) {
            assertEquals(T0 + 30 * S, l.reserve(1, T0 + 30 * S));
        }
        l.reconfigure(RateSpec.of(20.0 / 60));
        for (int i = 0; i < 5; i++) {
            assertEquals(T0 + 70 * S, l.reserve(1, T0 + 70 * S));
        }
        l.reconfigure(RateSpec.of(10.0 / 60));
        return l;
    }

    @Test
    void theSeedsWeightedExampleRefusesAtAQuarterIntoTheWindowAndRetriesAtTheExactNanosecond() {
        LockingLimiter l = seedsWindows();
        assertEquals("", l.rateChangeNote());
        clock.set(T0 + 75 * S); // 00:01:15, 25 % into the window: 9 × 0.75 + 5 = 11.75 >= 10
        assertFalse(l.tryAcquire());
        // passes once 9 × (60 s − e) / 60 s + 5 < 10, i.e. e > 26.666... s: e = 26 666 666 667 ns
        assertEquals(SEEDS_RETRY, l.earliest(1, clock.nanoTime()));
        assertEquals(SEEDS_RETRY - (T0 + 75 * S), l.acquire(), "refused at 00:01:15, let through at the exact "
                + "nanosecond");
        assertEquals(1, l.snapshot().refusals());
    }

    @Test
    void theSeedsExampleANanosecondBeforeTheRetryIsStillAtTheLimit() {
        // 9 × 33 333 333 334 / 60e9 + 5 = 10.0000000001: not below 10; a nanosecond later 9.99999999995
        LockingLimiter l = seedsWindows();
        assertEquals(LockingLimiter.REFUSED, l.reserve(1, SEEDS_RETRY - 1));
        assertEquals(SEEDS_RETRY, l.reserve(1, SEEDS_RETRY));
    }

    @Test
    void afterAFullWindowTheNextIsSpreadOnePermitPerSpacingEachOneNanosecondLate() {
        RateLimiter l = limiter("sliding-window", 1000); // 1000 per 1 s
        Grant g = l.newGrant();
        for (int i = 0; i < 1000; i++) {
            assertEquals(0, l.acquire(g));
        }
        // window 2, previous 1000: with c counted, the next passes once 1000 × (W − e) / W + c < 1000, e > c ms
        for (int c = 0; c < 1000; c++) {
            l.acquire(g);
            assertEquals(T0 + S + c * MS + 1, g.startNanos(), "window 2's permit " + c);
        }
        assertEquals(1000, l.snapshot().refusals(), "each refused once, then let through at its nanosecond");
        l.acquire(g);
        assertEquals(T0 + 2 * S + 1, g.startNanos(), "window 2 full: window 3, where its 1000 weigh wholly at the "
                + "start");
    }

    @Test
    void whenTheCurrentWindowIsFullTheRetryIsInTheNextWhereItsCountBecomesThePrevious() {
        RateLimiter l = limiter("sliding-window", 10); // 10 per 1 s
        Grant g = l.newGrant();
        acquireAt(l, T0, 4);
        // window 2, previous 4: 4 × (W − e) / W + c < 10
        acquireAt(l, T0 + S, 6); // c = 0..5 pass at e = 0 (4 + 5 < 10)
        long[] expected = {
            T0 + S + 1,              // c = 6: 4 (W − e) / W < 4, e > 0
            T0 + S + 250 * MS + 1,   // c = 7: < 3, e > W / 4
            T0 + S + 500 * MS + 1,   // c = 8: < 2, e > W / 2
            T0 + S + 750 * MS + 1,   // c = 9: < 1, e > 3W / 4
            T0 + 2 * S + 1,          // c = 10: full; window 3, previous 10: 10 (W − e) / W < 10, e > 0
        };
        for (long at : expected) {
            l.acquire(g);
            assertEquals(at, g.startNanos());
        }
        assertEquals(5, l.snapshot().refusals());
        assertEquals(15, l.snapshot().permitsGranted());
    }

    @Test
    void aPreviousWindowThatIsNotAdjacentWeighsNothing() {
        RateLimiter l = limiter("sliding-window", 10);
        acquireAt(l, T0, 10);
        acquireAt(l, T0 + 2_500 * MS, 10); // window [2 s, 3 s); [1 s, 2 s) was empty
        assertEquals(T0 + 3 * S + 1, ((LockingLimiter) l).earliest(1, clock.nanoTime()));
    }

    @Test
    void severalPermitsPassWhenTheEstimateWithAllOfThemCountedRoundsDownToTheLimit() {
        LockingLimiter l = (LockingLimiter) limiter("sliding-window", 10);
        for (int i = 0; i < 4; i++) {
            l.reserve(1, T0);
        }
        for (int i = 0; i < 5; i++) {
            l.reserve(1, T0 + S);
        }
        // previous 4, current 5: 2 more pass when 4 (W − e) / W + 5 + 2 − 1 < 10, e > 0
        assertEquals(LockingLimiter.REFUSED, l.reserve(2, T0 + S));
        assertEquals(T0 + S + 1, l.retryAt(2, T0 + S));
        assertEquals(T0 + S + 1, l.reserve(2, T0 + S + 1));
        assertFalse(l.tryAcquire(11, Duration.ofDays(1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> l.acquire(11));
        assertTrue(e.getMessage().startsWith("the sliding-window limiter lets at most 10 permits through per 1s "
                + "window"),
                e.getMessage());
    }

    @Test
    void retryTimesStayExactWherePreviousTimesTheWindowPassesALong() {
        // 1M/s over an hour: limit 3.6e9, and 3.6e9 × 3.6e12 ns is past 2^63
        LockingLimiter l = (LockingLimiter) limiter("sliding-window:window=1h", 1e6);
        long hour = 3_600 * S;
        assertEquals(T0, l.reserve(3_600_000_000L, T0));
        // previous 3.6e9: 1.8e9 more pass when 3.6e9 × (W − e) / W + 1.8e9 − 1 < 3.6e9, e > (1.8e9 − 1) × 1000
        assertEquals(T0 + hour + 1_799_999_999_001L, l.earliest(1_800_000_000L, T0 + hour));
    }

    @Test
    void aPauseResetsNothingThePreviousCountsWeightFallsDuringIt() {
        RateLimiter l = limiter("sliding-window", 10);
        acquireAt(l, T0, 10);
        clock.set(T0 + 1_100 * MS);
        l.pause();
        clock.set(T0 + 1_600 * MS);
        l.resume();
        // 60 % into window 2: 10 × 0.4 + c < 10 lets c = 0..5 through
        for (int c = 0; c < 6; c++) {
            assertEquals(0, l.acquire(), "c = " + c);
        }
        assertFalse(l.tryAcquire());
        l.pause();
        clock.set(T0 + 3_300 * MS);
        l.resume();
        acquireAt(l, T0 + 3_300 * MS, 10); // window 2 is two back now: 10 at once
        assertEquals(0, l.snapshot().refusals());
    }

    @Test
    void badOptionsSayWhich() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> limiter("sliding-window:window=soon", 10));
        assertEquals("the sliding-window limiter's window must be a duration >= 1ms, got 'soon': expected a number"
                + " with a unit: ns, us, ms, s, m or h (e.g. 500us, 2ms, 30s)", e.getMessage());
    }
}
