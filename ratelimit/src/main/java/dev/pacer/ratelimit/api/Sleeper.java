package dev.pacer.ratelimit.api;

import java.util.concurrent.locks.LockSupport;

/**
 * How the limiter makes an early caller wait, and what waiting costs on this machine.
 *
 * <p>The limiter never spins: a caller that is early by at least {@link #parkThresholdNanos()} is
 * parked for its delay minus {@link #parkOvershootNanos()} (the time a park typically oversleeps),
 * then re-checks the clock; a caller early by less than the threshold goes at once. See
 * {@link ParkingSleeper} for the production implementation and {@link ManualSleeper} for tests.
 */
public interface Sleeper {

    /**
     * Blocks the calling thread for up to {@code nanos} nanoseconds. May return early (spuriously or
     * because the thread was interrupted; the interrupt status is left set). Never spins.
     */
    void park(long nanos);

    /**
     * Ends a park of {@code thread} early (or the next one, if it is not parked now): a rate change that moves
     * waiters' slots earlier wakes them with it. Default: {@link LockSupport#unpark}.
     */
    default void wake(Thread thread) {
        LockSupport.unpark(thread);
    }

    /** Early callers whose delay is below this many nanoseconds are not parked at all. */
    long parkThresholdNanos();

    /** How much longer than requested a park typically lasts; subtracted from each requested park. */
    long parkOvershootNanos();
}
