package dev.pacer.ratelimit.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The grant's own clock and fixed-length runs, on the manual clock: a caller far behind schedule touches the
 * shared lines (the schedule pointer, the published horizon) rarely whatever its pace, and a start served
 * from the grant's clock is never staler than the documented bound (less than twice the staleness target
 * while the caller keeps its pace; a caller that slows down, for at most one refresh period).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrantClockTest {

    static final long T0 = 1_000_000_000L;
    static final long STALENESS = 1_000;

    final ManualNanoClock time = new ManualNanoClock(T0);
    long clockReads;
    final NanoClock countingClock = () -> {
        clockReads++;
        return time.nanoTime();
    };

    LockFreeRateLimiter limiter(double rate) {
        return (LockFreeRateLimiter) RateLimiters.builder(RateSpec.of(rate))
                .clock(countingClock).sleeper(new ManualSleeper(time))
                .fastPathStaleness(Duration.ofNanos(STALENESS)).build();
    }

    /** A grant on a limiter it can never keep up with (1 ns slices), past its first acquire. */
    Grant farBehind(LockFreeRateLimiter l) {
        Grant g = l.newGrant();
        l.acquire(g);
        time.advance(10_000_000);
        return g;
    }

    @ParameterizedTest(name = "{0} ns per op")
    @ValueSource(longs = {0, 50, 140, 800, 2_500, 10_000})
    void aFarBehindCallerTouchesTheSharedLinesRarelyWhateverItsPace(long perOpNanos) {
        LockFreeRateLimiter l = limiter(1e9);
        Grant g = farBehind(l);
        int ops = 20_000;
        long adds = 0;
        long publishes = 0;
        long allocated = l.allocatedUnits();
        long horizon = l.horizon;
        for (int i = 0; i < ops; i++) {
            l.acquire(g);
            time.advance(perOpNanos + 5); // the op, and the acquire's own few nanoseconds
            if (l.allocatedUnits() != allocated) {
                adds++;
                allocated = l.allocatedUnits();
            }
            if (l.horizon != horizon) {
                publishes++;
                horizon = l.horizon;
            }
        }
        assertTrue(adds <= ops / 20, adds + " adds to the schedule pointer in " + ops + " acquires (runs halved?)");
        assertTrue(publishes <= ops / 20, publishes + " stores to the clock line in " + ops + " acquires");
        g.close();
        assertEquals(l.allocatedUnits(), (ops + 1) * l.sliceUnits() + l.idleUnits(),
                "allocated = permits x slice + idle");
    }

    @ParameterizedTest(name = "{0} ns per op")
    @ValueSource(longs = {5, 10, 50, 140, 400, 800, 999, 1_000, 1_001, 1_500, 2_000, 2_500, 10_000, 1_000_000})
    void aStartIsLessThanTwiceTheStalenessTargetOldWhileTheCallerKeepsItsPace(long perOpNanos) {
        LockFreeRateLimiter l = limiter(1e9);
        Grant g = farBehind(l);
        long worst = 0;
        for (int i = 0; i < 5_000; i++) {
            long trueNow = time.nanoTime();
            long wait = l.acquire(g);
            long staleness = trueNow - g.startNanos();
            assertTrue(staleness >= 0, "a start is a past reading");
            assertEquals(g.startNanos() - g.scheduledNanos(), wait, "the wait is start − scheduled");
            worst = Math.max(worst, staleness);
            time.advance(perOpNanos);
        }
        assertTrue(worst < 2 * STALENESS, "a start " + worst + " ns stale at " + perOpNanos + " ns per op");
        if (perOpNanos > STALENESS) {
            assertEquals(0, worst, "a caller whose ops take longer than the target reads the clock on every acquire");
        }
    }

    @Test
    void aCallerThatSlowsDownIsServedFromItsOldReadingForAtMostOnePeriod() {
        LockFreeRateLimiter l = limiter(1e9);
        Grant g = farBehind(l);
        for (int i = 0; i < 1_000; i++) { // fast ops: the grant's reading serves up to 64 acquires
            l.acquire(g);
            time.advance(10);
        }
        int stale = 0;
        for (int i = 0; i < 1_000; i++) { // 1 ms ops from here
            long trueNow = time.nanoTime();
            l.acquire(g);
            if (trueNow != g.startNanos()) {
                stale++;
                assertTrue(i < LockFreeRateLimiter.MAX_REFRESH, "op " + i + " after the slowdown was served stale");
            }
            time.advance(1_000_000);
        }
        assertTrue(stale < LockFreeRateLimiter.MAX_REFRESH, stale + " stale starts after the slowdown");
    }

    @Test
    void aSlotAfterTheGrantsClockIsNeverPassedOnIt() {
        LockFreeRateLimiter l = limiter(1_000); // 1 ms slices: each caller is early
        Grant g = l.newGrant();
        for (int i = 0; i < 100; i++) {
            l.acquire(g);
            assertTrue(g.startNanos() >= g.scheduledNanos() - ScheduleUnits.toNanos(l.sliceUnits()),
                    "op " + i + " started at " + g.startNanos() + ", its slot is " + g.scheduledNanos());
            assertTrue(time.nanoTime() >= g.scheduledNanos(), "the manual sleeper waited for the slot");
            time.advance(10);
        }
    }

    @Test
    void aCallerThatHandsOverItsOwnReadingsIsNotMadeToReadTheClock() {
        LockFreeRateLimiter l = limiter(1e9);
        Grant g = farBehind(l);
        long reads = clockReads;
        for (int i = 0; i < 1_000; i++) {
            time.advance(2_500); // a 2.5 µs op, whose end the caller (an engine worker) hands over
            g.sawClock(time.nanoTime());
            l.acquire(g);
            assertEquals(time.nanoTime(), g.startNanos(), "the start is the caller's own reading");
        }
        assertTrue(clockReads - reads <= 1, (clockReads - reads) + " clock reads for 1000 acquires");
    }
}
