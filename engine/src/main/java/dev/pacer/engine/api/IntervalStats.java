package dev.pacer.engine.api;


import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What every worker recorded during one reporting interval, merged: three histograms and the outcome
 * counts, of the run's totals and, when its op is a mix ({@link dev.pacer.engine.op.OpMix}), of each named op
 * ({@link #op(int)}, the same shape; the ops' figures add up to the totals'). Built by the reporter thread, then
 * handed read-only to the sinks (progress line, .hlog, status, totals).
 */
public final class IntervalStats {

    /** Significant decimal digits of every histogram pacer records (HdrHistogram's precision). */
    public static final int DIGITS = 3;

    private final Histogram[] histograms = {newHistogram(), newHistogram(), newHistogram()};
    private long[] outcomes = new long[8];
    private long startNanos;
    private long endNanos;
    /** The named op these are the figures of, or null for the totals. */
    private final String opName;
    private final List<String> opNames;
    /** Each named op's figures, in {@link #opNames} order (none for an op's own). */
    private final IntervalStats[] ops;
    /** A multi-step named op's service time per step, tagged by {@link OpTag#ofStep}; none for the totals. */
    private Histogram[] steps = new Histogram[0];

    /** The figures of a run with no named ops. */
    public IntervalStats() {
        this(null, List.of());
    }

    /** The figures of a run whose op mix names {@code opNames}: the totals and each op's. */
    public IntervalStats(List<String> opNames) {
        this(null, opNames);
    }

    private IntervalStats(String opName, List<String> opNames) {
        this.opName = opName;
        this.opNames = List.copyOf(opNames);
        this.ops = new IntervalStats[opNames.size()];
        for (int i = 0; i < ops.length; i++) {
            ops[i] = new IntervalStats(opNames.get(i), List.of());
        }
    }

    /** An empty auto-resizing histogram at pacer's precision. */
    public static Histogram newHistogram() {
        Histogram h = new Histogram(DIGITS);
        h.setAutoResize(true);
        return h;
    }

    /** Adds one worker's interval histograms: the reporter's, while it builds the interval, before handing it out. */
    public void add(Histogram wait, Histogram service, Histogram response) {
        histograms[Metric.WAIT.ordinal()].add(wait);
        histograms[Metric.SERVICE.ordinal()].add(service);
        histograms[Metric.RESPONSE.ordinal()].add(response);
    }

    /** Adds one worker's interval histogram of step {@code i}'s service time (a named op's): the reporter's. */
    public void addStep(int i, Histogram service) {
        if (i >= steps.length) {
            int had = steps.length;
            steps = Arrays.copyOf(steps, i + 1);
            for (int k = had; k <= i; k++) {
                steps[k] = newHistogram();
            }
        }
        steps[i].add(service);
    }

    /** How many steps' service times these figures keep (a multi-step named op's; 0 otherwise). */
    public int steps() {
        return steps.length;
    }

    /** Step {@code i}'s service time (from 0), tagged {@code service.NAME#i+1} ({@link OpTag#ofStep}). */
    public Histogram step(int i) {
        return steps[i];
    }

    /** Adds to one outcome's count: the reporter's, while it builds the interval. */
    public void addOutcome(int id, long delta) {
        if (id >= outcomes.length) {
            outcomes = Arrays.copyOf(outcomes, Math.max(id + 1, outcomes.length * 2));
        }
        outcomes[id] += delta;
    }

    /** Sets the interval's bounds: monotonic nanos for rates, epoch millis for the .hlog timestamps. */
    public void bounds(long startNanos, long endNanos, long startEpochMs, long endEpochMs) {
        this.startNanos = startNanos;
        this.endNanos = endNanos;
        for (Metric m : Metric.values()) {
            histograms[m.ordinal()].setStartTimeStamp(startEpochMs);
            histograms[m.ordinal()].setEndTimeStamp(endEpochMs);
            histograms[m.ordinal()].setTag(opName == null ? m.tag() : OpTag.of(m, opName));
        }
        for (int i = 0; i < steps.length; i++) {
            steps[i].setStartTimeStamp(startEpochMs);
            steps[i].setEndTimeStamp(endEpochMs);
            steps[i].setTag(OpTag.ofStep(opName, i + 1));
        }
        for (IntervalStats op : ops) {
            op.bounds(startNanos, endNanos, startEpochMs, endEpochMs);
        }
    }

    /** The run's named ops, in their order; empty when its op is not a mix (and for an op's own figures). */
    public List<String> opNames() {
        return opNames;
    }

    /** The figures of named op {@code index} (an index into {@link #opNames()}), tagged with {@link OpTag}s. */
    public IntervalStats op(int index) {
        return ops[index];
    }

    /** The named op these figures are of, or null for the run's totals. */
    public String opName() {
        return opName;
    }

    /** The interval's histogram of one metric, tagged with the metric's tag (an {@link OpTag} for an op's). */
    public Histogram histogram(Metric metric) {
        return histograms[metric.ordinal()];
    }

    /** Ops completed in the interval (every op records exactly one response time). */
    public long ops() {
        return histograms[Metric.RESPONSE.ordinal()].getTotalCount();
    }

    /** Ops started: {@link #ops()} but those counted {@link Outcome#NOT_SENT} (the run ended before they could). */
    public long sent() {
        int id = Outcome.NOT_SENT.id();
        return ops() - (id < outcomes.length ? outcomes[id] : 0);
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
