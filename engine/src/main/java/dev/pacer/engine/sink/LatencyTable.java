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

    /** Appends the table, rows in the map's order. */
    public static void append(StringBuilder b, Map<String, LatencySummary> rows, String indent) {
        b.append(indent).append(String.format("%-10s", "latency"));
        for (double q : LatencySummary.PERCENTILES) {
            b.append(String.format("%10s", "p" + LatencySummary.label(q)));
        }
        b.append(String.format("%10s%10s%n", "max", "mean"));
        rows.forEach((name, l) -> {
            b.append(indent).append(String.format("%-10s", name));
            for (double q : LatencySummary.PERCENTILES) {
                b.append(String.format("%10s", Durations.format((double) l.at(LatencySummary.label(q)))));
            }
            b.append(String.format("%10s%10s%n", Durations.format((double) l.max()), Durations.format(l.mean())));
        });
    }
}
