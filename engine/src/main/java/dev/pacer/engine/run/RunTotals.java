package dev.pacer.engine.run;

import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.OpSummary;
import dev.pacer.engine.api.RunFigures;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Accumulates intervals into totals: the whole run's measured part (with each named op's, for an op mix), or one
 * phase.
 *
 * <p>Histograms are added, never averaged: the totals' percentiles are those of every value recorded.
 * The target is summed as what it asked for ({@link TargetLedger}), so a run whose rate was changed,
 * ramped or paused compares its achieved rate with what was asked of it over time. Reporter thread only.
 */
final class RunTotals {

    private final Map<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
    private final Map<Outcome, Long> outcomes = new LinkedHashMap<>();
    private double seconds;
    private TargetLedger.Target target = TargetLedger.Target.NONE;
    /** The run's named ops whose totals these keep too; empty for a plain op (and for a phase's totals). */
    private final List<String> opNames;
    /** Each named op's totals, in {@link #opNames} order. */
    private final RunTotals[] ops;
    /** A multi-step named op's service time per step (an op's totals only). */
    private final List<Histogram> steps = new ArrayList<>();

    /** Totals without named ops' figures. */
    RunTotals() {
        this(List.of());
    }

    /** Totals with each of {@code opNames}' too (intervals added must carry those ops). */
    RunTotals(List<String> opNames) {
        for (Metric m : Metric.values()) {
            histograms.put(m, IntervalStats.newHistogram());
        }
        this.opNames = List.copyOf(opNames);
        this.ops = new RunTotals[opNames.size()];
        for (int i = 0; i < ops.length; i++) {
            ops[i] = new RunTotals();
        }
    }

    /**
     * Adds an interval and what the target asked for in it; its time counts toward the run's length
     * unless it is a drain interval ({@code countTime} false: ops finishing after the schedule ended).
     */
    void add(IntervalStats interval, TargetLedger.Target asked, boolean countTime) {
        for (Metric m : Metric.values()) {
            histograms.get(m).add(interval.histogram(m));
        }
        interval.outcomes().forEach((o, n) -> outcomes.merge(o, n, Long::sum));
        if (countTime) {
            seconds += interval.seconds();
        }
        target = target.plus(asked);
        for (int k = 0; k < interval.steps(); k++) {
            while (steps.size() <= k) {
                steps.add(IntervalStats.newHistogram());
            }
            steps.get(k).add(interval.step(k));
        }
        for (int i = 0; i < ops.length; i++) { // an op's time is the run's; it has no target of its own
            ops[i].add(interval.op(i), TargetLedger.Target.NONE, countTime);
        }
    }

    long ops() {
        return histograms.get(Metric.RESPONSE).getTotalCount();
    }

    long errors() {
        return outcomes.entrySet().stream().filter(e -> e.getKey().isError()).mapToLong(Map.Entry::getValue).sum();
    }

    double seconds() {
        return seconds;
    }

    /** Outcome counts by label, in first-seen order. */
    Map<String, Long> outcomesByLabel(boolean errorsOnly) {
        Map<String, Long> m = new LinkedHashMap<>();
        outcomes.forEach((o, n) -> {
            if (!errorsOnly || o.isError()) {
                m.put(o.label(), n);
            }
        });
        return m;
    }

    /** Copies of the histograms so far, by metric. */
    Map<Metric, Histogram> histograms() {
        Map<Metric, Histogram> copies = new EnumMap<>(Metric.class);
        histograms.forEach((m, h) -> copies.put(m, h.copy()));
        return copies;
    }

    /** Each named op's figures so far, in their order; empty without named ops. */
    List<OpSummary> perOp() {
        List<OpSummary> out = new ArrayList<>(ops.length);
        for (int i = 0; i < ops.length; i++) {
            out.add(new OpSummary(opNames.get(i), ops[i].figures(), ops[i].outcomesByLabel(false),
                    ops[i].outcomesByLabel(true), ops[i].steps.stream().map(LatencySummary::of).toList()));
        }
        return List.copyOf(out);
    }

    /** The figures so far. */
    RunFigures figures() {
        Map<Metric, LatencySummary> latencies = new EnumMap<>(Metric.class);
        histograms.forEach((m, h) -> latencies.put(m, LatencySummary.of(h)));
        long sent = ops() - outcomes.getOrDefault(Outcome.NOT_SENT, 0L); // the achieved rate is of ops started
        return new RunFigures(ops(), errors(), target.rate(), seconds > 0 ? sent / seconds : 0, seconds, latencies);
    }
}
