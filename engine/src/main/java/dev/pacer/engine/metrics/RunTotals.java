package dev.pacer.engine.metrics;

import dev.pacer.engine.TargetLedger;
import dev.pacer.engine.op.Outcome;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Accumulates intervals into totals: the whole run's measured part, or one phase.
 *
 * <p>Histograms are added, never averaged: the totals' percentiles are those of every value recorded.
 * The target is summed as what it asked for ({@link TargetLedger}), so a run whose rate was changed,
 * ramped or paused compares its achieved rate with what was asked of it over time. Reporter thread only.
 */
public final class RunTotals {

    private final Map<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
    private final Map<Outcome, Long> outcomes = new LinkedHashMap<>();
    private double seconds;
    private TargetLedger.Target target = TargetLedger.Target.NONE;

    public RunTotals() {
        for (Metric m : Metric.values()) {
            histograms.put(m, IntervalStats.newHistogram());
        }
    }

    /** Adds an interval and what the target asked for in it. */
    public void add(IntervalStats interval, TargetLedger.Target asked) {
        for (Metric m : Metric.values()) {
            histograms.get(m).add(interval.histogram(m));
        }
        interval.outcomes().forEach((o, n) -> outcomes.merge(o, n, Long::sum));
        double s = interval.seconds();
        seconds += s;
        target = target.plus(asked);
    }

    public Histogram histogram(Metric m) {
        return histograms.get(m);
    }

    public long ops() {
        return histograms.get(Metric.RESPONSE).getTotalCount();
    }

    public long errors() {
        return outcomes.entrySet().stream().filter(e -> e.getKey().isError()).mapToLong(Map.Entry::getValue).sum();
    }

    public Map<Outcome, Long> outcomes() {
        return Map.copyOf(outcomes);
    }

    /** Outcome counts by label, in first-seen order. */
    public Map<String, Long> outcomesByLabel(boolean errorsOnly) {
        Map<String, Long> m = new LinkedHashMap<>();
        outcomes.forEach((o, n) -> {
            if (!errorsOnly || o.isError()) {
                m.put(o.label(), n);
            }
        });
        return m;
    }

    public double seconds() {
        return seconds;
    }

    public double achievedRate() {
        return seconds > 0 ? ops() / seconds : 0;
    }

    /** Mean target over the paced time (exact when it never changed), or NaN if none was paced. */
    public double targetRate() {
        return target.rate();
    }
}
