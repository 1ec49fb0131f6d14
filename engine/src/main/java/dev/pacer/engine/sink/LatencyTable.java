package dev.pacer.engine.sink;

import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.LatencySummary;
import java.util.Map;

/**
 * The percentile table the run summary and {@code pacer report} print: one row per histogram,
 * columns p50 .. p99.99, max and mean, in readable units.
 */
public final class LatencyTable {

    private LatencyTable() {
    }

    /**
     * Appends the table, rows in the map's order; the names' column is as wide as the longest (a log's other tags,
     * a step's {@code service.checkout#2}); a row of no values shows {@code -}.
     */
    public static void append(StringBuilder b, Map<String, LatencySummary> rows, String indent) {
        int width = Math.max(10, rows.keySet().stream().mapToInt(n -> n.length() + 1).max().orElse(0));
        String name = "%-" + width + "s";
        b.append(indent).append(String.format(name, "latency"));
        for (double q : LatencySummary.PERCENTILES) {
            b.append(String.format("%10s", "p" + LatencySummary.label(q)));
        }
        b.append(String.format("%10s%10s%n", "max", "mean"));
        rows.forEach((row, l) -> {
            b.append(indent).append(String.format(name, row));
            for (double q : LatencySummary.PERCENTILES) {
                b.append(String.format("%10s", l.count() == 0 ? "-" : Durations.format((double) l.at(LatencySummary
                        .label(q)))));
            }
            b.append(l.count() == 0 ? String.format("%10s%10s%n", "-", "-")
                    : String.format("%10s%10s%n", Durations.format((double) l.max()), Durations.format(l.mean())));
        });
    }
}
