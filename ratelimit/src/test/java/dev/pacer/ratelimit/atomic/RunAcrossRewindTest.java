package dev.pacer.ratelimit.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run of slices claimed before a rate increase rewinds the schedule, on the manual clock: its slots after
 * the rewind's point are stale, and its unused tail must go to idle time, never back to the schedule, even
 * when claims made after the rewind bring the schedule pointer back to exactly the run's end.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunAcrossRewindTest {

    static final long T0 = 1_000_000_000L;
    static final long MS = 1_000_000L;

    final ManualNanoClock time = new ManualNanoClock(T0);
    final ManualSleeper sleeper = new ManualSleeper(time);
    final LockFreeRateLimiter l = (LockFreeRateLimiter) RateLimiters.builder(RateSpec.of(1e6))
            .clock(time).sleeper(sleeper).fastPathStaleness(Duration.ofNanos(1_000)).build();

    @Test
    void aRunClaimedBeforeARewindIsNotGivenBackOverSlotsClaimedAfterIt() {
        AtomicGrant a = (AtomicGrant) l.newGrant();
        l.acquire(a);
        time.advance(10 * MS);
        l.acquire(a); // 10 ms late: a's next claim is a run
        // other callers hold slots 5 ms ahead of the clock (staged: the pointer stored directly)
        l.allocated = ScheduleUnits.fromNanos(15 * MS);
        long[] runEnd = new long[1];
        long[] claimedAfter = new long[2];
        sleeper.at(T0 + 12 * MS, () -> {
            runEnd[0] = a.state.runEnd;
            assertTrue(a.state.reservedUnits() > 0, "a waits on the first slot of a run, the rest reserved");
            l.reconfigure(RateSpec.of(1e7)); // a rate increase with waiters ahead: the schedule is rewound
            long point = l.lvAllocated();
            assertTrue(point < runEnd[0], "the rewind's point lies before the run's end");
            // another caller claims from the point up to exactly the run's end: the pointer is that end again
            claimedAfter[0] = l.getAndAddAllocated(runEnd[0] - point);
            claimedAfter[1] = runEnd[0];
        });
        l.acquire(a); // parks on the run's first slot; woken by the rewind, its slot is stale: a new one
        long slot = ScheduleUnits.fromNanos(a.scheduledNanos() - T0);
        assertTrue(slot >= claimedAfter[1] || slot < claimedAfter[0],
                "slot " + slot + " was handed out again: another caller holds [" + claimedAfter[0] + ", "
                        + claimedAfter[1] + ")");
        assertEquals(runEnd[0] + l.sliceUnits(), l.lvAllocated(),
                "the run's tail went to idle time; the new slot follows the other caller's");
    }
}
