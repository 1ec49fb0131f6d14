package dev.pacer.engine.run;

import dev.pacer.engine.api.Shard;

import dev.pacer.engine.api.RunClock;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * An activity's times on the run's clock: the wall-clock instant it starts at, the origin its clock and
 * schedule count from, and the deadline at and after which no op starts.
 *
 * <h2>Threads</h2>
 * The thread that starts the activity waits for the start-at instant and then starts the clock; control
 * threads move the deadline when they change the rate and read the start to time their changes; workers read
 * the deadline once per op and say when they reached it; any thread may wait for the start.
 *
 * <h2>Shared fields</h2>
 * {@code started} and {@code startNanos}: written once, under the activity's lock ({@code lock}), by
 * {@link #claimStart} and {@link #start}; read under the lock only. {@code deadlineNanos}: written under the lock
 * ({@link #updateDeadline}), a volatile that workers read without it. {@code deadlineReached}: a volatile that
 * workers set as they leave and any thread reads. {@code startedLatch}: counted down once, under the lock, when
 * the run has started; what was written under the lock before is visible to a thread its wait returns on.
 */
final class RunTimeline {

    /** The activity's lock: guards {@code started} and {@code startNanos}, and every write of the deadline. */
    private final Object lock;
    private final ActivityConfig config;
    private final RunClock clock;
    private final CountDownLatch startedLatch = new CountDownLatch(1);
    /** True once the activity started (or failed to, started twice). Under the lock. */
    private boolean started;
    /** Monotonic time the run's clock starts at. Under the lock. */
    private long startNanos;
    /**
     * No op scheduled (or, unpaced, started) at or after this monotonic time starts; Long.MAX_VALUE
     * without a duration. It is the run's end scaled by the limiter's rounding of the slice (see
     * {@link RateSpec#scheduledSliceNanos()}), so a 5 s run at 3 ops/s has the 15 slots of 0 .. 4.67 s and
     * not a 16th whose rounded time falls a hair before 5 s. Written under the lock, read by workers.
     */
    private volatile long deadlineNanos = Long.MAX_VALUE;
    /**
     * Set by a worker that stopped because its next op would start at or after the deadline: the run
     * ended by its duration even if every worker got there (woken a little early by the park
     * overshoot) before the reporter saw the clock pass the deadline. Written once per worker at exit.
     */
    volatile boolean deadlineReached;

    RunTimeline(Object lock, ActivityConfig config, RunClock clock) {
        this.lock = lock;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Sleeps until the wall-clock instant (if ahead; {@link ActivityConfig} bounds how far), in steps of at most
     * 50 ms so that a stop ({@code running} false) ends the wait; returns the instant on the monotonic clock (now,
     * when stopped). Outside the lock.
     */
    long awaitStartAt(Instant at, BooleanSupplier running) {
        long aheadNanos = Duration.between(clock.instant(), at).toNanos();
        long target = clock.nanoTime() + aheadNanos;
        for (long left = aheadNanos; left > 0; left = target - clock.nanoTime()) {
            if (!running.getAsBoolean()) {
                return clock.nanoTime();
            }
            clock.park(Math.min(left, 50_000_000));
        }
        return target;
    }

    /**
     * Marks the activity started. Under the lock.
     *
     * @throws IllegalStateException when started twice
     */
    void claimStart() {
        if (started) {
            throw new IllegalStateException("already started");
        }
        started = true;
    }

    /**
     * Starts the run's clock, after {@link #claimStart}, and returns its start: the start-at instant
     * {@code testStart} (null without one) or now. A paced run's limiter is made by {@code pace}, given the
     * origin its schedule counts from (null: its own creation); its set-up (the park-cost calibration, ~15 ms
     * once per JVM, and class loading) comes before an unsharded run's start without an instant, which is the
     * limiter's origin: slot k is at exactly start + k slices, and a 10 s run at 1000 ops/s has 10 000 slots
     * before its deadline. Under the lock.
     */
    long start(Long testStart, Function<Long, RateLimiter> pace) {
        if (config.rate() != null) {
            long origin = testStart != null ? testStart : clock.nanoTime();
            Shard shard = config.shard();
            Long limiterOrigin = null; // the limiter's own clock at its creation
            if (shard != null) {
                limiterOrigin = origin + shard.offsetNanos(config.rate().opsPerSecond());
            } else if (testStart != null) {
                limiterOrigin = origin;
            }
            RateLimiter limiter = pace.apply(limiterOrigin);
            startNanos = testStart != null || shard != null ? origin : limiter.originNanos();
        } else {
            startNanos = testStart != null ? testStart : clock.nanoTime();
        }
        return startNanos;
    }

    /** Lets every thread waiting in {@link #awaitStarted} go on. Under the lock, once the run has started. */
    void started() {
        startedLatch.countDown();
    }

    /** Waits until the activity has started; false on timeout. */
    boolean awaitStarted(long timeout, TimeUnit unit) throws InterruptedException {
        return startedLatch.await(timeout, unit);
    }

    /** Monotonic time the run's clock started at (0 before it has). Takes the lock. */
    long startNanos() {
        synchronized (lock) {
            return startNanos;
        }
    }

    /** Seconds from the start to {@code nanos}, or 0 before the run has started. Under the lock. */
    double secondsAt(long nanos) {
        return started ? (nanos - startNanos) / 1e9 : 0;
    }

    /** {@code nanos}, or the start when the run has started after it. Under the lock. */
    long notBeforeStart(long nanos) {
        return started && nanos - startNanos < 0 ? startNanos : nanos;
    }

    /**
     * Sets the deadline for the rate in force ({@code rate}, null when unpaced); see {@link #deadlineNanos}.
     * Under the lock.
     */
    void updateDeadline(RateSpec rate) {
        if (config.duration() == null || !started) {
            return;
        }
        long d = config.duration().toNanos();
        double scale = rate == null ? 1.0 : rate.scheduledSliceNanos() / rate.sliceNanos();
        deadlineNanos = startNanos + (long) Math.floor(d * scale);
    }

    /** Monotonic time at which the run ends (no op scheduled then or later starts), or Long.MAX_VALUE. */
    long deadlineNanos() {
        return deadlineNanos;
    }
}
