package dev.pacer.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The run with its four workers, on the manual clock: four threads acquire at 1000/s, the rate drops to
 * 0.01 (so three of them park on slots 100 s apart), and a second later it is set back to 1000. The test thread
 * moves the clock and makes the changes, as a control thread would; the parked workers must be woken by the
 * change (a park here blocks until the clock reaches its end or the limiter wakes it) and the second after the
 * change must hold about 1000 grants.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WaitersWokenOnManualClockTest extends DesignOnManualClock {

    static final int THREADS = 4;

    static List<String> designs() {
        return LimiterDesign.NAMES;
    }

    /**
     * A park blocks its thread until the manual clock reaches the park's end or the thread is woken; the clock
     * moves only by {@link #advance}, which releases the parks it ends before it returns.
     */
    static final class BlockingSleeper implements Sleeper {
        private final ManualNanoClock clock;
        /** Parked threads and the end of their park; guarded by this. */
        private final Map<Thread, Long> parkedUntil = new HashMap<>();
        /** Threads woken while not parked: their next park returns at once; guarded by this. */
        private final Set<Thread> pendingWake = new HashSet<>();

        BlockingSleeper(ManualNanoClock clock) {
            this.clock = clock;
        }

        @Override
        public synchronized void park(long nanos) {
            Thread me = Thread.currentThread();
            if (pendingWake.remove(me) || nanos <= 0) {
                return;
            }
            parkedUntil.put(me, clock.nanoTime() + nanos);
            notifyAll();
            try {
                while (parkedUntil.containsKey(me)) {
                    wait();
                }
            } catch (InterruptedException e) {
                parkedUntil.remove(me);
                me.interrupt();
            }
        }

        @Override
        public synchronized void wake(Thread thread) {
            if (parkedUntil.remove(thread) == null) {
                pendingWake.add(thread);
            }
            notifyAll();
        }

        /** Moves the clock and releases every park that ends by then. */
        synchronized void advance(long nanos) {
            long now = clock.advance(nanos);
            parkedUntil.values().removeIf(end -> end - now <= 0);
            notifyAll();
        }

        /** Waits until all {@link #THREADS} workers are parked here, up to 10 s. */
        synchronized void awaitAllParked() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (parkedUntil.size() < THREADS) {
                long left = deadline - System.nanoTime();
                assertTrue(left > 0, "the workers did not all park: " + parkedUntil.size() + " of " + THREADS);
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        @Override
        public long parkThresholdNanos() {
            return 0;
        }

        @Override
        public long parkOvershootNanos() {
            return 0;
        }
    }

    @ParameterizedTest
    @MethodSource("designs")
    void fourWorkersParkedAtALowRateAreWokenWhenTheRateIsSetBack(String design) throws Exception {
        BlockingSleeper sleeper = new BlockingSleeper(clock);
        RateLimiter l = RateLimiters.builder(RateSpec.of(1000)).design(LimiterDesign.parse(design)).clock(clock)
                .sleeper(sleeper).build();
        ConcurrentLinkedQueue<Long> starts = new ConcurrentLinkedQueue<>();
        runWorkers(l, Grant::startNanos, starts, () -> {
            runClockTo(sleeper, T0 + S);
            l.reconfigure(RateSpec.of(0.01));
            long back = clock.nanoTime() + S;
            runClockTo(sleeper, back);
            l.reconfigure(RateSpec.of(1000));
            runClockTo(sleeper, back + S + 10 * MS);
            long inSecond = starts.stream().filter(t -> t >= back && t < back + S).count();
            assertTrue(inSecond >= 990 && inSecond <= 1_010,
                    design + ": " + inSecond + " grants in the second after the rate was set back to 1000/s");
            assertEquals(starts.size(), l.snapshot().permitsGranted(), "every grant counted once");
        });
    }

    /**
     * Runs {@link #THREADS} workers acquiring on {@code l}, each adding {@code what} of every grant to {@code into},
     * while {@code changes} moves the clock and changes the limiter; then stops them.
     */
    private static void runWorkers(RateLimiter l, ToLongFunction<Grant> what, ConcurrentLinkedQueue<Long> into,
                                   Changes changes) throws Exception {
        Thread[] workers = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            workers[i] = new Thread(() -> {
                try (Grant g = l.newGrant()) {
                    while (!Thread.currentThread().isInterrupted()) {
                        l.acquireInterruptibly(g);
                        into.add(what.applyAsLong(g));
                    }
                } catch (InterruptedException e) {
                    // the test is over
                }
            }, "worker-" + i);
            workers[i].setDaemon(true);
            workers[i].start();
        }
        try {
            changes.play();
        } finally {
            for (Thread w : workers) {
                w.interrupt();
            }
            for (Thread w : workers) {
                w.join(5_000);
            }
        }
    }

    /** The atomic limiter's grants' scheduled times, in grant order, while {@code changes} plays. */
    private static List<Long> runAtomic(RateLimiter l, Changes changes) throws Exception {
        ConcurrentLinkedQueue<Long> scheduled = new ConcurrentLinkedQueue<>();
        runWorkers(l, Grant::scheduledNanos, scheduled, changes);
        return List.copyOf(scheduled);
    }

    interface Changes {
        void play() throws Exception;
    }

    @org.junit.jupiter.api.Test
    void aRampOfSmallRisesWithFourWaitersGrantsNoMoreThanItsLine() throws Exception {
        BlockingSleeper sleeper = new BlockingSleeper(clock);
        RateLimiter l = RateLimiters.builder(RateSpec.of(100)).clock(clock).sleeper(sleeper).build();
        // 100/s rising by 2/s every 10 ms for a second: 100 -> 298/s, the line's integral is 199 ops (+/- a slot
        // per waiter at the ends); each rise used to slip in an op per waiting thread
        List<Long> scheduled = runAtomic(l, () -> {
            for (int step = 1; step <= 100; step++) {
                runClockTo(sleeper, T0 + step * 10 * MS);
                l.reconfigure(RateSpec.of(100 + 2 * step));
            }
        });
        long inRamp = scheduled.stream().filter(t -> t >= T0 && t < T0 + S).count();
        assertTrue(inRamp >= 199 - THREADS && inRamp <= 199 + THREADS, inRamp + " grants in the ramp's second");
        assertEquals(scheduled.size(), Set.copyOf(scheduled).size(), "no scheduled time granted twice");
    }

    @org.junit.jupiter.api.Test
    void aSecondLargerRiseSoonAfterTheFirstNeverGrantsOneSlotTwice() throws Exception {
        BlockingSleeper sleeper = new BlockingSleeper(clock);
        RateLimiter l = RateLimiters.builder(RateSpec.of(1)).clock(clock).sleeper(sleeper).build();
        // at 1/s the four workers hold slots a second apart; 10/s at 0.95 s keeps the slot at 1 s (before its
        // point, 1.05 s) and takes back the rest; 1000/s at 0.96 s moves the schedule back further, to 0.961 s: the
        // slot at 1 s, kept by the first rise, lies after the second one's point and must be given back too, or
        // a new claim 39 slices on hands it out again
        List<Long> scheduled = runAtomic(l, () -> {
            runClockTo(sleeper, T0 + 950 * MS);
            l.reconfigure(RateSpec.of(10));
            runClockTo(sleeper, T0 + 960 * MS);
            l.reconfigure(RateSpec.of(1000));
            runClockTo(sleeper, T0 + 1460 * MS);
        });
        assertEquals(scheduled.size(), Set.copyOf(scheduled).size(), "no scheduled time granted twice: " + scheduled);
        long afterSecondRise = scheduled.stream().filter(t -> t >= T0 + 960 * MS && t < T0 + 1460 * MS).count();
        assertTrue(afterSecondRise >= 495 && afterSecondRise <= 505, afterSecondRise + " grants in the 500 ms at "
                + "1000/s");
    }

    /**
     * Moves the clock to {@code until} in steps of 100 µs; before each step, waits (up to 10 s of real time) until
     * every worker is parked, so each has taken every grant due by now.
     */
    static void runClockTo(BlockingSleeper sleeper, long until) throws InterruptedException {
        while (sleeper.clock.nanoTime() < until) {
            sleeper.awaitAllParked();
            sleeper.advance(Math.min(100 * US, until - sleeper.clock.nanoTime()));
        }
        sleeper.awaitAllParked();
    }
}
