package dev.pacer.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The cached clock and runs of slices, on a synthetic clock that moves 10 ns per op (the cost of a
 * cheap op) and counts how often the limiter reads it.
 */
class FastPathTest {

    static final long T0 = 1_000_000_000L;

    final ManualNanoClock time = new ManualNanoClock(T0);
    long clockReads;
    final NanoClock countingClock = () -> {
        clockReads++;
        return time.nanoTime();
    };

    LockFreeRateLimiter limiter(String spec) {
        return (LockFreeRateLimiter) RateLimiters.builder(RateSpec.parse(spec))
                .clock(countingClock).sleeper(new ManualSleeper(time))
                .fastPathStaleness(Duration.ofNanos(1_000)).build();
    }

    @Test
    void lateCallersRarelyReadTheClockAndTheirWaitsStayWithinTheStalenessBound() {
        LockFreeRateLimiter l = limiter("1M"); // 1 µs slices
        Grant g = l.newGrant();
        l.acquire(g);
        time.advance(10_000_000); // a 10 ms stall: 10 000 ops behind
        long readsBefore = clockReads;
        long ops = 0;
        long maxError = 0;
        long expectedSlot = 1_000;
        while (true) {
            long trueNow = time.nanoTime();
            long wait = l.acquire(g);
            ops++;
            assertEquals(expectedSlot, g.scheduledNanos() - T0, "every slot is used once, in order");
            expectedSlot += 1_000;
            long trueWait = Math.max(0, trueNow - g.scheduledNanos());
            assertTrue(wait <= trueWait, "a reported wait is never more than the truth");
            maxError = Math.max(maxError, trueWait - wait);
            if (wait == 0) {
                break;
            }
            time.advance(10);
        }
        long reads = clockReads - readsBefore;
        assertTrue(ops > 10_000, "the backlog ran: " + ops);
        assertTrue(reads * 50 < ops, reads + " clock reads for " + ops + " late ops");
        // the window targets 1 µs of staleness; a run of 64 slices claimed inside it can add as much again
        assertTrue(maxError <= 3_000, "wait under-reported by at most ~2x the 1 µs staleness target, was " + maxError);
    }

    @Test
    void runsOfSlicesAreAccountedExactlyAndReturnedWhenTheGrantCloses() {
        LockFreeRateLimiter l = limiter("1M");
        Grant g = l.newGrant();
        l.acquire(g);
        time.advance(10_000_000);
        for (int i = 0; i < 1_000; i++) {
            l.acquire(g);
            time.advance(10);
        }
        GrantState st = g.state;
        assertTrue(st.reservedUnits() > 0, "far behind, the caller holds a run of slices");
        long slice = l.sliceUnits();
        assertEquals(l.allocatedUnits(), g.permitsGranted() * slice + l.idleUnits() + st.reservedUnits(),
                "allocated = granted + idle + reserved");
        assertEquals(1_001, l.snapshot().permitsGranted());

        long reserved = st.reservedUnits();
        g.close();
        assertEquals(reserved, l.idleUnits(), "unused slices are given away, not lost");
        assertEquals(l.allocatedUnits(), 1_001 * slice + l.idleUnits());
        assertEquals(1_001, l.snapshot().permitsGranted(), "a closed grant's tallies stay counted");
        assertEquals(0, l.snapshot().reservedNanos());
    }

    @Test
    void aRunIsDroppedWhenTheSettingsChange() {
        LockFreeRateLimiter l = limiter("1M");
        Grant g = l.newGrant();
        l.acquire(g);
        time.advance(10_000_000);
        for (int i = 0; i < 500; i++) {
            l.acquire(g);
            time.advance(10);
        }
        assertTrue(g.state.reservedUnits() > 0, "holding a run");
        l.reconfigure(RateSpec.parse("500k"));
        l.acquire(g);
        long slotAfter = g.scheduledNanos();
        l.acquire(g);
        assertEquals(2_000, g.scheduledNanos() - slotAfter, "the new 2 µs slice applies at once, not after the run");
        assertEquals(l.allocatedUnits(),
                501 * ScheduleUnits.slice(1e6) + 2 * ScheduleUnits.slice(5e5) + l.idleUnits() + g.state.reservedUnits(),
                "the dropped run became idle time");
    }

    /** A caller with 1 ms ops, 10 000 slots behind: runs would serve it from a clock 64 ms stale. */
    long[] waitErrorsOfASlowCallerFarBehind(boolean handsOverItsClock) {
        LockFreeRateLimiter l = limiter("1M");
        Grant g = l.newGrant();
        l.acquire(g);
        time.advance(10_000_000); // 10 ms behind at 1 µs slices
        long inexact = 0;
        long worst = 0;
        for (int i = 0; i < 5_000; i++) {
            long trueNow = time.nanoTime();
            long wait = l.acquire(g);
            long error = (trueNow - g.scheduledNanos()) - wait;
            assertTrue(error >= 0, "never over-reported");
            if (error > 0) {
                inexact++;
                worst = Math.max(worst, error);
            }
            time.advance(1_000_000); // the op takes 1 ms
            if (handsOverItsClock) {
                g.sawClock(time.nanoTime());
            }
        }
        return new long[] {inexact, worst};
    }

    @Test
    void aSlowCallerFarBehindIsNotServedFromAStaleClock() {
        long[] plain = waitErrorsOfASlowCallerFarBehind(false);
        assertTrue(plain[0] <= 10, plain[0] + " of 5000 waits were inexact: runs must shrink to single slices");
        assertTrue(plain[1] <= 1_000_000, "and then by at most one op's duration: " + plain[1]);
        long[] hinted = waitErrorsOfASlowCallerFarBehind(true);
        assertEquals(0, hinted[0], "with its own clock readings every wait is exact");
    }

    @Test
    void theFirstLateCallerAfterAnIdlePeriodReadsTheClock() {
        LockFreeRateLimiter l = limiter("1000");
        Grant g = l.newGrant();
        l.acquire(g);
        time.advance(5_000_000);
        long reads = clockReads;
        assertEquals(4_000_000, l.acquire(g), "exact: the stale cached clock is not trusted for this one");
        assertTrue(clockReads > reads);
    }
}
