package dev.pacer.report;

import dev.pacer.engine.sink.LatencyTable;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** {@code pacer report}'s table for a terminal: ops, rate, window and the percentile table per tag. */
public final class ReportText {

    private ReportText() {
    }

    public static String format(Report r) {
        StringBuilder b = new StringBuilder(1024);
        b.append("pacer report: ").append(r.files().stream().map(Path::toString).collect(Collectors.joining(" + ")))
                .append(String.format(" (%.1fs-%.1fs, %d points)%n", r.from(), r.to(), r.points().size()));
        b.append(String.format("  ops        %-9d rate %.1f ops/s over %.2fs%n", r.ops(), r.rate(), r.durationSeconds()));
        if (!r.markers().isEmpty()) {
            b.append("  changes    ").append(r.markers().size()).append(" (")
                    .append(r.markers().stream().limit(3).map(m -> String.format("%s at %.1fs", m.label(), m.atSec()))
                            .collect(Collectors.joining(", ")))
                    .append(r.markers().size() > 3 ? ", ..." : "").append(')').append(System.lineSeparator());
        }
        b.append(System.lineSeparator());
        LatencyTable.append(b, r.summaries(), "  ");
        return b.toString();
    }
}
