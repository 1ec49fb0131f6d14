package dev.pacer.report;

import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.sink.LatencyTable;
import dev.pacer.engine.sink.OpTable;
import dev.pacer.engine.api.Durations;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code pacer report}'s table for a terminal: the run's settings, ops, rate, errors, window and the
 * percentile table per tag, and a workload's per-op table ({@link OpTable}); then the intervals that had
 * errors (all intervals with {@code intervals}). What a log says in words (settings, ops, phases, error types,
 * changes, tags) is shown with control and bidi characters escaped ({@link SettingException#visible}).
 */
public final class ReportText {

    /** Intervals with errors listed before "... N more". */
    static final int ERROR_LINES = 10;

    private ReportText() {
    }

    public static String format(Report r) {
        return format(r, false);
    }

    /** The report; with {@code intervals}, a line per interval after the table. */
    public static String format(Report r, boolean intervals) {
        String nl = System.lineSeparator();
        StringBuilder b = new StringBuilder(1024);
        b.append("pacer report: ").append(r.files().stream().map(f -> shown(f.toString()))
                        .collect(Collectors.joining(" + ")))
                .append(String.format(Locale.ROOT, " (%.1fs-%.1fs, %d points)%n", r.from(), r.to(), r.points().size()));
        String settings = settings(r.settings());
        if (!settings.isEmpty()) {
            b.append("  run        ").append(settings).append(nl);
        }
        b.append(String.format(Locale.ROOT, "  ops        %-9d rate %.1f ops/s over %.2fs%s%n", r.ops(), r.rate(),
                r.durationSeconds(),
                r.points().stream().anyMatch(Report.Point::warmup) ? " (warm-up not counted)" : ""));
        if (r.noted()) {
            b.append("  errors     ").append(r.errorCount()).append(errorTypes(r.errors())).append(nl);
        }
        if (!r.markers().isEmpty()) {
            b.append("  changes    ").append(r.markers().size()).append(" (")
                    .append(r.markers().stream().limit(3).map(m -> String.format(Locale.ROOT, "%s at %.1fs",
                            shown(m.label()), m.atSec()))
                            .collect(Collectors.joining(", ")))
                    .append(r.markers().size() > 3 ? ", ..." : "").append(')').append(nl);
        }
        b.append(nl);
        Map<String, dev.pacer.engine.api.LatencySummary> summaries = new java.util.LinkedHashMap<>();
        r.summaries().forEach((tag, l) -> summaries.put(shown(tag), l));
        LatencyTable.append(b, summaries, "  ");
        if (!r.perOp().isEmpty()) {
            b.append(nl);
            OpTable.append(b, r.perOp().stream().map(op -> new OpTable.Row(shown(op.op()), op.ops(), op.errors(),
                    op.latencies().get(Metric.WAIT), op.latencies().get(Metric.RESPONSE))).toList(), "  ");
        }
        List<Report.Point> listed = intervals ? r.points()
                : r.points().stream().filter(p -> p.errorCount() > 0).toList();
        if (!listed.isEmpty()) {
            b.append(nl).append(intervals ? "  intervals" : "  intervals with errors").append(nl);
            b.append(String.format(Locale.ROOT, "  %8s %8s  %-12s %10s %10s %8s %9s  %s%n", "start", "end", "phase",
                    "target/s",
                    "ops/s", "errors", "resp p99", "by type"));
            int shown = 0;
            for (Report.Point p : listed) {
                if (!intervals && shown == ERROR_LINES) {
                    b.append("  ... ").append(listed.size() - shown).append(" more (--intervals lists every "
                            + "interval)").append(nl);
                    break;
                }
                shown++;
                Report.TagFigures resp = p.byTag().get(r.opsTag());
                b.append(String.format(Locale.ROOT, "  %7.2fs %7.2fs  %-12s %10s %10.1f %8d %9s  %s%n", p.start(),
                        p.end(),
                        label(p), Double.isNaN(p.target()) ? "-" : String.format(Locale.ROOT, "%.1f", p.target()),
                        p.seconds() > 0 ? p.count(r.opsTag()) / p.seconds() : 0, p.errorCount(),
                        resp == null ? "-" : Durations.format((double) resp.p99()), errorTypes(p.errors()).strip()));
            }
        }
        return b.toString();
    }

    /** B against A: rate, ops, errors, error ratio, and p50, p99 and max per tag both have. */
    public static String differences(Report a, Report b) {
        StringBuilder t = new StringBuilder(1024);
        t.append("pacer report: B ").append(shown(ReportHtml.name(b))).append(" against "
                + "A ").append(shown(ReportHtml.name(a))).append(System.lineSeparator());
        int width = "error ratio (%)".length(); // the first column fits the longest row name: "service.NAME#2 p99"
        for (String tag : a.summaries().keySet()) {
            if (b.summaries().containsKey(tag)) {
                width = Math.max(width, shown(tag).length() + 4);
            }
        }
        String format = "  %-" + width + "s %12s %12s %10s%n";
        t.append(String.format(Locale.ROOT, format, "", "A", "B", "change"));
        row(t, format, "rate (ops/s)", String.format(Locale.ROOT, "%.1f", a.rate()), String.format(Locale.ROOT,
                "%.1f", b.rate()), a.rate(), b.rate());
        row(t, format, "ops", Long.toString(a.ops()), Long.toString(b.ops()), a.ops(), b.ops());
        row(t, format, "errors", Long.toString(a.errorCount()), Long.toString(b.errorCount()), a.errorCount(),
                b.errorCount());
        double ra = 100.0 * a.errorCount() / Math.max(1, a.ops());
        double rb = 100.0 * b.errorCount() / Math.max(1, b.ops());
        row(t, format, "error ratio (%)", String.format(Locale.ROOT, "%.3f", ra), String.format(Locale.ROOT, "%.3f",
                rb), ra, rb);
        for (String tag : a.summaries().keySet()) {
            String shownTag = shown(tag);
            var lb = b.summaries().get(tag);
            if (lb == null) {
                continue;
            }
            var la = a.summaries().get(tag);
            row(t, format, shownTag + " p50", Durations.format((double) la.at("50")),
                    Durations.format((double) lb.at("50")), la.at("50"), lb.at("50"));
            row(t, format, shownTag + " p99", Durations.format((double) la.at("99")),
                    Durations.format((double) lb.at("99")), la.at("99"), lb.at("99"));
            row(t, format, shownTag + " max", Durations.format((double) la.max()), Durations.format((double) lb.max()),
                    la.max(), lb.max());
        }
        return t.toString();
    }

    private static void row(StringBuilder t, String format, String what, String a, String b, double va,
                            double vb) {
        String change = va == 0 ? (vb == 0 ? "=" : "new") : String.format(Locale.ROOT, "%+.1f %%",
                100 * (vb - va) / va);
        t.append(String.format(Locale.ROOT, format, what, a, b, change));
    }

    private static String label(Report.Point p) {
        String phase = p.phase() == null ? "" : shown(p.phase());
        return p.warmup() ? phase + " (warm-up)" : p.drain() ? "(drain)" : phase;
    }

    /** {@code  (unexpected-5xx 12, timeout 1)}, or empty. */
    static String errorTypes(Map<String, Long> errors) {
        return errors.isEmpty() ? "" : errors.entrySet().stream().map(e -> shown(e.getKey()) + " " + e.getValue())
                .collect(Collectors.joining(", ", " (", ")"));
    }

    /** Whether the run was paced by the atomic limiter (logs from before the limiter family say nothing: they were). */
    static boolean atomicLimiter(Map<String, String> settings) {
        return settings.getOrDefault("limiterDesign", "atomic").equals("atomic");
    }

    /** The run's settings in a line: {@code sleep:1ms, 4 threads, rate 2000/s, strictness 0 (average ...)}. */
    static String settings(Map<String, String> settings) {
        if (settings.isEmpty()) {
            return "";
        }
        Map<String, String> s = new java.util.LinkedHashMap<>();
        settings.forEach((k, v) -> s.put(k, shown(v)));
        StringBuilder b = new StringBuilder(s.getOrDefault("op", "?"));
        if (s.containsKey("threads")) {
            b.append(", ").append(s.get("threads")).append("true".equals(s.get("virtualThreads")) ? " virtual" : "")
                    .append("1".equals(s.get("threads")) ? " thread" : " threads");
        }
        if (s.containsKey("targetRate")) {
            b.append(", rate ").append(plain(s.get("targetRate"))).append("/s");
            if (atomicLimiter(s)) {
                b.append(", strictness ").append(plain(s.getOrDefault("strictness", "?")));
            }
        } else if (s.containsKey("rate")) {
            b.append(", rate ").append(s.get("rate"));
        } else {
            b.append(", unpaced");
        }
        if (s.containsKey("limiter")) {
            b.append(" (").append(s.get("limiter")).append(')');
        }
        if (s.containsKey("duration")) {
            b.append(", for ").append(s.get("duration"));
        }
        return b.toString();
    }

    /** What a log says, as a terminal shows it: control and bidi characters escaped. */
    static String shown(String text) {
        return SettingException.visible(text);
    }

    /** {@code 2000.0} as {@code 2000}. */
    static String plain(String number) {
        return number.endsWith(".0") ? number.substring(0, number.length() - 2) : number;
    }
}
