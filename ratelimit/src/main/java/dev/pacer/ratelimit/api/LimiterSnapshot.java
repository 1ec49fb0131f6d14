package dev.pacer.ratelimit.api;

/**
 * The limiter's accumulators at one moment, in nanoseconds (rounded down).
 *
 * <p>Invariant, up to rounding: {@code allocatedNanos = permits granted × slice (at the slice in force
 * when each was granted) + idleNanos + reservedNanos}. Figures are read one after another while other
 * threads may be acquiring, so under concurrency each is exact as of some instant during the call.
 *
 * @param spec           the spec in force
 * @param paused         whether the limiter is paused
 * @param allocatedNanos how far the schedule has advanced since the limiter was created: the pointer, plus
 *                       what a rate increase took back to reschedule its waiters (their slots are then
 *                       given away as idle time, so the invariant holds)
 * @param idleNanos      schedule time given away: forfeited by strictness, by a pause, by a rate change
 *                       while behind (so the backlog keeps its size in ops), or by interrupted acquires
 * @param reservedNanos  schedule claimed by threads in runs of slices and not yet used
 * @param permitsGranted permits handed out by acquire and tryAcquire (one per op for plain acquire)
 * @param totalWaitNanos sum of the wait times returned
 * @param lagNanos       clock minus schedule pointer when the snapshot was taken: positive means the
 *                       schedule is behind (a backlog), negative means grants are handed out ahead
 * @param refusals       requests a refusing design ({@code leaky} with a queue bound, the windows) turned
 *                       away and the caller asked again for; 0 for the atomic limiter, which refuses nothing
 * @param design         the design's name ({@code atomic}, {@code leaky}, ...: see {@code LimiterDesign})
 */
public record LimiterSnapshot(RateSpec spec, boolean paused, long allocatedNanos, long idleNanos,
                              long reservedNanos, long permitsGranted, long totalWaitNanos, long lagNanos,
                              long refusals, String design) {

    /** A snapshot of the atomic limiter, which refuses nothing. */
    public LimiterSnapshot(RateSpec spec, boolean paused, long allocatedNanos, long idleNanos,
                           long reservedNanos, long permitsGranted, long totalWaitNanos, long lagNanos) {
        this(spec, paused, allocatedNanos, idleNanos, reservedNanos, permitsGranted, totalWaitNanos, lagNanos, 0,
                "atomic");
    }
}
