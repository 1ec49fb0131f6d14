package dev.pacer.report;

import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.OpTag;
import java.util.List;
import java.util.Locale;

/**
 * {@code pacer report --csv}: the percentile table, one row per tag, values in nanoseconds:
 * {@code tag,count,mean,min,p50,p75,p90,p99,p99.9,p99.99,max}; a workload's named ops follow the totals, one row
 * per op and metric, tagged as in the log ({@code response.browse}). With {@code --intervals}, one row per
 * interval instead: {@code start,end,phase,warmup,drain,target,ops,rate,errors}, a column per error
 * type ({@code errors:TYPE}), then per tag {@code TAG_p50,TAG_p90,TAG_p99,TAG_max} (ns).
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
        r.summaries().forEach((tag, l) -> row(b, csv(tag), l));
        for (Report.OpFigures op : r.perOp()) {
            op.latencies().forEach((m, l) -> row(b, csv(OpTag.of(m, op.op())), l));
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String tag, LatencySummary l) {
        b.append(tag).append(',').append(l.count()).append(',').append(String.format(Locale.ROOT, "%.1f", l.mean()))
                .append(',').append(l.min());
        for (double q : LatencySummary.PERCENTILES) {
            b.append(',').append(l.at(LatencySummary.label(q)));
        }
        b.append(',').append(l.max()).append('\n');
    }

    /** One row per interval (see the class comment). */
    public static String intervals(Report r) {
        List<String> types = r.errorTypes();
        List<String> tags = List.copyOf(r.totals().keySet());
        StringBuilder b = new StringBuilder("start,end,phase,warmup,drain,target,ops,rate,errors");
        types.forEach(t -> b.append(",errors:").append(csv(t)));
        for (String tag : tags) {
            String t = tag.isEmpty() ? "untagged" : csv(tag);
            b.append(',').append(t).append("_p50,").append(t).append("_p90,").append(t).append("_p99,").append(t)
                    .append("_max");
        }
        b.append('\n');
        for (Report.Point p : r.points()) {
            long ops = p.count(r.opsTag());
            b.append(String.format(Locale.ROOT, "%.3f,%.3f,%s,%s,%s,%s,%d,%.1f,%d", p.start(), p.end(),
                    p.phase() == null ? "" : csv(p.phase()), p.warmup(), p.drain(),
                    Double.isNaN(p.target()) ? "" : String.format(Locale.ROOT, "%.1f", p.target()), ops,
                    p.seconds() > 0 ? ops / p.seconds() : 0, p.errorCount()));
            types.forEach(t -> b.append(',').append(p.errors().getOrDefault(t, 0L)));
            for (String tag : tags) {
                Report.TagFigures f = p.byTag().get(tag);
                if (f == null) {
                    b.append(",,,,");
                } else {
                    b.append(',').append(f.p50()).append(',').append(f.p90()).append(',').append(f.p99()).append(',')
                            .append(f.max());
                }
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** A log's words as a field: on one line, control and bidi characters escaped, quoted where it has to be. */
    private static String csv(String text) {
        String s = ReportText.shown(text);
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
