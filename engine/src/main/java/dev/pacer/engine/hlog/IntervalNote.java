package dev.pacer.engine.hlog;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a log records about one interval besides its histograms ({@code #[pacer interval] ...}): the
 * target, the ops, the errors by outcome and the phase, so a report can draw achieved against target
 * and errors over time, and leave warm-up out of its totals as the run's summary does; for a mix's run
 * (a workload), each named op's ops and errors too.
 *
 * @param start   the interval's start, seconds since the log's start time
 * @param end     its end, seconds since the log's start time
 * @param target  the mean target rate over the interval, ops/s; NaN when unpaced
 * @param ops     ops completed in it
 * @param errors  error count by outcome label ({@code unexpected-5xx}, {@code timeout}, ...), none zero
 * @param phase   the scenario phase it belongs to, or null
 * @param warmup  whether that phase is a warm-up (its ops are not in the run's totals)
 * @param drain   after the schedule ended: its ops count, its time is not part of the run's length
 * @param perOp   each named op's counts, in the ops' order; empty for a plain op's run and for older logs
 */
public record IntervalNote(double start, double end, double target, long ops, Map<String, Long> errors, String phase,
                           boolean warmup, boolean drain, Map<String, OpCounts> perOp) {

    /**
     * One named op's share of an interval.
     *
     * @param ops    its ops completed in the interval
     * @param errors its error count by outcome label, none zero
     */
    public record OpCounts(long ops, Map<String, Long> errors) {

        public OpCounts {
            errors = Map.copyOf(errors);
        }

        /** All its errors in the interval. */
        public long errorCount() {
            return errors.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    public IntervalNote {
        errors = Map.copyOf(errors);
        perOp = Collections.unmodifiableMap(new LinkedHashMap<>(perOp));
    }

    /** The note of an interval of a plain op's run: no named ops. */
    public IntervalNote(double start, double end, double target, long ops, Map<String, Long> errors, String phase,
                        boolean warmup, boolean drain) {
        this(start, end, target, ops, errors, phase, warmup, drain, Map.of());
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
