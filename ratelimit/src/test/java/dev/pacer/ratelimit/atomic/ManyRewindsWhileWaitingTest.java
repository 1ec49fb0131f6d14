package dev.pacer.ratelimit.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A caller waiting for a far slot while the rate is raised again and again (a staircase of small steps every
 * millisecond at about 1 op/s, or a script retuning over the control endpoint), on the manual clock.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ManyRewindsWhileWaitingTest {

    static final long T0 = 1_000_000_000L;
    static final long MS = 1_000_000L;

    final ManualNanoClock time = new ManualNanoClock(T0);
    final ManualSleeper sleeper = new ManualSleeper(time);
    final RateLimiter l = RateLimiters.builder(RateSpec.of(0.01)).clock(time).sleeper(sleeper).build();
    final Grant g = l.newGrant();

    @Test
    void aWaiterWhoseSlotIsTakenBackByEachOfManyRisesTakesEachNewOneWithoutTheStackGrowing() throws Exception {
        l.acquire(g); // the first slot, at once; the next is 100 s away
        int rise = 0;
        for (int k = 1; k <= 50_000; k++) {
            // more rises in a millisecond than are remembered: the waiter's slot is given back, a new one taken
            double[] rates = new double[LockFreeRateLimiter.REWIND_RING];
            for (int i = 0; i < rates.length; i++) {
                rates[i] = 0.01 + ++rise * 1e-9;
            }
            sleeper.at(T0 + k * MS, () -> {
                for (double r : rates) {
                    l.reconfigure(RateSpec.of(r));
                }
            });
        }
        acquireOnASmallStack();
    }

    @Test
    void aWaiterWokenByEachOfManySmallRisesKeepsItsSlotNotPushedOutByEach() throws Exception {
        l.acquire(g); // the first slot, at once; the next is 100 s away
        for (int k = 1; k <= 90_000; k++) {
            double rate = 0.01 + k * 1e-9; // a rise every millisecond, each too small to take that slot back
            sleeper.at(T0 + k * MS, () -> l.reconfigure(RateSpec.of(rate)));
        }
        acquireOnASmallStack();
        // pushed to a new slot a new slice out at every 32nd rise, it went only after the rises ended, at 199 s
        assertEquals(100_000 * MS, g.scheduledNanos() - T0, "the slot the first rate gave it");
    }

    /** One acquire on a thread with a small stack, as a worker may have: it must not grow with the rewinds. */
    private void acquireOnASmallStack() throws InterruptedException {
        Throwable[] failed = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                l.acquire(g);
            } catch (Throwable e) {
                failed[0] = e;
            }
        }, "waiter", 256 * 1024);
        t.start();
        t.join();
        assertNull(failed[0], "the waiter failed");
        assertEquals(2, g.permitsGranted());
    }
}
