package dev.pacer.report;

import dev.pacer.engine.metrics.LatencySummary;

/**
 * {@code pacer report --csv}: the percentile table, one row per tag, values in nanoseconds:
 * {@code tag,count,mean,min,p50,p75,p90,p99,p99.9,p99.99,max}.
 */
public final class ReportCsv {

    private ReportCsv() {
    }

    public static String format(Report r) {
        StringBuilder b = new StringBuilder("tag,count,mean,min");
        for (double q : LatencySummary.PERCENTILES) {
            b.append(",p").append(LatencySummary.label(q));
        }
        b.append(",max\n");
        r.summaries().forEach((tag, l) -> {
            b.append(tag).append(',').append(l.count()).append(',').append(String.format("%.1f", l.mean())).append(',').append(l.min());
            for (double q : LatencySummary.PERCENTILES) {
                b.append(',').append(l.at(LatencySummary.label(q)));
            }
            b.append(',').append(l.max()).append('\n');
        });
        return b.toString();
    }
}
