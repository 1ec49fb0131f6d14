package dev.pacer.engine.sink;

import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Durations;
import java.util.List;

/**
 * The per-op table the run summary and {@code pacer report} print under the latency table: one row per named op of
 * a mix (a workload's ops), with its ops, errors, and wait and response p50, p99 and max, in readable units.
 * <pre>
 *   op                 ops    errors   wait p50      p99      max   resp p50      p99      max
 *   browse           35000         0     10.6us   62.2us   2.99ms     1.09ms   1.28ms   6.02ms
 * </pre>
 */
public final class OpTable {

    /**
     * One op's row.
     *
     * @param op        its name
     * @param ops       its ops
     * @param errors    its errors, or null when not known (a log without pacer's interval notes)
     * @param waits     its wait times, or null when not known
     * @param responses its response times, or null when not known
     */
    public record Row(String op, long ops, Long errors, LatencySummary waits, LatencySummary responses) {
    }

    private OpTable() {
    }

    /** Appends the table, rows in the list's order; nothing for no rows. */
    public static void append(StringBuilder b, List<Row> rows, String indent) {
        if (rows.isEmpty()) {
            return;
        }
        int width = Math.max(10, rows.stream().mapToInt(r -> r.op().length()).max().orElse(0));
        String name = "%-" + width + "s";
        b.append(indent).append(String.format(name + "%10s%10s%11s%9s%9s%11s%9s%9s%n", "op", "ops", "errors",
                "wait p50", "p99", "max", "resp p50", "p99", "max"));
        for (Row r : rows) {
            b.append(indent).append(String.format(name + "%10d%10s%11s%9s%9s%11s%9s%9s%n", r.op(), r.ops(),
                    r.errors() == null ? "-" : r.errors().toString(), at(r.waits(), "50"), at(r.waits(), "99"),
                    at(r.waits(), "100"), at(r.responses(), "50"), at(r.responses(), "99"), at(r.responses(), "100")));
        }
    }

    /**
     * Appends the service times of multi-step ops' steps, a row each ({@code checkout #2}); nothing when none has
     * steps.
     * <pre>
     *   step            count  service p50      p99      max
     *   checkout #1      5000       1.02ms   3.11ms   9.87ms
     * </pre>
     *
     * @param steps each op's name and its steps' service times, in order
     */
    public static void appendSteps(StringBuilder b, java.util.Map<String, List<LatencySummary>> steps, String indent) {
        int width = 10;
        for (var e : steps.entrySet()) {
            width = Math.max(width, e.getKey().length() + 1 + String.valueOf(e.getValue().size()).length() + 1);
        }
        String name = "%-" + width + "s";
        boolean header = false;
        for (var e : steps.entrySet()) {
            for (int i = 0; i < e.getValue().size(); i++) {
                if (!header) {
                    b.append(indent).append(String.format(name + "%10s%14s%9s%9s%n", "step", "count", "service p50",
                            "p99", "max"));
                    header = true;
                }
                LatencySummary l = e.getValue().get(i);
                b.append(indent).append(String.format(name + "%10d%14s%9s%9s%n", e.getKey() + " #" + (i + 1),
                        l.count(), at(l, "50"), at(l, "99"), at(l, "100")));
            }
        }
    }

    /** The value at a percentile label ({@code "100"}: max), or {@code -} when the row has no such times. */
    private static String at(LatencySummary l, String percentile) {
        return l == null || l.count() == 0 ? "-" : Durations.format((double) l.at(percentile));
    }
}
