package dev.pacer.engine.hlog;

import java.util.Map;

/**
 * What a log records about one interval besides its histograms ({@code #[pacer interval] ...}): the
 * target, the ops, the errors by outcome and the phase, so a report can draw achieved against target
 * and errors over time, and leave warm-up out of its totals as the run's summary does.
 *
 * @param start   the interval's start, seconds since the log's start time
 * @param end     its end, seconds since the log's start time
 * @param target  the mean target rate over the interval, ops/s; NaN when unpaced
 * @param ops     ops completed in it
 * @param errors  error count by outcome label ({@code unexpected-5xx}, {@code timeout}, ...), none zero
 * @param phase   the scenario phase it belongs to, or null
 * @param warmup  whether that phase is a warm-up (its ops are not in the run's totals)
 * @param drain   after the schedule ended: its ops count, its time is not part of the run's length
 */
public record IntervalNote(double start, double end, double target, long ops, Map<String, Long> errors, String phase,
                           boolean warmup, boolean drain) {

    public IntervalNote {
        errors = Map.copyOf(errors);
    }

    /** All errors in the interval. */
    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The interval's length, seconds. */
    public double seconds() {
        return end - start;
    }
}
