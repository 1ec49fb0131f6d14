package dev.pacer.engine.api;

import dev.pacer.ratelimit.api.RateSpec;

/**
 * One reporting interval with its context, as the sinks (progress line, .hlog, status) receive it.
 *
 * @param stats         what was recorded in the interval
 * @param elapsedSec    seconds since the run started, at the interval's end
 * @param target        the rate in force at the interval's end, or null when unpaced
 * @param targetRate    the mean target over the interval (what it asked for, changes and pauses
 *                      included), ops/s; NaN when unpaced
 * @param threads       workers at the interval's end
 * @param phase         the phase the interval belongs to, or null
 * @param warmup        whether that phase is a warm-up
 * @param drain         an interval after the run's schedule ended, in which ops still in flight finished:
 *                      its ops count, its time is not part of the run's length
 * @param inFlight      asynchronous ops in flight at the interval's end
 * @param totalOps      measured ops so far (warm-up excluded)
 * @param totalSeconds  measured seconds so far
 * @param totalErrors   measured errors so far
 */
public record IntervalReport(IntervalStats stats, double elapsedSec, RateSpec target, double targetRate, int threads,
                             String phase,
                             boolean warmup, boolean drain, int inFlight, long totalOps, double totalSeconds,
                             long totalErrors) {

    /** Achieved rate in the interval, ops/s: of the ops started (not those counted {@code not-sent}). */
    public double rate() {
        double s = stats.seconds();
        return s > 0 ? stats.sent() / s : 0;
    }

    /** Achieved rate over the measured run so far, ops/s. */
    public double overallRate() {
        return totalSeconds > 0 ? totalOps / totalSeconds : 0;
    }
}
