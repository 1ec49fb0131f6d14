package dev.pacer.report;

import dev.pacer.engine.api.RunFigures;
import dev.pacer.engine.hlog.HlogFile;
import dev.pacer.engine.hlog.HlogReader;
import dev.pacer.engine.hlog.IntervalNote;
import dev.pacer.engine.hlog.Marker;
import dev.pacer.engine.hlog.TaggedInterval;

import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.OpTag;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * One view of one or more histogram logs: totals per tag over a time window, and the series over
 * time. Histograms are only ever added, never averaged, so every percentile here is the percentile of
 * all the values recorded in the window.
 *
 * <p>Several logs (shards of one test) are aligned by their absolute start times: time zero is the
 * earliest log's start, and the series is cut into buckets of the logs' interval length so each
 * bucket adds the shards' intervals that began in it. A single log keeps its own intervals.
 *
 * <p>A workload's log has each named op's histograms too, tagged {@code response.browse} and so on
 * ({@link OpTag}): they are kept apart from the totals, as {@link #perOp()} and each point's
 * {@link Point#byOp()}, so the totals' tables and charts stay the run's.
 *
 * <p>pacer's logs also carry a note per interval ({@link IntervalNote}: target, ops, errors, phase).
 * With them, warm-up intervals are left out of the totals, the ops, the errors and the length, and
 * drain intervals' time out of the length, as the run's summary does; the series keeps them, marked.
 *
 * <p>Logs are streamed: each interval is added to the totals as it is read and kept only in its
 * compressed form (about its size in the log) until the series is built, where each point is reduced
 * to the figures the charts draw. Memory follows the log's size on disk, not its decoded histograms.
 */
public final class Report {

    /** A tag's figures in one point of the series. */
    public record TagFigures(long count, long p50, long p90, long p99, long max) {
        static TagFigures of(Histogram h) {
            return h.getTotalCount() == 0 ? new TagFigures(0, 0, 0, 0, 0)
                    : new TagFigures(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                    h.getValueAtPercentile(99), h.getMaxValue());
        }
    }

    /**
     * A point of the series: an interval (or bucket) and each tag's figures in it, with what the logs'
     * notes say of it.
     *
     * @param byTag    each total's tag's figures ({@code wait}, {@code service}, {@code response}, or another
     *                 tool's tags)
     * @param target   the target rate, ops/s (the shards' added), NaN when unpaced or not noted
     * @param errors   errors by outcome label
     * @param phase    the phase, or null
     * @param warmup   in a warm-up phase (not in the totals)
     * @param drain    after the schedule ended (its ops count, its time not)
     * @param noted    whether the logs had notes for it (else target, errors and phase are unknown)
     * @param byOp     each named op's figures by metric tag ({@code response}, ...), from its {@link OpTag}ged
     *                 histograms; empty for a plain op's log
     * @param opErrors each named op's errors, from the notes (an op absent: not noted)
     */
    public record Point(double start, double end, Map<String, TagFigures> byTag, double target,
                       Map<String, Long> errors, String phase, boolean warmup, boolean drain, boolean noted,
                       Map<String, Map<String, TagFigures>> byOp, Map<String, Long> opErrors) {
        public long count(String tag) {
            TagFigures f = byTag.get(tag);
            return f == null ? 0 : f.count();
        }

        /** Ops of named op {@code op} in the point (its response histogram's count). */
        public long opCount(String op) {
            TagFigures f = byOp.getOrDefault(op, Map.of()).get(Metric.RESPONSE.tag());
            return f == null ? 0 : f.count();
        }

        public double seconds() {
            return end - start;
        }

        public long errorCount() {
            return errors.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * One named op (a workload's op) over the window, from its tagged histograms and the notes: warm-up left out, as
     * in the totals.
     *
     * @param op        its name
     * @param ops       its ops
     * @param errors    its errors, or null when the logs' notes do not say (older logs, other tools)
     * @param latencies its wait, service and response (those the logs hold)
     * @param rate      its ops over the window's measured length (of merged logs, each log's own added), ops/s
     */
    public record OpFigures(String op, long ops, Long errors, Map<Metric, LatencySummary> latencies, double rate) {
    }

    /** An interval inside the window, kept compressed until the series is built. */
    private record Kept(String tag, double start, double end, byte[] histogram, int log, IntervalNote note) {
        static Kept of(TaggedInterval i, double logStart, int log) {
            Histogram h = i.histogram();
            ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int length = h.encodeIntoCompressedByteBuffer(buffer);
            return new Kept(i.tag(), i.startSec() - logStart, i.endSec() - logStart,
                    Arrays.copyOf(buffer.array(), length), log, null);
        }

        Histogram decode() {
            try {
                return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(histogram), 0);
            } catch (DataFormatException e) {
                throw new IllegalStateException("a histogram encoded here did not decode", e);
            }
        }
    }

    private final List<Path> files;
    private final double startSec;
    private final double from;
    private final double to;
    private final Map<String, Histogram> totals;
    private final List<OpFigures> perOp;
    private final List<Point> points;
    private final List<Marker> markers;
    private final List<String> warnings;
    private final Map<String, String> settings;
    private final Map<String, Long> errors;
    private final double measuredSeconds;
    private final boolean noted;
    /** Ops per second: of one log, its ops over its measured length; of several, the sum of each log's own rate. */
    private final double rate;
    /** The target, ops/s, as {@link #rate} is measured: of merged logs, each log's own added; NaN when not noted. */
    private final double target;

    private Report(List<Path> files, double startSec, double from, double to, Map<String, Histogram> totals,
                   List<OpFigures> perOp, List<Point> points, List<Marker> markers, List<String> warnings,
                   Map<String, String> settings, Map<String, Long> errors, double measuredSeconds, boolean noted,
                   double rate, double target) {
        this.files = files;
        this.startSec = startSec;
        this.from = from;
        this.to = to;
        this.totals = totals;
        this.perOp = perOp;
        this.points = points;
        this.markers = markers;
        this.warnings = warnings;
        this.settings = settings;
        this.errors = errors;
        this.measuredSeconds = measuredSeconds;
        this.noted = noted;
        this.rate = rate;
        this.target = target;
    }

    /**
     * The interval with its note, if its log has one within 2 ms of its bounds (HdrHistogram's reader
     * truncates a timestamp plus a length to whole ms, so bounds read back can be 1 ms short), and then
     * with the note's bounds, which are exact.
     */
    private static Kept withNote(Kept k, TreeMap<Long, IntervalNote> notes, double offset) {
        long ms = Math.round((k.start() - offset) * 1000);
        for (IntervalNote n : notes.subMap(ms - 2, true, ms + 2, true).values()) {
            if (Math.abs(n.end() + offset - k.end()) <= 0.0025) {
                return new Kept(k.tag(), n.start() + offset, n.end() + offset, k.histogram(), k.log(), n);
            }
        }
        return k;
    }

    /**
     * Reads the logs and builds the view.
     *
     * @param logs     the logs: one, or several to merge
     * @param fromSec  window start in seconds from the (earliest) log start, or null
     * @param toSec    window end, or null; intervals inside the window are counted (see {@link #inWindow})
     * @throws IllegalArgumentException when a log cannot be read, or the window holds no interval
     */
    public static Report of(List<Path> logs, Double fromSec, Double toSec) {
        refuseTwice(logs);
        double lo = fromSec == null ? Double.NEGATIVE_INFINITY : fromSec;
        double hi = toSec == null ? Double.POSITIVE_INFINITY : toSec;
        Read read = read(logs, lo, hi);
        if (read.inside().isEmpty()) {
            throw new IllegalArgumentException("no interval lies within the window" + window(fromSec, toSec));
        }
        List<Kept> inside = withNotes(read);
        boolean noted = inside.stream().anyMatch(k -> k.note() != null);
        List<Kept> measured = measured(inside);
        boolean allWarmup = measured == inside;
        Sums sums = Sums.of(measured);
        Map<String, Histogram> totals = inReadingOrder(sums.totals());
        double first = inside.stream().mapToDouble(Kept::start).min().orElseThrow();
        double last = inside.stream().mapToDouble(Kept::end).max().orElseThrow();
        List<Point> points = logs.size() == 1 ? byInterval(inside) : byBucket(inside, bucketLength(inside));
        List<Point> measuredPoints = points.stream().filter(p -> !p.warmup() || allWarmup).toList();
        double length = noted ? measuredSeconds(measuredPoints) : last - first;
        Rates rates = new Rates(logs.size() == 1, length, measured, read.extents(), lo, hi);
        String opsTag = opsTag(totals);
        double rate = rates.of(totals.get(opsTag).getTotalCount(), opsTag);
        List<OpFigures> perOp = new ArrayList<>();
        sums.byOp().forEach((op, histograms) -> perOp.add(opFigures(op, histograms, measuredPoints, rates)));
        return new Report(List.copyOf(logs), read.start(), first, last, totals, List.copyOf(perOp), points,
                markers(read, first, last), read.warnings(), read.files().get(0).settings(), errors(measuredPoints),
                length, noted, rate, mergedTarget(inside, read.extents(), lo, hi));
    }

    /**
     * The logs as read: time zero ({@code start}, the earliest log's start, seconds since the epoch), each
     * log's file, the intervals inside the window (not yet matched to their notes) and each log's extent
     * ({first interval's start, last interval's end}, seconds from time zero, whether inside the window or not).
     */
    private record Read(double start, List<HlogFile> files, List<Kept> inside, double[][] extents) {
        /** The logs' warnings (lines they could not read), log by log. */
        List<String> warnings() {
            return files.stream().flatMap(l -> l.warnings().stream()).toList();
        }
    }

    /**
     * Reads the logs, each whole and streaming, keeping the intervals inside the window {@code lo .. hi} from the
     * earliest start of them all, compressed. Where every log is a file, that start is read from their headers first
     * and an interval outside the window is never kept, so a window into a day-long log holds only its own; a pipe
     * ({@code zcat run.hlog.gz | pacer report /dev/stdin}) can be read only once, so then every interval is kept until
     * the start is known.
     */
    private static Read read(List<Path> logs, double lo, double hi) {
        boolean headersFirst = logs.stream().allMatch(Files::isRegularFile);
        double base = headersFirst ? logs.stream().mapToDouble(log -> HlogReader.read(log, first -> false).startSec())
                .min().orElseThrow() : 0;
        List<Kept> kept = new ArrayList<>();
        List<HlogFile> files = new ArrayList<>();
        double[][] extents = new double[logs.size()][];
        for (Path log : logs) {
            int index = files.size();
            double[] extent = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
            extents[index] = extent;
            HlogFile file = HlogReader.read(log, i -> {
                double s = i.startSec() - base;
                double e = i.endSec() - base;
                extent[0] = Math.min(extent[0], s);
                extent[1] = Math.max(extent[1], e);
                if (!headersFirst || inWindow(s, e, lo, hi)) {
                    kept.add(Kept.of(i, base, index));
                }
                return true;
            });
            files.add(file);
            // what the reader left out (an interval without its note, or with an unreadable line) is not counted
            kept.removeIf(k -> k.log() == index && file.leftOut(k.start() + base, k.end() + base));
        }
        if (headersFirst) {
            return new Read(base, files, kept, extents);
        }
        double start = files.stream().mapToDouble(HlogFile::startSec).min().orElseThrow();
        for (double[] extent : extents) {
            extent[0] -= start;
            extent[1] -= start;
        }
        List<Kept> inside = new ArrayList<>();
        for (Kept k : kept) {
            Kept from = new Kept(k.tag(), k.start() - start, k.end() - start, k.histogram(), k.log(), k.note());
            if (inWindow(from.start(), from.end(), lo, hi)) {
                inside.add(from);
            }
        }
        return new Read(start, files, inside, extents);
    }

    /** The intervals inside the window, each with its log's note for it where there is one (see {@link #withNote}). */
    private static List<Kept> withNotes(Read read) {
        List<TreeMap<Long, IntervalNote>> notes = new ArrayList<>();
        for (HlogFile log : read.files()) {
            TreeMap<Long, IntervalNote> byStart = new TreeMap<>();
            for (IntervalNote n : log.notes()) {
                byStart.put(Math.round(n.start() * 1000), n);
            }
            notes.add(byStart);
        }
        List<Kept> inside = new ArrayList<>(read.inside());
        inside.replaceAll(k -> withNote(k, notes.get(k.log()), read.files().get(k.log()).startSec() - read.start()));
        return inside;
    }

    /**
     * The intervals the totals count: those not in a warm-up; when the window holds only warm-up, all of them
     * ({@code inside} itself), to show it rather than nothing.
     */
    private static List<Kept> measured(List<Kept> inside) {
        List<Kept> measured = inside.stream().filter(k -> k.note() == null || !k.note().warmup()).toList();
        return measured.isEmpty() ? inside : measured;
    }

    /**
     * The counted intervals' histograms added: the run's totals by tag, and each named op's by metric (in the
     * log's order of ops).
     */
    private record Sums(Map<String, Histogram> totals, Map<String, Map<Metric, Histogram>> byOp) {
        /** @throws IllegalArgumentException when there are only named ops' histograms, no run totals */
        static Sums of(List<Kept> measured) {
            Map<String, Histogram> totals = new HashMap<>();
            Map<String, Map<Metric, Histogram>> byOp = new LinkedHashMap<>();
            for (Kept k : measured) {
                OpTag op = OpTag.parse(k.tag());
                Histogram sum = op == null ? totals.computeIfAbsent(k.tag(), tag -> IntervalStats.newHistogram())
                        : byOp.computeIfAbsent(op.op(), o -> new java.util.EnumMap<>(Metric.class))
                                .computeIfAbsent(op.metric(), m -> IntervalStats.newHistogram());
                sum.add(k.decode());
                if (sum.getTotalCount() < 0) { // each log's are at most a long (the reader checks): merged, wrapped
                    throw new IllegalArgumentException("the logs' '" + k.tag() + "' counts add up past "
                            + Long.MAX_VALUE);
                }
            }
            if (totals.isEmpty()) {
                throw new IllegalArgumentException("the window holds only per-op histograms, no run totals");
            }
            return new Sums(totals, byOp);
        }
    }

    /** The totals with their tags in reading order ({@link #tags}). */
    private static Map<String, Histogram> inReadingOrder(Map<String, Histogram> totals) {
        Map<String, Histogram> ordered = new LinkedHashMap<>();
        for (String tag : tags(totals.keySet())) {
            ordered.put(tag, totals.get(tag));
        }
        return ordered;
    }

    /** The logs' markers from {@code first} to {@code last} (1 ms either side), at seconds from time zero, in order. */
    private static List<Marker> markers(Read read, double first, double last) {
        List<Marker> markers = new ArrayList<>();
        for (HlogFile log : read.files()) {
            for (Marker m : log.markers()) {
                double at = m.atSec() - read.start();
                if (at >= first - 1e-3 && at <= last + 1e-3) {
                    markers.add(m.at(at));
                }
            }
        }
        markers.sort(Comparator.comparingDouble(Marker::atSec));
        return markers;
    }

    /** The measured points' errors added, by outcome label. */
    private static Map<String, Long> errors(List<Point> measuredPoints) {
        Map<String, Long> errors = new TreeMap<>();
        for (Point p : measuredPoints) {
            p.errors().forEach((type, n) -> errors.merge(type, n, Long::sum));
        }
        return errors;
    }

    /** The measured points' length, seconds: drain points' time left out, as the run's summary does. */
    private static double measuredSeconds(List<Point> measuredPoints) {
        double seconds = 0;
        for (Point p : measuredPoints) {
            seconds += p.drain() ? 0 : p.seconds();
        }
        return seconds;
    }

    /**
     * How the window's rates are measured: of one log, ops over its measured {@code length}; of several, each log's
     * own rate added ({@link #mergedRate}).
     */
    private record Rates(boolean oneLog, double length, List<Kept> measured, double[][] extents, double lo, double hi) {
        /** The rate of {@code ops} values tagged {@code tag}, ops/s; 0 when it cannot be measured. */
        double of(long ops, String tag) {
            double rate = oneLog ? (length > 0 ? ops / length : 0) : mergedRate(measured, tag, extents, lo, hi);
            return Double.isNaN(rate) ? 0 : rate;
        }
    }

    /** Named op {@code op}'s figures, from its added {@code histograms} and the measured points' notes. */
    private static OpFigures opFigures(String op, Map<Metric, Histogram> histograms, List<Point> measuredPoints,
                                       Rates rates) {
        Map<Metric, LatencySummary> latencies = new java.util.EnumMap<>(Metric.class);
        histograms.forEach((m, h) -> latencies.put(m, LatencySummary.of(h)));
        Metric counted = histograms.containsKey(Metric.RESPONSE) ? Metric.RESPONSE
                : histograms.keySet().iterator().next(); // every op records one response; pacer logs it
        long ops = histograms.get(counted).getTotalCount();
        boolean errorsNoted = measuredPoints.stream().anyMatch(p -> p.opErrors().containsKey(op));
        long errors = measuredPoints.stream().mapToLong(p -> p.opErrors().getOrDefault(op, 0L)).sum();
        return new OpFigures(op, ops, errorsNoted ? errors : null, latencies, rates.of(ops, OpTag.of(counted, op)));
    }

    /**
     * The merged rate: each log's rate (its ops over the time its own counted intervals cover, drain left out),
     * weighted by how much of the time the logs span together each log spans (its first interval's start to its
     * last's end, within the window), and added. Shards of one test span the same time, so their rates add up;
     * logs one after the other average. A window keeps only the intervals wholly inside it, and shards'
     * intervals do not line up (one that started late begins with a long one): dividing all the ops by the
     * window would count that shard's time without its ops, and understate the test's rate.
     */
    private static double mergedRate(List<Kept> measured, String opsTag, double[][] extents, double lo, double hi) {
        int logs = extents.length;
        long[] ops = new long[logs];
        double[] seconds = new double[logs];
        for (Kept k : measured) {
            if (k.tag().equals(opsTag) && (k.note() == null || !k.note().drain())) {
                ops[k.log()] += k.decode().getTotalCount();
                seconds[k.log()] += k.end() - k.start();
            }
        }
        double[] rates = new double[logs];
        for (int i = 0; i < logs; i++) {
            rates[i] = seconds[i] > 0 ? ops[i] / seconds[i] : Double.NaN;
        }
        return acrossLogs(rates, extents, lo, hi);
    }

    /**
     * The target of the window, as {@link #mergedRate} adds rates: each log's mean target (its noted intervals'
     * targets weighted by their lengths, warm-up and drain included as the series shows them), weighted by the
     * share of the logs' joint span it spans, and added. Logs written with different {@code --interval}s each
     * count once, whatever their intervals' lengths. NaN when no log notes a target.
     */
    private static double mergedTarget(List<Kept> inside, double[][] extents, double lo, double hi) {
        double[] weighted = new double[extents.length];
        double[] seconds = new double[extents.length];
        // each log's span here is that of its intervals with a target: a drain after the schedule has none, and
        // a shard whose reporter was late to cut its drain would otherwise dilute the others' targets
        double[][] spans = new double[extents.length][];
        Set<IntervalNote> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Kept k : inside) {
            IntervalNote n = k.note();
            if (n != null && !Double.isNaN(n.target()) && n.seconds() > 0 && seen.add(n)) {
                int log = k.log();
                weighted[log] += n.target() * n.seconds();
                seconds[log] += n.seconds();
                spans[log] = spans[log] == null ? new double[] {k.start(), k.end()}
                        : new double[] {Math.min(spans[log][0], k.start()), Math.max(spans[log][1], k.end())};
            }
        }
        double[] targets = new double[extents.length];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = seconds[i] > 0 ? weighted[i] / seconds[i] : Double.NaN;
            spans[i] = spans[i] == null ? extents[i] : spans[i];
        }
        return acrossLogs(targets, spans, lo, hi);
    }

    /**
     * Each log's {@code value} (NaN: the log has none) weighted by how much of the time the logs with a value span
     * together it spans (its first interval's start to its last's end, within the window), and added: logs side by
     * side add up, logs one after the other average. NaN when no log has a value.
     */
    private static double acrossLogs(double[] values, double[][] extents, double lo, double hi) {
        List<double[]> spans = new ArrayList<>();
        double weighted = 0;
        for (int i = 0; i < values.length; i++) {
            double from = Math.max(extents[i][0], lo);
            double to = Math.min(extents[i][1], hi);
            if (!Double.isNaN(values[i]) && to > from) {
                weighted += values[i] * (to - from);
                spans.add(new double[] {from, to});
            }
        }
        spans.sort(Comparator.comparingDouble(span -> span[0]));
        double union = 0;
        double end = Double.NEGATIVE_INFINITY;
        for (double[] span : spans) {
            union += Math.max(0, span[1] - Math.max(span[0], end));
            end = Math.max(end, span[1]);
        }
        return union > 0 ? weighted / union : Double.NaN;
    }

    /**
     * Refuses a log named twice, also through another path, a symbolic link or a hard link: the file's identity
     * (device and inode, where the file system has them; else its real path) is compared, not its name.
     */
    private static void refuseTwice(List<Path> logs) {
        Map<Object, Path> seen = new HashMap<>();
        for (Path log : logs) {
            Object identity = identity(log);
            Path first = seen.putIfAbsent(identity, log);
            if (first != null) {
                throw new IllegalArgumentException(log + " is given twice" + (first.equals(log) ? "" : " (" + first
                        + " is the same file)") + ": merging it with itself would count its ops twice");
            }
        }
    }

    /** What tells one file from another: its file key (device and inode), else its real path, else its name. */
    static Object identity(Path file) {
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
            return key != null ? key : file.toRealPath();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize(); // not readable: the reader names it in one line
        }
    }

    /**
     * Whether an interval from {@code s} to {@code e} counts in the window {@code lo .. hi}: when what of it lies
     * outside the window is at most a tenth of its length, plus the log's 1 ms rounding. A run cuts an interval when
     * its reporter wakes, which on a loaded machine is a few ms after the tick: the interval asked for as 1 s to 2 s
     * may read 1.000 to 2.004, and is the one the user means. Its neighbours lie mostly outside and stay out.
     */
    static boolean inWindow(double s, double e, double lo, double hi) {
        double outside = Math.max(0, lo - s) + Math.max(0, e - hi);
        return outside <= 1e-3 + 0.1 * (e - s) && e > lo && s < hi;
    }

    private static String window(Double from, Double to) {
        return from == null && to == null ? "" : " from " + (from == null ? "the start" : from + "s")
                + " to " + (to == null ? "the end" : to + "s");
    }

    /** Tags in reading order: wait, service, response first, others after. */
    private static List<String> tags(Set<String> present) {
        List<String> tags = new ArrayList<>();
        for (Metric m : Metric.values()) {
            if (present.contains(m.tag())) {
                tags.add(m.tag());
            }
        }
        present.stream().filter(t -> !tags.contains(t)).sorted().forEach(tags::add);
        return tags;
    }

    /** A single log keeps its own intervals: one point per distinct (start, end), in ms. */
    private static List<Point> byInterval(List<Kept> intervals) {
        return points(intervals, i -> new double[] {i.start(), i.end()},
                b -> Math.round(b[0] * 1000) * 10_000_000L + Math.round(b[1] * 1000));
    }

    /**
     * Several logs: one point per bucket of {@code length}, adding the intervals whose middle lies in it. Shards cut
     * their intervals a few ms apart: by its start, one shard's 3.006 s interval and another's 2.998 s one would fall
     * in two buckets, each short of a shard.
     */
    private static List<Point> byBucket(List<Kept> intervals, double length) {
        return points(intervals, i -> {
            long b = (long) Math.floor((i.start() + i.end()) / 2 / length + 1e-6);
            return new double[] {b * length, (b + 1) * length};
        }, b -> Math.round(b[0] / length));
    }

    /**
     * The series: the intervals grouped into points by the bounds {@code at} gives them (keyed and
     * ordered by {@code key}); each point's histograms are decoded, added and reduced one point at a time.
     */
    private static List<Point> points(List<Kept> intervals, Function<Kept, double[]> at, ToLongFunction<double[]> key) {
        Map<Long, List<Kept>> groups = new TreeMap<>();
        Map<Long, double[]> bounds = new HashMap<>();
        for (Kept i : intervals) {
            double[] b = at.apply(i);
            long k = key.applyAsLong(b);
            bounds.putIfAbsent(k, b);
            groups.computeIfAbsent(k, x -> new ArrayList<>()).add(i);
        }
        List<Point> points = new ArrayList<>(groups.size());
        groups.forEach((k, members) -> {
            Map<String, Histogram> byTag = new LinkedHashMap<>();
            for (Kept i : members) {
                byTag.merge(i.tag(), i.decode(), (a, b) -> {
                    a.add(b);
                    return a;
                });
            }
            Map<String, TagFigures> figures = new LinkedHashMap<>();
            Map<String, Map<String, TagFigures>> byOp = new LinkedHashMap<>();
            byTag.forEach((tag, h) -> {
                OpTag op = OpTag.parse(tag);
                if (op == null) {
                    figures.put(tag, TagFigures.of(h));
                } else {
                    byOp.computeIfAbsent(op.op(), o -> new LinkedHashMap<>()).put(op.metric().tag(), TagFigures.of(h));
                }
            });
            // each interval's note once: its tags share the one read from its log (by identity: two shards'
            // notes of one interval can be equal in every field, and each counts)
            Set<IntervalNote> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            Map<Integer, double[]> targetByLog = new TreeMap<>(); // log -> {target x seconds, seconds}
            for (Kept i : members) {
                IntervalNote n = i.note();
                if (n != null && seen.add(n)) {
                    double[] t = targetByLog.computeIfAbsent(i.log(), log -> new double[2]);
                    double weight = Math.max(n.seconds(), 1e-9);
                    t[0] += n.target() * weight;
                    t[1] += weight;
                }
            }
            // the shards' targets added; a log with several (shorter) intervals in the point adds their
            // time-weighted mean
            double target = seen.isEmpty() || seen.stream().anyMatch(n -> Double.isNaN(n.target())) ? Double.NaN
                    : targetByLog.values().stream().mapToDouble(t -> t[1] > 0 ? t[0] / t[1] : 0).sum();
            Map<String, Long> errors = new TreeMap<>();
            seen.forEach(n -> n.errors().forEach((type, c) -> errors.merge(type, c, Long::sum)));
            Map<String, Long> opErrors = new LinkedHashMap<>();
            seen.forEach(n -> n.perOp().forEach((op, c) -> opErrors.merge(op, c.errorCount(), Long::sum)));
            String phase = seen.stream().map(IntervalNote::phase).filter(java.util.Objects::nonNull).findFirst()
                    .orElse(null);
            boolean warmup = !seen.isEmpty() && seen.stream().allMatch(IntervalNote::warmup);
            boolean drain = !seen.isEmpty() && seen.stream().allMatch(IntervalNote::drain);
            points.add(new Point(bounds.get(k)[0], bounds.get(k)[1], figures, target, errors, phase, warmup, drain,
                    !seen.isEmpty(), byOp, opErrors));
        });
        return List.copyOf(points);
    }

    /**
     * The longest of the logs' typical interval lengths (each log's median), at least 1 ms: logs written with
     * different {@code --interval}s share buckets that hold whole intervals of each.
     */
    private static double bucketLength(List<Kept> intervals) {
        Map<Integer, List<Double>> byLog = new TreeMap<>();
        for (Kept i : intervals) {
            byLog.computeIfAbsent(i.log(), log -> new ArrayList<>()).add(i.end() - i.start());
        }
        double longest = 0.001;
        for (List<Double> lengths : byLog.values()) {
            lengths.sort(null);
            longest = Math.max(longest, lengths.get(lengths.size() / 2));
        }
        return longest;
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

    /**
     * The measured length, seconds: with notes, the intervals' lengths without warm-up and drain (as the
     * run's summary counts it); without, the window's span.
     */
    public double durationSeconds() {
        return measuredSeconds;
    }

    /** The run's settings from the (first) log's header: op, threads, rate, strictness, ...; empty if none. */
    public Map<String, String> settings() {
        return settings;
    }

    /** Whether the logs carry pacer's interval notes (targets, errors, phases). */
    public boolean noted() {
        return noted;
    }

    /** Measured errors by outcome label (warm-up left out); empty when none or not noted. */
    public Map<String, Long> errors() {
        return errors;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The typical (median) length of the series' points, seconds. */
    public double nominalInterval() {
        double[] lengths = points.stream().mapToDouble(Point::seconds).sorted().toArray();
        return lengths[lengths.length / 2];
    }

    /**
     * A point shorter than half the typical interval: a cut at a phase boundary or at the end, whose
     * p99 and max stand on few values; drawn as a cut, not as a dip.
     */
    public boolean isCut(Point p) {
        return p.seconds() < 0.5 * nominalInterval();
    }

    /** Every error type in the series, sorted. */
    public List<String> errorTypes() {
        Set<String> types = new TreeSet<>();
        points.forEach(p -> types.addAll(p.errors().keySet()));
        return List.copyOf(types);
    }

    /** Each total's tag's histogram over the window, tags in reading order (the named ops' are in {@link #perOp}). */
    public Map<String, Histogram> totals() {
        return totals;
    }

    /** Each named op's figures over the window, in the log's order of ops; empty for a plain op's log. */
    public List<OpFigures> perOp() {
        return perOp;
    }

    /** The named ops, in the log's order; empty for a plain op's log. */
    public List<String> opNames() {
        return perOp.stream().map(OpFigures::op).toList();
    }

    /** Each tag's summary over the window. */
    public Map<String, LatencySummary> summaries() {
        Map<String, LatencySummary> m = new LinkedHashMap<>();
        totals.forEach((tag, h) -> m.put(tag.isEmpty() ? "(untagged)" : tag, LatencySummary.of(h)));
        return m;
    }

    /** The tag that counts ops: {@code response} for pacer's logs, else the first. */
    public String opsTag() {
        return opsTag(totals);
    }

    private static String opsTag(Map<String, Histogram> totals) {
        return totals.containsKey(Metric.RESPONSE.tag()) ? Metric.RESPONSE.tag() : totals.keySet().iterator().next();
    }

    public long ops() {
        return totals.get(opsTag()).getTotalCount();
    }

    /** Ops per second: of one log, its ops over its measured length; of merged logs, each log's own rate added. */
    public double rate() {
        return rate;
    }

    /**
     * What the window measured as the figures a run's gates are judged on (see {@code pacer run --threshold}): ops,
     * errors, the time-weighted target of its intervals (for merged shards, the sum of their shares: the test's
     * rate), the achieved rate and the three latencies; NaN target when the logs carry none.
     */
    public RunFigures figures() {
        Map<Metric, LatencySummary> latencies = new java.util.EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            Histogram h = totals.get(m.tag());
            if (h != null) {
                latencies.put(m, LatencySummary.of(h));
            }
        }
        return new RunFigures(ops(), errorCount(), target, rate(), durationSeconds(), latencies);
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
