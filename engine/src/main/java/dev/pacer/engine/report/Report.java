package dev.pacer.engine.report;

import dev.pacer.engine.metrics.IntervalStats;
import dev.pacer.engine.metrics.LatencySummary;
import dev.pacer.engine.metrics.Metric;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One view of one or more histogram logs: totals per tag over a time window, and the series over
 * time. Histograms are only ever added, never averaged, so every percentile here is the percentile of
 * all the values recorded in the window.
 *
 * <p>Several logs (shards of one test) are aligned by their absolute start times: time zero is the
 * earliest log's start, and the series is cut into buckets of the logs' interval length so each
 * bucket adds the shards' intervals that began in it. A single log keeps its own intervals.
 */
public final class Report {

    /** A point of the series: an interval (or bucket) and each tag's histogram in it. */
    public record Point(double start, double end, Map<String, Histogram> byTag) {
        public long count(String tag) {
            Histogram h = byTag.get(tag);
            return h == null ? 0 : h.getTotalCount();
        }
    }

    private final List<Path> files;
    private final double startSec;
    private final double from;
    private final double to;
    private final Map<String, Histogram> totals;
    private final List<Point> points;
    private final List<Marker> markers;
    private final List<String> warnings;

    private Report(List<Path> files, double startSec, double from, double to, Map<String, Histogram> totals,
                   List<Point> points, List<Marker> markers, List<String> warnings) {
        this.files = files;
        this.startSec = startSec;
        this.from = from;
        this.to = to;
        this.totals = totals;
        this.points = points;
        this.markers = markers;
        this.warnings = warnings;
    }

    /**
     * Builds the view.
     *
     * @param logs     the logs: one, or several to merge
     * @param fromSec  window start in seconds from the (earliest) log start, or null
     * @param toSec    window end, or null; intervals wholly inside the window are counted
     * @throws IllegalArgumentException when the window holds no interval
     */
    public static Report of(List<HlogFile> logs, Double fromSec, Double toSec) {
        double start = logs.stream().mapToDouble(HlogFile::startSec).min().orElseThrow();
        double lo = fromSec == null ? Double.NEGATIVE_INFINITY : fromSec;
        double hi = toSec == null ? Double.POSITIVE_INFINITY : toSec;
        List<TaggedInterval> inside = new ArrayList<>();
        for (HlogFile log : logs) {
            for (TaggedInterval i : log.intervals()) {
                double s = i.startSec() - start;
                double e = i.endSec() - start;
                if (s >= lo - 1e-3 && e <= hi + 1e-3) {
                    inside.add(i);
                }
            }
        }
        if (inside.isEmpty()) {
            throw new IllegalArgumentException("no interval lies within the window" + window(fromSec, toSec));
        }
        Map<String, Histogram> totals = new LinkedHashMap<>();
        for (String tag : tags(inside)) {
            totals.put(tag, IntervalStats.newHistogram());
        }
        for (TaggedInterval i : inside) {
            totals.get(i.tag()).add(i.histogram());
        }
        double first = inside.stream().mapToDouble(i -> i.startSec() - start).min().orElseThrow();
        double last = inside.stream().mapToDouble(i -> i.endSec() - start).max().orElseThrow();
        List<Point> points = logs.size() == 1 ? byInterval(inside, start) : byBucket(inside, start, bucketLength(inside));
        List<Marker> markers = new ArrayList<>();
        for (HlogFile log : logs) {
            for (Marker m : log.markers()) {
                double at = m.atSec() - start;
                if (at >= first - 1e-3 && at <= last + 1e-3) {
                    markers.add(new Marker(at, m.text()));
                }
            }
        }
        markers.sort(Comparator.comparingDouble(Marker::atSec));
        List<String> warnings = logs.stream().flatMap(l -> l.warnings().stream()).toList();
        return new Report(logs.stream().map(HlogFile::path).toList(), start, first, last, totals, points, markers, warnings);
    }

    private static String window(Double from, Double to) {
        return from == null && to == null ? "" : " --from " + (from == null ? "start" : from + "s")
                + " --to " + (to == null ? "end" : to + "s");
    }

    /** Tags in reading order: wait, service, response first, others after. */
    private static List<String> tags(List<TaggedInterval> intervals) {
        List<String> tags = new ArrayList<>();
        for (Metric m : Metric.values()) {
            if (intervals.stream().anyMatch(i -> i.tag().equals(m.tag()))) {
                tags.add(m.tag());
            }
        }
        intervals.stream().map(TaggedInterval::tag).distinct().filter(t -> !tags.contains(t)).sorted().forEach(tags::add);
        return tags;
    }

    private static List<Point> byInterval(List<TaggedInterval> intervals, double start) {
        Map<Long, Point> points = new TreeMap<>();
        for (TaggedInterval i : intervals) {
            long key = Math.round((i.startSec() - start) * 1000) * 10_000_000L + Math.round((i.endSec() - start) * 1000);
            points.computeIfAbsent(key, k -> new Point(i.startSec() - start, i.endSec() - start, new LinkedHashMap<>()))
                    .byTag().merge(i.tag(), i.histogram().copy(), (a, b) -> {
                        a.add(b);
                        return a;
                    });
        }
        return List.copyOf(points.values());
    }

    private static List<Point> byBucket(List<TaggedInterval> intervals, double start, double length) {
        Map<Long, Point> points = new TreeMap<>();
        for (TaggedInterval i : intervals) {
            long bucket = (long) Math.floor((i.startSec() - start) / length + 1e-6);
            points.computeIfAbsent(bucket, b -> new Point(b * length, (b + 1) * length, new LinkedHashMap<>()))
                    .byTag().merge(i.tag(), i.histogram().copy(), (a, b) -> {
                        a.add(b);
                        return a;
                    });
        }
        return List.copyOf(points.values());
    }

    /** The logs' typical interval length (median), at least 1 ms. */
    private static double bucketLength(List<TaggedInterval> intervals) {
        double[] lengths = intervals.stream().mapToDouble(i -> i.endSec() - i.startSec()).sorted().toArray();
        return Math.max(0.001, lengths[lengths.length / 2]);
    }

    public List<Path> files() {
        return files;
    }

    /** The (earliest) log's start, seconds since the epoch. */
    public double startSec() {
        return startSec;
    }

    /** Start of the first interval counted, seconds from the log start. */
    public double from() {
        return from;
    }

    /** End of the last interval counted. */
    public double to() {
        return to;
    }

    public double durationSeconds() {
        return to - from;
    }

    /** Each tag's histogram over the window, tags in reading order. */
    public Map<String, Histogram> totals() {
        return totals;
    }

    /** Each tag's summary over the window. */
    public Map<String, LatencySummary> summaries() {
        Map<String, LatencySummary> m = new LinkedHashMap<>();
        totals.forEach((tag, h) -> m.put(tag.isEmpty() ? "(untagged)" : tag, LatencySummary.of(h)));
        return m;
    }

    /** The tag that counts ops: {@code response} for pacer's logs, else the first. */
    public String opsTag() {
        return totals.containsKey(Metric.RESPONSE.tag()) ? Metric.RESPONSE.tag() : totals.keySet().iterator().next();
    }

    public long ops() {
        return totals.get(opsTag()).getTotalCount();
    }

    public double rate() {
        return durationSeconds() > 0 ? ops() / durationSeconds() : 0;
    }

    public List<Point> points() {
        return points;
    }

    public List<Marker> markers() {
        return markers;
    }

    public List<String> warnings() {
        return warnings;
    }
}
