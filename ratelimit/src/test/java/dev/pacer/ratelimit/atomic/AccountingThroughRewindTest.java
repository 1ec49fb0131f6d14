package dev.pacer.ratelimit.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.DesignOnManualClock;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The atomic limiter's accounting through a rewind (a brief low rate, then the rate set back while a caller
 * waits for a slot priced at the low one), on the manual clock: schedule advanced = granted + idle, and the
 * waiter's slot given back as idle time. The rewind's effect on the run is checked for every design by
 * {@code RateChangeReschedulesWaitersTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AccountingThroughRewindTest extends DesignOnManualClock {

    final ManualSleeper sleeper = new ManualSleeper(clock);

    /** Acquires with {@code g} until a start passes {@code until}: each grant's start and the slice it went at. */
    static List<long[]> acquireUntil(LockFreeRateLimiter l, Grant g, long until) {
        List<long[]> starts = new ArrayList<>();
        for (int i = 0; i < 100_000 && g.startNanos() < until; i++) {
            l.acquire(g);
            starts.add(new long[] {g.startNanos(), ScheduleUnits.slice(l.spec().opsPerSecond())});
        }
        return starts;
    }

    @Test
    void theAtomicLimitersAccountingStaysExactThroughARewind() {
        LockFreeRateLimiter l = (LockFreeRateLimiter) RateLimiters.builder(RateSpec.of(1000)).clock(clock)
                .sleeper(sleeper).build();
        Grant g = l.newGrant();
        List<long[]> all = new ArrayList<>(acquireUntil(l, g, T0 + 2 * S));
        l.reconfigure(RateSpec.of(0.01));
        long back = clock.nanoTime() + S;
        sleeper.at(back, () -> l.reconfigure(RateSpec.of(1000)));
        all.addAll(acquireUntil(l, g, back + 2 * S));
        long costs = all.stream().mapToLong(a -> a[1]).sum(); // each grant at the slice in force when granted
        assertEquals(all.size(), l.snapshot().permitsGranted());
        assertEquals(l.allocatedUnits(), costs + l.idleUnits(),
                "schedule advanced = granted + idle (nothing reserved)");
        assertTrue(l.idleUnits() >= ScheduleUnits.slice(0.01),
                "the waiter's slot of 100 s was given back as idle time");
        assertTrue(Math.abs(l.snapshot().lagNanos()) <= MS, "the schedule follows the clock to a slice: lag "
                + l.snapshot().lagNanos());
    }
}
