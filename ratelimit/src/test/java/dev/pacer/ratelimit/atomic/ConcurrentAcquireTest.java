package dev.pacer.ratelimit.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ParkingSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many threads on the real clock: every grant accounted for exactly once and none early by more than
 * the park threshold. Assertions hold whatever the machine's load; they are about accounting and the
 * early bound, not about timing.
 */
class ConcurrentAcquireTest {

    static final int THREADS = 8;

    @ParameterizedTest(name = "strictness {0}")
    @ValueSource(strings = {"0", "0.25", "1", "1.1"})
    void everyGrantIsAccountedOnceAndNoneIsEarly(String strictness) throws Exception {
        int perThread = 5_000;
        LockFreeRateLimiter l = (LockFreeRateLimiter) RateLimiters.create(RateSpec.parse("200k," + strictness));
        long threshold = ParkingSleeper.calibrated().parkThresholdNanos();
        long[][] scheduled = new long[THREADS][perThread];
        long[][] early = new long[THREADS][1];
        long[] permits = new long[THREADS];
        runThreads(t -> {
            try (Grant g = l.newGrant()) {
                for (int i = 0; i < perThread; i++) {
                    l.acquire(g);
                    long started = System.nanoTime();
                    scheduled[t][i] = g.scheduledNanos();
                    early[t][0] = Math.max(early[t][0], g.scheduledNanos() - started);
                    if ((i & 1023) == 0) {
                        Thread.onSpinWait();
                    }
                }
                permits[t] = g.permitsGranted();
            }
        });

        long[] all = Arrays.stream(scheduled).flatMapToLong(Arrays::stream).sorted().toArray();
        for (int i = 1; i < all.length; i++) {
            assertTrue(all[i] > all[i - 1], "two grants shared scheduled time " + all[i]);
        }
        long total = Arrays.stream(permits).sum();
        assertEquals((long) THREADS * perThread, total);
        assertEquals(total, l.snapshot().permitsGranted());
        assertEquals(0, l.snapshot().reservedNanos(), "closed grants hold nothing");
        assertEquals(l.allocatedUnits(), total * l.sliceUnits() + l.idleUnits(),
                "the schedule advanced by exactly the slices granted plus the time given away");
        long worstEarly = Arrays.stream(early).mapToLong(e -> e[0]).max().orElseThrow();
        assertTrue(worstEarly <= threshold, "an op started " + worstEarly + " ns before its slot; threshold "
                + threshold);
        if (strictness.equals("0") || strictness.equals("1.1")) {
            long origin = all[0];
            for (int i = 0; i < all.length; i++) {
                assertEquals(origin + 5_000L * i, all[i], "no forfeits: the slots form the 5 µs grid with no holes");
            }
        }
    }

    @Test
    void changingStrictnessAndPausingWhileThreadsAcquireKeepsTheScheduleExactlyAccounted() throws Exception {
        LockFreeRateLimiter l = (LockFreeRateLimiter) RateLimiters.create(RateSpec.parse("500k"));
        long slice = l.sliceUnits();
        Controller controller = new Controller(l,
                i -> l.reconfigure(RateSpec.parse("500k," + new String[] {"0", "0.25", "1", "1.1", "0.5"}[i % 5])),
                () -> l.reconfigure(RateSpec.parse("500k,0.25")));
        long granted = acquireWhile(controller, l);

        assertEquals(granted, l.snapshot().permitsGranted(), "every grant counted once");
        assertEquals(0, l.snapshot().reservedNanos(), "closed grants hold nothing");
        assertEquals(l.allocatedUnits(), granted * slice + l.idleUnits(),
                "the schedule advanced by exactly the slices granted plus the time given away");
        assertTrue(l.idleUnits() >= ScheduleUnits.fromNanos(controller.pausedNanos),
                "every pause was given away as idle time: " + l.idleUnits() + " units idle, paused for "
                        + controller.pausedNanos + " ns");
    }

    @Test
    void changingTheRateWhileThreadsAcquireLosesNothingAndStallsNoOne() throws Exception {
        String[] specs = {"1M", "100k,1", "2M,0.5", "50k,1.1", "1G", "300k"};
        LockFreeRateLimiter l = (LockFreeRateLimiter) RateLimiters.create(RateSpec.parse("500k"));
        Controller controller = new Controller(l, i -> l.reconfigure(RateSpec.parse(specs[i % specs.length])),
                () -> l.reconfigure(RateSpec.parse("2M"))); // a rate increase while paused
        long granted = acquireWhile(controller, l);

        assertEquals(granted, l.snapshot().permitsGranted(), "every grant counted once");
        assertEquals(0, l.snapshot().reservedNanos(), "closed grants hold nothing");
        // each grant cost the slice in force when it was claimed: between the smallest and largest
        long costs = l.allocatedUnits() - l.idleUnits();
        assertTrue(costs >= granted * ScheduleUnits.slice(1e9) && costs <= granted * ScheduleUnits.slice(50e3),
                "the schedule advanced by the slices granted plus the time given away: " + costs + " units for "
                        + granted + " grants");
    }

    /** Runs {@link #THREADS} acquirers of 20 000 grants each while the controller changes the limiter. */
    private static long acquireWhile(Controller controller, LockFreeRateLimiter l) throws Exception {
        AtomicLong acquired = new AtomicLong();
        Thread control = new Thread(controller, "controller");
        control.start();
        try {
            runThreads(t -> {
                try (Grant g = l.newGrant()) {
                    long previous = Long.MIN_VALUE;
                    for (int i = 0; i < 20_000; i++) {
                        l.acquire(g);
                        assertTrue(g.scheduledNanos() > previous, "a thread's slots only move forward");
                        previous = g.scheduledNanos();
                        acquired.incrementAndGet();
                    }
                }
            });
        } finally {
            controller.done = true;
            control.join();
        }
        if (controller.failure != null) {
            throw new AssertionError("the controller failed", controller.failure);
        }
        assertTrue(controller.changes > 0, "the settings changed while threads acquired");
        assertEquals(THREADS * 20_000L, acquired.get());
        return acquired.get();
    }

    interface Change {
        void apply(int i);
    }

    /**
     * Applies change i = 0, 1, 2, ... every 300 µs until done; every 7th time it also pauses the limiter
     * for about 200 µs and applies {@code whilePaused} before resuming. Keeps its failure for the test.
     */
    static final class Controller implements Runnable {
        final RateLimiter limiter;
        final Change change;
        final Runnable whilePaused;
        volatile boolean done;
        volatile Throwable failure;
        volatile int changes;
        /** Time between pause() returning and resume() being called, summed: the limiter's pauses span it. */
        volatile long pausedNanos;

        Controller(RateLimiter limiter, Change change, Runnable whilePaused) {
            this.limiter = limiter;
            this.change = change;
            this.whilePaused = whilePaused;
        }

        @Override
        public void run() {
            try {
                for (int i = 0; !done; i++) {
                    change.apply(i);
                    if (i % 7 == 3) {
                        limiter.pause();
                        long pausedAt = System.nanoTime();
                        LockSupportSleep.micros(200);
                        whilePaused.run();
                        long resumingAt = System.nanoTime();
                        limiter.resume();
                        pausedNanos += resumingAt - pausedAt;
                    }
                    changes = i + 1;
                    LockSupportSleep.micros(300);
                }
            } catch (Throwable t) {
                failure = t;
            }
        }
    }

    interface Body {
        void run(int thread) throws Exception;
    }

    static void runThreads(Body body) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                try {
                    start.await();
                    body.run(id);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "acquirer-" + t);
            threads[t].start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(!thread.isAlive(), thread.getName() + " stalled");
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    static final class LockSupportSleep {
        static void micros(long us) {
            java.util.concurrent.locks.LockSupport.parkNanos(us * 1_000);
        }
    }
}
