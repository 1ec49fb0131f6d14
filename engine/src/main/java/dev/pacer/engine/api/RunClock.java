package dev.pacer.engine.api;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Instant;

/**
 * The time a run reads and waits on: every part of the run core (the activity, its workers and limiter,
 * the reporter, a scenario, the knee search, the in-flight bound, the ops' own timing) takes it from the
 * run, so a test can give the run a {@link ManualRunClock} and every deadline, cut and wait becomes exact.
 *
 * <p>{@link #system()} is the clock of real runs and the only place the engine reads the system's time.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #nanoTime()} is monotonic, on the scale of {@link System#nanoTime}.</li>
 *   <li>{@link #park} blocks like {@link java.util.concurrent.locks.LockSupport#parkNanos(long)}: it may
 *       return early (an {@link #unpark}, an interrupt, or spuriously), so callers re-check in a loop.</li>
 *   <li>A thread of the run wakes another parked on this clock with {@link #unpark} (not
 *       {@code LockSupport.unpark}) and starts threads of the run with {@link #start}: a manual clock must
 *       know who is runnable before it moves time.</li>
 * </ul>
 */
public interface RunClock extends NanoClock {

    /** Parks the calling thread for up to {@code nanos}; may return early (see the class doc). */
    void park(long nanos);

    /** Wakes {@code thread} if it is parked on this clock; otherwise its next park returns at once. */
    void unpark(Thread thread);

    /** The wall-clock instant now (for logs' start time and a test's start instant). */
    Instant instant();

    /** How the run's limiter parks its early callers, on this clock. */
    Sleeper sleeper();

    /** Starts a thread of the run with {@code builder}. */
    Thread start(Thread.Builder builder, Runnable task);

    /**
     * Sleeps {@code nanos} on this clock: parks until then, whatever wakes it early.
     *
     * @throws InterruptedException when interrupted (the interrupt status is cleared)
     */
    default void sleep(long nanos) throws InterruptedException {
        long until = nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - nanoTime()) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            park(left);
        }
    }

    /** The JVM's clocks: {@link System#nanoTime}, {@code LockSupport} parks, the calibrated limiter sleeper. */
    static RunClock system() {
        return SystemRunClock.INSTANCE;
    }
}
