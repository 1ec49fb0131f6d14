package dev.pacer.engine.hlog;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.text.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The interval histogram log: HdrHistogram's own format, written with {@link HistogramLogWriter}, one
 * tagged histogram per metric per interval ({@code wait}, {@code service}, {@code response}) and, for a
 * mix's run (a workload), one more set per named op after them ({@code wait.browse}, ..., see
 * {@link dev.pacer.engine.api.OpTag}), readable by {@code HistogramLogReader} and
 * {@code HistogramLogProcessor}. The run's settings, every change and, after each interval's histograms,
 * its target, ops, errors, phase and each op's ops and errors are comment lines in the shape
 * {@link HlogComments} defines.
 *
 * <p>Every write is flushed at once. The first write that fails (a full disk, {@code /dev/full}) is
 * reported once to the failure listener, naming the file and the reason, and nothing more is written.
 *
 * <p>Thread-safe: the reporter writes intervals while control threads write changes.
 */
public final class HlogWriter implements AutoCloseable {

    private final OutputFile file;
    private final HistogramLogWriter writer;
    /** The settings line, rendered when opened: JSON's first use costs class loading, kept off the run. */
    private final String settingsComment;
    private boolean started;
    private long startEpochMs;
    private boolean closed;

    /**
     * Opens (creates or truncates) the file; nothing is written until {@link #start}.
     *
     * @param settings  the run's settings, for the header
     * @param onFailure told once, with one line ({@code cannot write FILE: REASON}), when a write fails
     */
    public HlogWriter(Path path, Map<String, ?> settings, Consumer<String> onFailure) throws IOException {
        this(new OutputFile(path, onFailure), settings);
    }

    private HlogWriter(OutputFile file, Map<String, ?> settings) {
        this.settingsComment = HlogComments.run(settings);
        this.file = file;
        this.writer = new HistogramLogWriter(file.out());
        rehearse();
    }

    /**
     * A started log into nothing ({@link OutputFile#discarding()}), for the engine's warm-up: its intervals are
     * encoded and compressed as a real log's, so the JIT has compiled that before the run's clock starts.
     */
    public static HlogWriter discarding(Map<String, ?> settings) {
        HlogWriter w = new HlogWriter(OutputFile.discarding(), settings);
        w.start(System.currentTimeMillis());
        return w;
    }

    /**
     * Writes a header, an interval and a change into nothing, so that what they load on first use is loaded now,
     * before the run's op may hold every file descriptor: the JDK's time-zone file (the header prints its start time
     * as a {@link Date}) and, where classes come from a folder, each class file.
     */
    private static void rehearse() {
        HistogramLogWriter scratch = new HistogramLogWriter(OutputStream.nullOutputStream());
        scratch.outputStartTime(0);
        scratch.outputLegend();
        scratch.outputIntervalHistogram(new Histogram(3));
        scratch.outputComment(HlogComments.interval(new IntervalNote(0, 1, 1, 1, Map.of("e", 1L), "p", false, false,
                Map.of("o", new IntervalNote.OpCounts(1, Map.of("e", 1L))))));
        scratch.outputComment(HlogComments.change(new Change(0, 0, ChangeKind.RATE, "1", "api", "")));
        new Date(0).toString();
    }

    /** Writes the header: the run's settings, the format version and the start time (epoch ms). */
    public synchronized void start(long startEpochMs) {
        this.startEpochMs = startEpochMs;
        writer.outputComment(settingsComment);
        writer.outputLogFormatVersion();
        writer.outputStartTime(startEpochMs);
        writer.setBaseTime(startEpochMs);
        writer.outputLegend();
        started = true;
        flush();
    }

    /**
     * One interval: a histogram per metric, tagged, then each named op's (and a multi-step op's per step service
     * times, {@link dev.pacer.engine.api.OpTag#ofStep}), then its note (target, ops, errors, phase, each op's ops and
     * errors).
     */
    public synchronized void interval(IntervalReport r) {
        if (closed || !started) {
            return;
        }
        IntervalStats stats = r.stats();
        for (Metric m : Metric.values()) {
            writer.outputIntervalHistogram(stats.histogram(m));
        }
        for (int i = 0; i < stats.opNames().size(); i++) {
            for (Metric m : Metric.values()) {
                writer.outputIntervalHistogram(stats.op(i).histogram(m));
            }
            for (int k = 0; k < stats.op(i).steps(); k++) {
                writer.outputIntervalHistogram(stats.op(i).step(k));
            }
        }
        writer.outputComment(HlogComments.interval(note(r, startEpochMs)));
        flush();
    }

    /** The note of an interval in a log that started at {@code startEpochMs}. */
    static IntervalNote note(IntervalReport r, long startEpochMs) {
        IntervalStats stats = r.stats();
        Map<String, IntervalNote.OpCounts> perOp = new LinkedHashMap<>();
        for (int i = 0; i < stats.opNames().size(); i++) {
            perOp.put(stats.opNames().get(i), new IntervalNote.OpCounts(stats.op(i).ops(), errors(stats.op(i))));
        }
        var h = stats.histogram(Metric.RESPONSE);
        return new IntervalNote((h.getStartTimeStamp() - startEpochMs) / 1e3,
                (h.getEndTimeStamp() - startEpochMs) / 1e3, r.target() == null ? Double.NaN : r.targetRate(),
                stats.ops(), errors(stats), r.phase(), r.warmup(), r.drain(), perOp);
    }

    /** The error counts of {@code stats}, by label. */
    private static Map<String, Long> errors(IntervalStats stats) {
        Map<String, Long> errors = new LinkedHashMap<>();
        for (Map.Entry<Outcome, Long> e : stats.outcomes().entrySet()) {
            if (e.getKey().isError()) {
                errors.merge(e.getKey().label(), e.getValue(), Long::sum);
            }
        }
        return errors;
    }

    public synchronized void change(Change c) {
        if (!closed && started) {
            writer.outputComment(HlogComments.change(c));
            flush();
        }
    }

    /** True once a write has failed (nothing has been written since). */
    public synchronized boolean failed() {
        return file.failed();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            file.close();
        }
    }

    private void flush() {
        if (!file.flush()) {
            closed = true;
        }
    }
}
