package dev.pacer.ratelimit;

/**
 * One caller's handle on a limiter: the result of its latest acquire, and its private tallies.
 *
 * <h2>Threading</h2>
 * A grant belongs to one thread at a time (single writer): pass one to each worker, or let the
 * limiter keep one per thread behind {@link RateLimiter#acquire()}. Nothing in it is shared on the
 * hot path, which is what lets the limiter count permits and wait time without a second contended
 * atomic, and lets a caller far behind schedule claim a run of slices with one atomic add.
 *
 * <h2>Results</h2>
 * After {@code wait = limiter.acquire(grant)}: {@link #scheduledNanos()} is the op's scheduled time,
 * {@link #startNanos()} the limiter's reading of its start time and {@link #waitNanos()} the wait
 * (= start − scheduled, ≥ 0), all on the {@link NanoClock}'s scale. On the fast path the start is the
 * grant's cached clock or the caller's own latest reading ({@link #sawClock}), whichever is later:
 * less than twice the staleness target (1 µs) old while the caller keeps its pace (see
 * {@link LockFreeRateLimiter}), so wait is a lower bound there. An early caller that went without parking
 * (its delay was below the park threshold) starts before its scheduled time and reports a wait of 0.
 *
 * <p>{@link #close()} returns any unused run of slices to the limiter (to the schedule, or as idle time) and folds the
 * tallies into the limiter's totals; a grant that is just dropped is folded when it is collected.
 */
public final class Grant implements AutoCloseable {

    /** The atomic limiter this grant belongs to; null for a grant of a {@link LockingLimiter}. */
    final LockFreeRateLimiter limiter;
    /** The locking limiter this grant belongs to; null for a grant of the atomic limiter. */
    final LockingLimiter locking;
    /** The owner's origin: results are kept in schedule units from it. */
    final long origin;
    final GrantState state;

    // Results of the latest acquire; plain fields, read by the owning thread.
    long scheduledUnits;
    long startUnits;
    long waitNanos;

    /** The thread this grant was made for behind {@link RateLimiter#acquire()}; -1 for grants handed out. */
    final long ownerThreadId;
    /** This grant's entry in the limiter's registry; set once, before the grant is handed out. */
    GrantRegistry.GrantRef ref;

    Grant(LockFreeRateLimiter limiter, GrantState state, long ownerThreadId) {
        this.limiter = limiter;
        this.locking = null;
        this.origin = limiter.origin;
        this.state = state;
        this.ownerThreadId = ownerThreadId;
    }

    Grant(LockingLimiter locking) {
        this.limiter = null;
        this.locking = locking;
        this.origin = locking.originNanos();
        this.state = new GrantState(0);
        this.ownerThreadId = -1;
    }

    /** Scheduled time of the latest grant, on the clock's scale. */
    public long scheduledNanos() {
        return origin + ScheduleUnits.toNanos(scheduledUnits);
    }

    /** Start time of the latest grant as the limiter saw it, on the clock's scale. */
    public long startNanos() {
        return origin + ScheduleUnits.toNanos(startUnits);
    }

    /** Wait time of the latest grant, in nanoseconds (≥ 0); the same value acquire returned. */
    public long waitNanos() {
        return waitNanos;
    }

    /** Permits this grant has been given so far. */
    public long permitsGranted() {
        return state.permits;
    }

    /** Sum of the waits this grant has returned, in nanoseconds. */
    public long totalWaitNanos() {
        return state.waitSum;
    }

    /** Records a grant and returns its wait in nanoseconds. Owner thread only. */
    long granted(long schUnits, long startUnits, long permits) {
        long lag = startUnits - schUnits;
        long wait = lag > 0 ? lag >> ScheduleUnits.FRACTION_BITS : 0;
        this.scheduledUnits = schUnits;
        this.startUnits = startUnits;
        this.waitNanos = wait;
        state.tally(permits, wait);
        return wait;
    }

    /**
     * Tells the limiter this thread read the clock at {@code nanoTime} (on the {@link NanoClock}'s scale),
     * e.g. its op's end. The next acquire uses it as a floor of the current time: a slot before it goes
     * without a clock read, and its start and wait are exact to within what the caller did since.
     * Optional; free, but for one CAS when strictness is between 0 and 1 and the schedule is behind the
     * reading (burst compensation: see {@link StrictnessMode#COMPENSATING}). The engine's workers call it
     * with every op's end time.
     */
    public void sawClock(long nanoTime) {
        long units = ScheduleUnits.fromNanos(nanoTime - origin);
        state.hintUnits = units;
        if (limiter != null) {
            limiter.sawClock(units);
        }
    }

    /**
     * Gives unused slices back (as idle time) and folds the tallies into the limiter. Idempotent. A
     * closed grant cannot acquire again ({@link IllegalStateException}): ask for a new one.
     */
    @Override
    public void close() {
        if (limiter != null) {
            limiter.registry.retire(this);
        } else {
            state.closed = true;
        }
    }
}
