package dev.pacer.ratelimit.api;

/**
 * One caller's handle on a limiter: the result of its latest acquire, and its private tallies. Each
 * limiter makes its own kind ({@link RateLimiter#newGrant()}) and takes only the grants it made; this
 * class holds what every kind shares, the results, so reading them is a plain field read whatever the kind.
 *
 * <h2>Threading</h2>
 * A grant belongs to one thread at a time (single writer): pass one to each worker, or let the
 * limiter keep one per thread behind {@link RateLimiter#acquire()}. Nothing in it is shared on the
 * hot path, which is what lets the atomic limiter count permits and wait time without a second contended
 * atomic, and lets a caller far behind schedule claim a run of slices with one atomic add.
 *
 * <h2>Results</h2>
 * After {@code wait = limiter.acquire(grant)}: {@link #scheduledNanos()} is the op's scheduled time,
 * {@link #startNanos()} the limiter's reading of its start time and {@link #waitNanos()} the wait
 * (= start − scheduled, ≥ 0), all on the {@link NanoClock}'s scale. On the atomic limiter's fast path the
 * start is the grant's cached clock or the caller's own latest reading ({@link #sawClock}), whichever is
 * later: less than twice the staleness target (1 µs) old while the caller keeps its pace (see
 * {@code LockFreeRateLimiter}), so wait is a lower bound there. An early caller that went without parking
 * (its delay was below the park threshold) starts before its scheduled time and reports a wait of 0.
 *
 * <p>{@link #close()} returns any unused run of slices to the limiter (to the schedule, or as idle time) and
 * folds the tallies into the limiter's totals; a grant that is just dropped is folded when it is collected.
 *
 * <p>Each limiter takes only its own kind of grant, and only those it made: any other subclass, or another
 * limiter's grant, is refused ({@link IllegalArgumentException}).
 */
public abstract class Grant implements AutoCloseable {

    /** The owner's origin (on the clock's scale): results are kept in {@link ScheduleUnits} from it. */
    private final long origin;

    // Results of the latest acquire; plain fields, written by recorded() and read by the owning thread.
    private long scheduledUnits;
    private long startUnits;
    private long waitNanos;

    /** A grant of a limiter whose schedule counts from {@code origin} (on the clock's scale). */
    protected Grant(long origin) {
        this.origin = origin;
    }

    /** Scheduled time of the latest grant, on the clock's scale. */
    public final long scheduledNanos() {
        return origin + ScheduleUnits.toNanos(scheduledUnits);
    }

    /** Start time of the latest grant as the limiter saw it, on the clock's scale. */
    public final long startNanos() {
        return origin + ScheduleUnits.toNanos(startUnits);
    }

    /** Wait time of the latest grant, in nanoseconds (≥ 0); the same value acquire returned. */
    public final long waitNanos() {
        return waitNanos;
    }

    /** Permits this grant has been given so far. */
    public abstract long permitsGranted();

    /** Sum of the waits this grant has returned, in nanoseconds. */
    public abstract long totalWaitNanos();

    /**
     * Tells the limiter this thread read the clock at {@code nanoTime} (on the {@link NanoClock}'s scale),
     * e.g. its op's end. The atomic limiter's next acquire uses it as a floor of the current time: a slot
     * before it goes without a clock read, and its start and wait are exact to within what the caller did
     * since. Optional; free, but for one CAS when strictness is between 0 and 1 and the schedule is behind
     * the reading (burst compensation: see {@link StrictnessMode#COMPENSATING}). The engine's workers call
     * it with every op's end time. Designs that read the clock on every acquire ignore it.
     */
    public abstract void sawClock(long nanoTime);

    /**
     * Gives unused slices back (as idle time) and folds the tallies into the limiter. Idempotent. A
     * closed grant cannot acquire again ({@link IllegalStateException}): ask for a new one.
     */
    @Override
    public abstract void close();

    /** The origin the results count from, on the clock's scale (for subclasses). */
    protected final long originNanos() {
        return origin;
    }

    /**
     * Records the latest grant's results, in {@link ScheduleUnits} from the origin, and returns its wait in
     * nanoseconds (start − scheduled, rounded down; 0 if it started early). Owner thread only: for the
     * limiters' grants, which add their own tallies.
     */
    protected final long recorded(long schUnits, long startUnits) {
        long lag = startUnits - schUnits;
        long wait = lag > 0 ? lag >> ScheduleUnits.FRACTION_BITS : 0;
        this.scheduledUnits = schUnits;
        this.startUnits = startUnits;
        this.waitNanos = wait;
        return wait;
    }
}
