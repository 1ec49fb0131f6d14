package dev.pacer.engine.metrics;

import dev.pacer.engine.op.Outcome;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What every worker recorded during one reporting interval, merged: three histograms and the outcome
 * counts. Built by the reporter thread, then handed read-only to the sinks (progress line, .hlog,
 * status, totals).
 */
public final class IntervalStats {

    private final Histogram[] histograms = {newHistogram(), newHistogram(), newHistogram()};
    private long[] outcomes = new long[8];
    private long startNanos;
    private long endNanos;

    /** An empty auto-resizing histogram at pacer's precision. */
    public static Histogram newHistogram() {
        Histogram h = new Histogram(WorkerMetrics.DIGITS);
        h.setAutoResize(true);
        return h;
    }

    void add(Histogram wait, Histogram service, Histogram response) {
        histograms[Metric.WAIT.ordinal()].add(wait);
        histograms[Metric.SERVICE.ordinal()].add(service);
        histograms[Metric.RESPONSE.ordinal()].add(response);
    }

    void addOutcome(int id, long delta) {
        if (id >= outcomes.length) {
            outcomes = Arrays.copyOf(outcomes, Math.max(id + 1, outcomes.length * 2));
        }
        outcomes[id] += delta;
    }

    /** Sets the interval's bounds: monotonic nanos for rates, epoch millis for the .hlog timestamps. */
    void bounds(long startNanos, long endNanos, long startEpochMs, long endEpochMs) {
        this.startNanos = startNanos;
        this.endNanos = endNanos;
        for (Metric m : Metric.values()) {
            histograms[m.ordinal()].setStartTimeStamp(startEpochMs);
            histograms[m.ordinal()].setEndTimeStamp(endEpochMs);
            histograms[m.ordinal()].setTag(m.tag());
        }
    }

    /** The interval's histogram of one metric, tagged with the metric's tag. */
    public Histogram histogram(Metric metric) {
        return histograms[metric.ordinal()];
    }

    /** Ops completed in the interval (every op records exactly one response time). */
    public long ops() {
        return histograms[Metric.RESPONSE.ordinal()].getTotalCount();
    }

    /** Ops whose outcome is an error. */
    public long errors() {
        long n = 0;
        for (int id = 0; id < outcomes.length; id++) {
            if (outcomes[id] != 0 && Outcome.byId(id).isError()) {
                n += outcomes[id];
            }
        }
        return n;
    }

    /** Outcome counts by outcome, in id order, zero counts left out. */
    public Map<Outcome, Long> outcomes() {
        Map<Outcome, Long> m = new LinkedHashMap<>();
        for (int id = 0; id < outcomes.length; id++) {
            if (outcomes[id] != 0) {
                m.put(Outcome.byId(id), outcomes[id]);
            }
        }
        return m;
    }

    /** Monotonic clock at the interval's start. */
    public long startNanos() {
        return startNanos;
    }

    /** Monotonic clock at the interval's end. */
    public long endNanos() {
        return endNanos;
    }

    /** The interval's length in seconds. */
    public double seconds() {
        return (endNanos - startNanos) / 1e9;
    }
}
