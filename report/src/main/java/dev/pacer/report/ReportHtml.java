package dev.pacer.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.hlog.Marker;
import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.text.Json;
import dev.pacer.engine.text.OutputFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * {@code pacer report --plot}: one self-contained HTML page that opens offline (the data as inline
 * JSON, the charts drawn by an inline script, {@code page.js}, no library and no network). It states
 * the run's op, target rate, strictness, threads and length; the percentile table; errors by type; and
 * charts: achieved rate against the target, errors over time, per tag the latency over time (log scale
 * by default) and the percentile spectrum (HdrHistogram's axis: 90 %, 99 %, 99.9 % equally spaced). A
 * workload's log adds a table of its named ops and two charts of them over time: each op's achieved rate and
 * its response p99.
 * Changes and phases are markers whose labels sit in rows above the plot; warm-up is shaded;
 * intervals shorter than half the typical one (cuts at phase boundaries) are marked, not drawn as dips.
 * Two reports ({@code --vs}) are overlaid, with a table of their differences.
 */
public final class ReportHtml {

    private static final String SCRIPT = resource("page.js");
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss "
            + "'UTC'").withZone(ZoneOffset.UTC);

    private ReportHtml() {
    }

    public static void write(Report r, Path file) throws IOException {
        OutputFile.replace(file, render(r).getBytes(StandardCharsets.UTF_8));
    }

    /** Writes the page of one or two reports under a title (the log's name unless given). */
    public static void write(List<Report> reports, String title, Path file) throws IOException {
        OutputFile.replace(file, render(reports, title).getBytes(StandardCharsets.UTF_8));
    }

    public static String render(Report r) {
        return render(List.of(r), null);
    }

    /** The name a report goes by: its logs' file names. */
    public static String name(Report r) {
        return r.files().stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(" + "));
    }

    /**
     * The page of one report, or of two overlaid (the first is A, the second B).
     *
     * @param title the page's title; null for the logs' names
     */
    public static String render(List<Report> reports, String title) {
        if (reports.isEmpty() || reports.size() > 2) {
            throw new IllegalArgumentException("a page shows one report or two");
        }
        return render(reports, title, null);
    }

    /** Most reports one page overlays. */
    public static final int MAX_OVERLAID = 12;

    /** Writes the page of up to {@link #MAX_OVERLAID} reports overlaid, each under its label. */
    public static void write(List<Report> reports, String title, List<String> labels, Path file) throws IOException {
        OutputFile.replace(file, render(reports, title, labels).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The page of reports overlaid, each charted under its label (e.g. a limiter's name); two without labels
     * are A and B.
     *
     * @param labels one per report, or null for letters
     */
    public static String render(List<Report> reports, String title, List<String> labels) {
        if (reports.isEmpty() || reports.size() > MAX_OVERLAID || (labels != null && labels.size() != reports.size())) {
            throw new IllegalArgumentException("a page overlays 1 to " + MAX_OVERLAID + " reports, one label each if "
                    + "labelled");
        }
        String name = title != null ? title : reports.stream().map(ReportHtml::name).collect(Collectors.joining(" "
                + "vs "));
        StringBuilder b = new StringBuilder(128 * 1024);
        b.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>pacer "
                        + "report: ")
                .append(esc(name)).append("</title>\n<style>\n").append(CSS).append("</style></head>\n<body>\n");
        b.append("<h1>pacer report: ").append(esc(name)).append("</h1>\n");
        boolean many = reports.size() > 2; // many runs: the overlaid charts first, each run's table after them
        if (!many) {
            runs(b, reports, labels);
        }
        if (reports.size() == 2) {
            differences(b, reports.get(0), reports.get(1));
        }
        b.append("<p class=\"hint\">Hover a chart for its values; drag across a time chart to zoom (all time charts "
                + "follow),"
                + " double-click to zoom out. <button id=\"resetZoom\" disabled>reset zoom</button></p>\n");
        b.append("<noscript><p class=\"warning\">The charts are drawn by the page's own script: allow JavaScript to "
                + "see them."
                + "</p></noscript>\n<div id=\"charts\"></div>\n");
        if (many) {
            runs(b, reports, labels);
        }
        b.append("<p class=\"meta\">Made by pacer from HdrHistogram interval logs; percentiles are of all values "
                + "recorded"
                + " in the window (histograms are added, never averaged).</p>\n");
        b.append("<script type=\"application/json\" id=\"pacer-data\">").append(data(reports,
                labels)).append("</script>\n");
        b.append("<script>\n").append(SCRIPT).append("</script>\n</body></html>\n");
        return b.toString();
    }

    /** Each run's heading (when several), settings, percentile table and warnings. */
    private static void runs(StringBuilder b, List<Report> reports, List<String> labels) {
        for (int i = 0; i < reports.size(); i++) {
            Report r = reports.get(i);
            if (reports.size() > 1) {
                b.append("<h2>").append(esc(labels != null ? labels.get(i) : String.valueOf((char) ('A'
                        + i)))).append(": ")
                        .append(esc(name(r))).append("</h2>\n");
            }
            about(b, r);
            table(b, r.summaries());
            opTable(b, r);
            for (String w : r.warnings()) {
                b.append("<p class=\"warning\">").append(esc(w)).append("</p>\n");
            }
        }
    }

    /** The run's settings and figures, in two lines. */
    private static void about(StringBuilder b, Report r) {
        Map<String, String> s = r.settings();
        b.append("<dl class=\"run\">");
        item(b, "op", s.getOrDefault("op", "(not recorded)"));
        String target = s.containsKey("targetRate") ? ReportText.plain(s.get("targetRate")) + " ops/s"
                : s.containsKey("rate") ? s.get("rate") : s.isEmpty() ? "(not recorded)" : "unpaced";
        boolean phases = r.points().stream().anyMatch(p -> p.phase() != null);
        item(b, "target rate", target + (phases ? " at the start; the phases set it (see the rate chart)" : ""));
        if (!ReportText.atomicLimiter(s)) {
            item(b, "limiter", s.get("limiter"));
        } else if (s.containsKey("strictness")) {
            item(b, "strictness", ReportText.plain(s.get("strictness")) + (s.containsKey("limiter") ? " ("
                    + s.get("limiter") + ")" : ""));
        }
        item(b, "threads", s.getOrDefault("threads", "(not recorded)") + ("true".equals(s.get("virtualThreads")) ? " "
                + "virtual" : ""));
        item(b, "duration", String.format(Locale.ROOT, "%.2f s measured", r.durationSeconds())
                + (s.containsKey("duration") ? " (asked: " + s.get("duration") + ")" : "")
                + (r.points().stream().anyMatch(Report.Point::warmup) ? ", warm-up not counted" : ""));
        item(b, "started", WHEN.format(Instant.ofEpochMilli((long) (r.startSec() * 1000))));
        item(b, "ops", String.format(Locale.ROOT, "%d at %.1f ops/s", r.ops(), r.rate()));
        item(b, "errors", !r.noted() ? "(not recorded in this log)" : r.errorCount() == 0 ? "none"
                : r.errorCount() + String.format(Locale.ROOT, " (%.2f %%): ", 100.0 * r.errorCount() / Math.max(1,
                        r.ops()))
                + r.errors().entrySet().stream().map(e -> e.getKey() + " "
                        + e.getValue()).collect(Collectors.joining(", ")));
        if (!r.markers().isEmpty()) {
            item(b, "changes", r.markers().size() + " (marked on the time charts)");
        }
        b.append("</dl>\n");
    }

    private static void item(StringBuilder b, String term, String value) {
        b.append("<div><dt>").append(esc(term)).append("</dt><dd>").append(esc(value)).append("</dd></div>");
    }

    private static void table(StringBuilder b, Map<String, LatencySummary> rows) {
        b.append("<table><tr><th>latency</th><th>count</th>");
        for (double q : LatencySummary.PERCENTILES) {
            b.append("<th>p").append(LatencySummary.label(q)).append("</th>");
        }
        b.append("<th>max</th><th>mean</th></tr>\n");
        rows.forEach((tag, l) -> {
            b.append("<tr><td>").append(esc(tag)).append("</td><td>").append(l.count()).append("</td>");
            for (double q : LatencySummary.PERCENTILES) {
                b.append("<td>").append(Durations.format((double) l.at(LatencySummary.label(q)))).append("</td>");
            }
            b.append("<td>").append(Durations.format((double) l.max())).append("</td><td>")
                    .append(Durations.format(l.mean())).append("</td></tr>\n");
        });
        b.append("</table>\n");
    }

    /** A workload's named ops: ops, rate, errors, wait and response p50, p99 and max each; nothing for a plain op. */
    private static void opTable(StringBuilder b, Report r) {
        if (r.perOp().isEmpty()) {
            return;
        }
        b.append("<table class=\"ops\"><tr><th>op</th><th>ops</th><th>ops/s</th><th>errors</th><th>wait p50</th>"
                + "<th>wait p99</th><th>wait max</th><th>response p50</th><th>response p99</th><th>response max</th>"
                + "</tr>\n");
        for (Report.OpFigures op : r.perOp()) {
            b.append("<tr><td>").append(esc(op.op())).append("</td><td>").append(op.ops()).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%.1f", op.rate())).append("</td><td>")
                    .append(op.errors() == null ? "-" : op.errors().toString()).append("</td>");
            for (Metric m : new Metric[] {Metric.WAIT, Metric.RESPONSE}) {
                LatencySummary l = op.latencies().get(m);
                for (String q : new String[] {"50", "99", "100"}) {
                    b.append("<td>").append(l == null ? "-" : Durations.format((double) l.at(q))).append("</td>");
                }
            }
            b.append("</tr>\n");
        }
        b.append("</table>\n");
    }

    /** A against B: rate, ops, errors, and p50, p99 and max per tag, with B's change from A. */
    private static void differences(StringBuilder b, Report a, Report bb) {
        b.append("<h2>Differences (B against A)</h2>\n<table class=\"diff\"><tr><th></th><th>A</th><th>B</th><th>B - "
                + "A</th><th>change</th></tr>\n");
        diffRow(b, "rate (ops/s)", a.rate(), bb.rate(), false);
        diffRow(b, "ops", a.ops(), bb.ops(), false);
        diffRow(b, "errors", a.errorCount(), bb.errorCount(), false);
        diffRow(b, "error ratio (%)", 100.0 * a.errorCount() / Math.max(1, a.ops()),
                100.0 * bb.errorCount() / Math.max(1, bb.ops()), false);
        Set<String> tags = new LinkedHashSet<>(a.summaries().keySet());
        tags.retainAll(bb.summaries().keySet());
        for (String tag : tags) {
            LatencySummary la = a.summaries().get(tag);
            LatencySummary lb = bb.summaries().get(tag);
            diffRow(b, tag + " p50", la.at("50"), lb.at("50"), true);
            diffRow(b, tag + " p99", la.at("99"), lb.at("99"), true);
            diffRow(b, tag + " max", la.max(), lb.max(), true);
        }
        b.append("</table>\n");
    }

    private static void diffRow(StringBuilder b, String what, double a, double bb, boolean nanos) {
        String change = a == 0 ? (bb == 0 ? "=" : "new") : String.format(Locale.ROOT, "%+.1f %%", 100 * (bb - a) / a);
        String cls = a == bb ? "" : nanos ? (bb > a ? "worse" : "better") : "";
        b.append("<tr><td>").append(esc(what)).append("</td><td>").append(value(a,
                nanos)).append("</td><td>").append(value(bb, nanos))
                .append("</td><td>").append(nanos ? (bb >= a ? "+" : "-") + Durations.format(Math.abs(bb - a))
                        : String.format(Locale.ROOT, "%+.1f", bb - a))
                .append("</td><td class=\"").append(cls).append("\">").append(change).append("</td></tr>\n");
    }

    private static String value(double v, boolean nanos) {
        return nanos ? Durations.format(v) : v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT,
                "%.2f", v);
    }

    /** The charts' data: per report its points, spectrum per tag, markers, errors. */
    static String data(List<Report> reports) {
        return data(reports, null);
    }

    static String data(List<Report> reports, List<String> labels) {
        long maxCount = reports.stream().flatMap(r -> r.totals().values().stream()).mapToLong(Histogram::getTotalCount)
                .max().orElse(1);
        int nines = (int) Math.max(2, Math.min(6, Math.ceil(Math.log10(Math.max(10, maxCount)))));
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("nines", nines);
        ArrayNode runs = root.putArray("runs");
        for (int i = 0; i < reports.size(); i++) {
            Report r = reports.get(i);
            ObjectNode run = runs.addObject();
            run.put("name", name(r)).put("noted", r.noted()).put("errorTotal", r.errorCount());
            if (labels != null) {
                run.put("label", labels.get(i));
            }
            ArrayNode tags = run.putArray("tags");
            r.totals().keySet().forEach(t -> tags.add(tag(t)));
            ArrayNode ops = run.putArray("ops");
            r.opNames().forEach(ops::add);
            ArrayNode types = run.putArray("errorTypes");
            r.errorTypes().forEach(types::add);
            ArrayNode points = run.putArray("points");
            for (Report.Point p : r.points()) {
                ObjectNode n = points.addObject().put("s", round(p.start())).put("e", round(p.end())).put("n",
                        p.count(r.opsTag()));
                if (!Double.isNaN(p.target())) {
                    n.put("t", p.target());
                }
                n.put("err", p.errorCount()).put("noted", p.noted());
                ObjectNode errors = n.putObject("errors");
                p.errors().forEach(errors::put);
                if (p.phase() != null) {
                    n.put("ph", p.phase());
                }
                n.put("w", p.warmup()).put("d", p.drain()).put("cut", r.isCut(p));
                ObjectNode l = n.putObject("l");
                p.byTag().forEach((t, f) -> {
                    if (f.count() > 0) {
                        l.putArray(tag(t)).add(f.p50()).add(f.p90()).add(f.p99()).add(f.max());
                    }
                });
                if (!p.byOp().isEmpty()) { // per named op: its ops and its response p50, p99, max
                    ObjectNode o = n.putObject("o");
                    p.byOp().forEach((op, f) -> {
                        Report.TagFigures resp = f.get(Metric.RESPONSE.tag());
                        ArrayNode a = o.putArray(op).add(p.opCount(op));
                        if (resp != null && resp.count() > 0) {
                            a.add(resp.p50()).add(resp.p99()).add(resp.max());
                        }
                    });
                }
            }
            ObjectNode spectrum = run.putObject("spectrum");
            r.totals().forEach((t, h) -> {
                if (h.getTotalCount() > 0) {
                    ArrayNode a = spectrum.putArray(tag(t));
                    for (HistogramIterationValue v : h.percentiles(5)) {
                        double p = v.getPercentileLevelIteratedTo() / 100.0;
                        double x = p >= 1.0 ? nines : Math.min(nines, Math.log10(1 / (1 - p)));
                        a.addArray().add(round(x)).add(v.getValueIteratedTo());
                    }
                }
            });
            ArrayNode markers = run.putArray("markers");
            merged(r).forEach(m -> markers.addObject().put("at", round(m.atSec())).put("label", m.value()));
        }
        try {
            // inside <script>: no '</' may end it early, and U+2028/9 are no line ends in JSON but are in old JS
            return Json.MAPPER.writeValueAsString(root).replace("</", "<\\/").replace("\u2028",
                    "\\u2028").replace("\u2029", "\\u2029");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String tag(String t) {
        return t.isEmpty() ? "untagged" : t;
    }

    private static double round(double v) {
        return Math.round(v * 1e4) / 1e4;
    }

    /** Changes within 1 % of the run's span of each other share one marker, their labels joined. */
    static List<Marker> merged(Report r) {
        double near = Math.max(0.05, 0.01 * (r.to() - r.from()));
        List<Marker> out = new ArrayList<>();
        Marker open = null;
        StringBuilder label = new StringBuilder();
        for (Marker m : r.markers()) {
            if (open != null && m.atSec() - open.atSec() <= near) {
                label.append("; ").append(m.label());
                continue;
            }
            if (open != null) {
                out.add(new Marker(open.atSec(), open.kind(), label.toString(), open.source()));
            }
            open = m;
            label.setLength(0);
            label.append(m.label());
        }
        if (open != null) {
            out.add(new Marker(open.atSec(), open.kind(), label.toString(), open.source()));
        }
        return out;
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static String resource(String name) {
        try (InputStream in = ReportHtml.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the page's script " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final String CSS = """
            body { font: 14px/1.4 -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; margin: 20px auto; padding: \
            0 16px;
                   color: #222; max-width: 1400px; }
            h1 { font-size: 20px; margin-bottom: 6px; } h2 { font-size: 16px; margin: 26px 0 6px; }
            .meta, .hint { color: #555; } .warning { color: #b00; }
            dl.run { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 8px 0; }
            dl.run div { display: flex; gap: 6px; } dt { color: #666; } dd { margin: 0; font-weight: 600; }
            table { border-collapse: collapse; margin: 10px 0; }
            th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; } th { background: #f4f4f4; }
            td:first-child { text-align: left; font-weight: 600; }
            td.worse { color: #b00; } td.better { color: #070; }
            .chart { position: relative; width: 100%; margin: 4px 0 14px; }
            .chartHead { display: flex; gap: 16px; align-items: baseline; font-size: 13px; }
            .chartTitle { font-weight: 600; } .toggle { color: #444; cursor: pointer; }
            svg { display: block; user-select: none; }
            svg .plot { fill: #fcfcfc; stroke: #ccc; } svg .grid { stroke: #eee; } svg .band { fill: #fff3d6; }
            svg .tick, svg .legend { font-size: 11px; fill: #555; } svg .axis { font-size: 12px; fill: #333; }
            svg .series { fill: none; stroke-width: 1.6; stroke-linejoin: round; }
            svg .target { stroke-width: 1.8; }
            svg .marker { stroke: #e08a00; stroke-dasharray: 4 3; } svg .markerTick { stroke: #e8b060; }
            svg .markerLabel { font-size: 10.5px; fill: #a05a00; } svg .bandLabel { font-size: 10.5px; fill: #8a6d00; \
            font-style: italic; }
            svg .cut { fill: #999; } svg .cross { stroke: #888; } svg .selection { fill: rgba(31, 119, 180, 0.15); }
            svg .overlay { cursor: crosshair; }
            .tip { position: absolute; display: none; pointer-events: none; white-space: pre; font-size: 12px; \
            background: rgba(255,255,255,0.95);
                   border: 1px solid #bbb; border-radius: 3px; padding: 4px 6px; box-shadow: 0 1px 3px \
            rgba(0,0,0,0.15); }
            """;
}
