package dev.pacer.report;

import dev.pacer.engine.hlog.Marker;

import dev.pacer.engine.text.Durations;
import dev.pacer.engine.metrics.LatencySummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * {@code pacer report --plot}: one self-contained HTML page (inline SVG and CSS, no script, no
 * network) with the percentile table; the achieved rate over time; the percentile distribution of
 * every tag on HdrHistogram's plotter axis (1/(1-p), log scale: 0 %, 90 %, 99 %, 99.9 %, ...); and per
 * tag its distribution and its p50, p99 and max over time. Changes and phases from the log's comments
 * are vertical markers on the time charts.
 */
public final class ReportHtml {

    private static final Map<String, String> COLORS = Map.of("wait", "#1f77b4", "service", "#2ca02c", "response", "#d62728");
    private static final String[] OTHER_COLORS = {"#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

    private ReportHtml() {
    }

    public static void write(Report r, Path file) throws IOException {
        Files.writeString(file, render(r), StandardCharsets.UTF_8);
    }

    public static String render(Report r) {
        String files = r.files().stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(" + "));
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>pacer report: ")
                .append(SvgChart.esc(files)).append("</title>\n<style>\n").append(CSS).append("</style></head>\n<body>\n");
        b.append("<h1>pacer report: ").append(SvgChart.esc(files)).append("</h1>\n");
        b.append(String.format(Locale.ROOT, "<p class=\"meta\">%d ops in %.2f s (%.1f s to %.1f s of the log, started %s): %.1f ops/s.%s</p>%n",
                r.ops(), r.durationSeconds(), r.from(), r.to(), Instant.ofEpochMilli((long) (r.startSec() * 1000)), r.rate(),
                r.markers().isEmpty() ? "" : " " + r.markers().size() + " changes marked."));
        table(b, r.summaries());
        for (String w : r.warnings()) {
            b.append("<p class=\"warning\">").append(SvgChart.esc(w)).append("</p>\n");
        }
        b.append("<h2>Achieved rate</h2>\n").append(rateChart(r));
        b.append("<h2>Percentile distribution</h2>\n").append(distribution("all tags", r, r.totals()));
        for (Map.Entry<String, Histogram> e : r.totals().entrySet()) {
            String tag = e.getKey().isEmpty() ? "(untagged)" : e.getKey();
            b.append("<h2>").append(SvgChart.esc(tag)).append("</h2>\n");
            b.append(distribution(tag, r, Map.of(e.getKey(), e.getValue())));
            b.append(overTime(tag, r, e.getKey()));
        }
        b.append("<p class=\"meta\">Made by pacer from HdrHistogram interval logs; percentiles are of all values "
                + "recorded in the window (histograms are added, never averaged).</p>\n</body></html>\n");
        return b.toString();
    }

    private static void table(StringBuilder b, Map<String, LatencySummary> rows) {
        b.append("<table><tr><th>latency</th><th>count</th>");
        for (double q : LatencySummary.PERCENTILES) {
            b.append("<th>p").append(LatencySummary.label(q)).append("</th>");
        }
        b.append("<th>max</th><th>mean</th></tr>\n");
        rows.forEach((tag, l) -> {
            b.append("<tr><td>").append(SvgChart.esc(tag)).append("</td><td>").append(l.count()).append("</td>");
            for (double q : LatencySummary.PERCENTILES) {
                b.append("<td>").append(Durations.format((double) l.at(LatencySummary.label(q)))).append("</td>");
            }
            b.append("<td>").append(Durations.format((double) l.max())).append("</td><td>")
                    .append(Durations.format(l.mean())).append("</td></tr>\n");
        });
        b.append("</table>\n");
    }

    private static String rateChart(Report r) {
        List<Report.Point> points = r.points().stream().filter(p -> p.end() - p.start() > 0.05).toList();
        double[] xs = new double[points.size()];
        double[] ys = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            Report.Point p = points.get(i);
            xs[i] = p.end();
            ys[i] = p.count(r.opsTag()) / (p.end() - p.start());
        }
        SvgChart c = new SvgChart("ops/s per interval", "seconds", "ops/s").xRange(r.from(), r.to())
                .series("achieved", "#333333", xs, ys);
        markers(c, r);
        return c.render();
    }

    private static String overTime(String name, Report r, String tag) {
        List<Report.Point> points = r.points().stream().filter(p -> p.count(tag) > 0).toList();
        double[] xs = new double[points.size()];
        double[][] ys = new double[3][points.size()];
        for (int i = 0; i < points.size(); i++) {
            Report.TagFigures f = points.get(i).byTag().get(tag);
            xs[i] = points.get(i).end();
            ys[0][i] = f.p50() / 1e6;
            ys[1][i] = f.p99() / 1e6;
            ys[2][i] = f.max() / 1e6;
        }
        SvgChart c = new SvgChart(name + ": latency per interval", "seconds", "ms").xRange(r.from(), r.to())
                .series("p50", "#2ca02c", xs, ys[0]).series("p99", "#d62728", xs, ys[1]).series("max", "#9a9a9a", xs, ys[2]);
        markers(c, r);
        return c.render();
    }

    /** The HdrHistogram plotter's view: x = log10(1/(1-p)), so 90 %, 99 %, 99.9 % ... are equally spaced. */
    private static String distribution(String name, Report r, Map<String, Histogram> histograms) {
        long maxCount = histograms.values().stream().mapToLong(Histogram::getTotalCount).max().orElse(1);
        int nines = (int) Math.max(2, Math.min(6, Math.ceil(Math.log10(Math.max(10, maxCount)))));
        List<SvgChart.Tick> ticks = new ArrayList<>();
        ticks.add(new SvgChart.Tick(0, "0%"));
        String label = "9";
        for (int k = 1; k <= nines; k++) {
            ticks.add(new SvgChart.Tick(k, (k == 1 ? "90" : "99" + (k > 2 ? "." + label.repeat(k - 2) : "")) + "%"));
        }
        SvgChart c = new SvgChart(name + ": percentile distribution", "percentile", "ms").xAxis(0, nines, ticks);
        int other = 0;
        for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
            Histogram h = e.getValue();
            if (h.getTotalCount() == 0) {
                continue;
            }
            List<double[]> pts = new ArrayList<>();
            for (HistogramIterationValue v : h.percentiles(5)) {
                double p = v.getPercentileLevelIteratedTo() / 100.0;
                double x = p >= 1.0 ? nines : Math.min(nines, Math.log10(1 / (1 - p)));
                pts.add(new double[] {x, v.getValueIteratedTo() / 1e6});
            }
            double[] xs = pts.stream().mapToDouble(a -> a[0]).toArray();
            double[] ys = pts.stream().mapToDouble(a -> a[1]).toArray();
            String tag = e.getKey().isEmpty() ? "(untagged)" : e.getKey();
            c.series(tag, COLORS.getOrDefault(e.getKey(), OTHER_COLORS[other++ % OTHER_COLORS.length]), xs, ys);
        }
        return c.render();
    }

    /** Changes as markers; changes within 1 % of the chart's span of each other share one (their labels would collide). */
    private static void markers(SvgChart c, Report r) {
        double near = Math.max(0.05, 0.01 * r.durationSeconds());
        Marker open = null;
        StringBuilder label = new StringBuilder();
        for (Marker m : r.markers()) {
            String text = m.label();
            if (open != null && m.atSec() - open.atSec() <= near) {
                label.append("; ").append(text);
                continue;
            }
            if (open != null) {
                c.marker(open.atSec(), label.toString());
            }
            open = m;
            label.setLength(0);
            label.append(text);
        }
        if (open != null) {
            c.marker(open.atSec(), label.toString());
        }
    }

    private static final String CSS = """
            body { font: 14px/1.4 -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; margin: 24px; color: #222; max-width: 960px; }
            h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
            .meta { color: #555; } .warning { color: #b00; }
            table { border-collapse: collapse; margin: 12px 0; }
            th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; } th { background: #f4f4f4; }
            td:first-child { text-align: left; font-weight: 600; }
            svg.chart { display: block; margin: 6px 0 18px; }
            svg .plot { fill: #fcfcfc; stroke: #ccc; } svg .grid { stroke: #eee; }
            svg .tick, svg .legend { font-size: 11px; fill: #555; } svg .axis { font-size: 12px; fill: #333; }
            svg .title { font-size: 13px; font-weight: 600; fill: #222; }
            svg .series { fill: none; stroke-width: 1.6; }
            svg .marker { stroke: #e08a00; stroke-dasharray: 4 3; } svg .markerLabel { font-size: 10px; fill: #b06000; }
            """;
}
