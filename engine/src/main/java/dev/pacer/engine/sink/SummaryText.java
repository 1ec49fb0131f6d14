package dev.pacer.engine.sink;

import dev.pacer.engine.api.RateText;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.Knee;
import dev.pacer.engine.api.OpSummary;
import dev.pacer.engine.api.PhaseSummary;
import dev.pacer.engine.api.RunFigures;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.ThresholdResult;
import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The end-of-run summary for humans, in the spirit of wrk2's:
 * <pre>
 * pacer: noop, 2 threads, 10.00s, stopped by duration
 *   ops        20000     achieved 2000.0 ops/s, target 2000.0 (100.00 %)
 *   errors     0 (0.000 %)
 *   outcomes   ok 20000
 *
 *   latency        p50       p75       p90       p99     p99.9    p99.99       max      mean
 *   wait          12us      18us      25us      81us     1.2ms     1.2ms     1.2ms      15us
 *   ...
 * </pre>
 * A mix's run (a workload) adds a table of its named ops under the latency table ({@link OpTable}).
 */
public final class SummaryText {

    private SummaryText() {
    }

    public static String format(Summary s) {
        StringBuilder b = new StringBuilder(1024);
        // warm-up phases are left out of the totals: the header says so, or a 15 s run would read as 5 s
        double warmupSeconds = s.phases().stream().filter(PhaseSummary::warmup)
                .mapToDouble(p -> p.figures().durationSeconds()).sum();
        b.append(String.format("pacer: %s, %d %s%s, %.2fs%s, stopped by %s%n", s.op(), s.threads(),
                s.virtualThreads() ? "virtual " : "", s.threads() == 1 ? "thread" : "threads", s.durationSeconds(),
                warmupSeconds > 0 ? String.format(" measured after %.2fs of warm-up", warmupSeconds) : "",
                s.stopReason().planned() ? s.stopReason().label() : s.stoppedBy()));
        // stopped within its first slot (an output that failed at once): its ops over that instant are no rate
        boolean instant = !Double.isNaN(s.targetRate()) && s.ops() > 0 && s.durationSeconds() * s.targetRate() < 1;
        if (instant) {
            b.append(String.format("  ops        %-9d achieved - (%d in %s, within its first slot)", s.ops(), s.ops(),
                    dev.pacer.engine.api.Durations.format(s.durationSeconds() * 1e9)));
        } else {
            b.append(String.format("  ops        %-9d achieved %s ops/s", s.ops(), oneDecimal(s.achievedRate())));
        }
        if (instant) {
            b.append(String.format(", target %s, strictness %s", oneDecimal(s.targetRate()),
                    trimNumber(s.strictness())));
        } else if (!Double.isNaN(s.targetRate())) {
            b.append(String.format(", target %s (%.2f %%), strictness %s", oneDecimal(s.targetRate()),
                    100 * s.achievedRate() / s.targetRate(), trimNumber(s.strictness())));
        } else if (s.limiter() != null) {
            b.append(", target ").append(oneDecimal(s.limiter().spec().opsPerSecond()))
                    .append(warmupSeconds > 0 ? " (stopped in its warm-up)" : " (stopped before it started)");
        } else {
            b.append(", unpaced");
        }
        b.append(System.lineSeparator());
        b.append(String.format("  errors     %d (%.3f %%)%s%n", s.errors(), 100 * s.errorRatio(),
                s.errors() == 0 ? "" : "  " + join(s.errorsByType())));
        b.append("  outcomes   ").append(s.outcomes().isEmpty() ? "-"
                : join(s.outcomes())).append(System.lineSeparator());
        b.append(System.lineSeparator());
        appendTable(b, s.latencies(), "  ");
        appendOps(b, s);
        if (!s.phases().isEmpty()) {
            b.append(System.lineSeparator()).append("  phases").append(System.lineSeparator());
            for (PhaseSummary p : s.phases()) {
                RunFigures f = p.figures();
                b.append(String.format("  %s%s: %d ops in %.2fs, achieved %s ops/s%s, errors %d%n", p.name(),
                        p.warmup() ? " (warm-up, not in totals)" : "", f.ops(), f.durationSeconds(),
                        oneDecimal(f.achievedRate()),
                        Double.isNaN(f.targetRate()) ? "" : ", target " + oneDecimal(f.targetRate()), f.errors()));
                appendTable(b, f.latencies(), "    ");
            }
        }
        if (s.knee() != null) {
            Knee k = s.knee();
            b.append(System.lineSeparator()).append("  knee       ").append(switch (k.status()) {
                case "found" -> String.format("%s ops/s meets %s", oneDecimal(k.rate()), k.slo());
                case "at-bound" -> String.format("%s ops/s, the highest rate searched, still meets %s",
                        oneDecimal(k.rate()), k.slo());
                case "none" -> "none: the lowest rate searched already breaks " + k.slo();
                case "unstable" -> "unstable: a rate's verdict changed when probed again (the capacity moved); no one "
                        + "number";
                default -> "unfinished: the run ended before the search did";
            }).append(System.lineSeparator());
            for (Knee.Probe p : k.probes()) {
                b.append(String.format("    %8.1fs  %10s  %-6s  %s%n", p.startSec(), oneDecimal(p.rate()) + "/s",
                        p.passed() ? "held" : "broke", p.why()));
            }
        }
        if (s.changes().stream().anyMatch(c -> c.kind() != ChangeKind.PROBE)) {
            b.append(System.lineSeparator()).append("  changes").append(System.lineSeparator());
            for (Change c : s.changes()) {
                if (c.kind() != ChangeKind.PROBE) {
                    b.append("    ").append(c.describe()).append(System.lineSeparator());
                }
            }
        }
        if (!s.thresholds().isEmpty()) {
            b.append(System.lineSeparator()).append("  thresholds").append(System.lineSeparator());
            for (ThresholdResult t : s.thresholds()) {
                b.append(String.format("    %s  %s  (actual %s)%n", t.passed() ? "PASS" : "FAIL", t.expression(),
                        t.actual()));
            }
        }
        if (!s.passed()) {
            b.append(System.lineSeparator()).append("  FAILED: ").append(s.failure()).append(System.lineSeparator());
        }
        return b.toString();
    }

    static void appendTable(StringBuilder b, Map<Metric, LatencySummary> latencies, String indent) {
        Map<String, LatencySummary> rows = new LinkedHashMap<>();
        for (Metric m : Metric.values()) {
            rows.put(m.tag(), latencies.get(m));
        }
        LatencyTable.append(b, rows, indent);
    }

    /**
     * The per-op table of a mix's run, and a line for ops of no named op when there were any (slots owed at a stop,
     * which no cycle was drawn for).
     */
    private static void appendOps(StringBuilder b, Summary s) {
        if (s.perOp().isEmpty()) {
            return;
        }
        List<OpTable.Row> rows = new ArrayList<>();
        long named = 0;
        for (OpSummary op : s.perOp()) {
            RunFigures f = op.figures();
            rows.add(new OpTable.Row(op.op(), f.ops(), f.errors(), f.latencies().get(Metric.WAIT),
                    f.latencies().get(Metric.RESPONSE)));
            named += f.ops();
        }
        b.append(System.lineSeparator());
        OpTable.append(b, rows, "  ");
        java.util.Map<String, List<dev.pacer.engine.api.LatencySummary>> steps = new java.util.LinkedHashMap<>();
        for (OpSummary op : s.perOp()) {
            if (!op.steps().isEmpty()) {
                steps.put(op.op(), op.steps());
            }
        }
        OpTable.appendSteps(b, steps, "  ");
        if (named < s.ops()) {
            b.append(String.format("  (%d ops of no op: slots owed when the run stopped, never given a cycle)%n",
                    s.ops() - named));
        }
    }

    private static String join(Map<String, Long> counts) {
        StringBuilder b = new StringBuilder();
        counts.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(' ').append(v));
        return b.toString();
    }

    /** One decimal; a figure too small for it (a target of 1e-6 ops/s) with three significant digits. */
    private static String oneDecimal(double v) {
        return v != 0 && Math.abs(v) < 0.05 ? RateText.significant(v) : String.format("%.1f", v);
    }

    private static String trimNumber(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
