package dev.pacer.ratelimit.api;

import java.time.Duration;

/**
 * Paces callers to a target rate and tells each how late it starts.
 *
 * <p>Every acquire takes the next slot of a schedule ({@code scheduled time}); a caller that arrives
 * early waits for it, a caller that arrives late goes at once, and the return value is its
 * <b>wait time</b>: start − scheduled, in nanoseconds, never negative. Summed with the op's service
 * time this is the response time a user would have seen at the target rate (coordinated omission
 * corrected).
 *
 * <h2>Guarantees</h2>
 * <ol>
 *   <li>All methods are thread-safe. {@code acquire} and {@code tryAcquire} are lock-free: no caller
 *       waits for another, only for its slot. Waiting parks the thread; it never spins.</li>
 *   <li>Every permit takes exactly one slice of schedule; the schedule's advance is the sum of the
 *       slices granted plus time given away ({@code idle}) plus slices claimed and not yet used
 *       ({@code reserved}), see {@link LimiterSnapshot}.</li>
 *   <li>An early caller never starts before its scheduled time by more than the sleeper's park
 *       threshold (about 2 × the measured cost of a park).</li>
 *   <li>{@link #reconfigure} keeps the schedule, counters and idle time; grants already handed out keep
 *       their times, the new slice applies from the next grant. One exception, so a change shows within one
 *       new slice whatever the old one was: on a rate increase a caller still waiting for a start that the
 *       old, longer slice put further out than the new rate would is woken and moved nearer (the atomic
 *       limiter gives its slot back as idle time and takes a new one; the family designs whose waits are
 *       priced at the rate keep its place in their queue and shrink the queue's time by the ratio of the
 *       rates). A brief change to a low rate does not hold the run at that rate's spacing after it.</li>
 * </ol>
 *
 * <h2>Callers' obligations</h2>
 * A {@link Grant} is used by one thread at a time. Close grants you create with {@link #newGrant()}
 * when the thread is done with them.
 */
public interface RateLimiter {

    /** Waits for one permit; returns its wait time in nanoseconds. Uninterruptible (the interrupt status is kept). */
    long acquire();

    /** Waits for {@code permits} (≥ 1) slices at once, e.g. bytes or a batch; returns the wait time in ns. */
    long acquire(long permits);

    /** As {@link #acquire()}, recording the result in the caller's own {@code grant}. */
    long acquire(Grant grant);

    /** As {@link #acquire(long)}, recording the result in the caller's own {@code grant}. */
    long acquire(long permits, Grant grant);

    /**
     * As {@link #acquire(Grant)}, but gives up when the thread is interrupted; the slot it held is
     * given away as idle time.
     */
    long acquireInterruptibly(Grant grant) throws InterruptedException;

    /**
     * As {@link #acquireInterruptibly(Grant)} for an op of {@code bytes} bytes: a design that meters bytes
     * as well as ops ({@link #metersBytes()}, e.g. {@code bucket} with a bytes rate) charges them too.
     * Default: the bytes are ignored.
     */
    default long acquireInterruptibly(Grant grant, long bytes) throws InterruptedException {
        return acquireInterruptibly(grant);
    }

    /**
     * Whether this limiter meters bytes, so callers should tell it each op's size; fixed when it is built. Default
     * false.
     */
    default boolean metersBytes() {
        return false;
    }

    /** Takes one permit only if it can start now; never reserves a slot it does not use. */
    boolean tryAcquire();

    /**
     * As {@link #tryAcquire()}, recording the slot in the caller's own {@code grant} ({@link Grant#scheduledNanos()}
     * says when it was due), the slots the grant already holds first: a run's accounting of the slots its schedule
     * owed when it stopped ({@code not-sent}) takes them this way, one at a time, until one is due at or after the
     * stop. Never waits, never reserves a slot it does not use.
     */
    boolean tryAcquire(Grant grant);

    /**
     * Takes {@code permits} only if they can start within {@code timeout}, waiting for them if so.
     * Never reserves a slot it then does not use.
     */
    boolean tryAcquire(long permits, Duration timeout);

    /** A new handle for one thread's acquires (see {@link Grant}). */
    Grant newGrant();

    /** Changes rate and strictness now, keeping schedule, counters and idle time. */
    void reconfigure(RateSpec spec);

    /** The spec in force. */
    RateSpec spec();

    /**
     * What the latest {@link #reconfigure} reset, for that change's log line; "" before any change, and when
     * it kept all its state (the atomic limiter always keeps schedule, counters and idle time). Read it
     * right after the change, from the thread that made it.
     */
    default String rateChangeNote() {
        return "";
    }

    /** How slots are spaced; fixed when the limiter is built. */
    default Arrivals arrivals() {
        return Arrivals.UNIFORM;
    }

    /**
     * The clock reading the schedule counts from (on the {@link NanoClock}'s scale): the first slot's
     * scheduled time. A run that starts its clock here has slot k at exactly start + k slices.
     */
    long originNanos();

    /**
     * Stops granting: acquirers wait until {@link #resume()}. Grants already handed out still start.
     * The paused time is given away as idle time when resumed, never released as a burst.
     */
    void pause();

    /** Ends a pause; the schedule continues where it stood when paused. */
    void resume();

    boolean isPaused();

    /** The accumulators now. */
    LimiterSnapshot snapshot();
}
