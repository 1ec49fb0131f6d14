package dev.pacer.engine.output;

import dev.pacer.engine.Change;
import dev.pacer.engine.IntervalReport;
import dev.pacer.engine.metrics.Metric;
import java.io.FileNotFoundException;
import java.io.PrintStream;
import java.nio.file.Path;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The interval histogram log ({@code --hlog}): HdrHistogram's own format, written with
 * {@link HistogramLogWriter}, one tagged histogram per metric per interval ({@code wait},
 * {@code service}, {@code response}), readable by {@code HistogramLogReader} and
 * {@code HistogramLogProcessor}. Changes and phases are written as {@code #} comment lines:
 * <pre>#[pacer change] rate 8000,0 (console) at 12.345s</pre>
 *
 * <p>Thread-safe: the reporter writes intervals while control threads write change comments.
 */
public final class HlogSink implements AutoCloseable {

    /** Prefix of comment lines that record a change; {@code pacer report} reads them back. */
    public static final String CHANGE_PREFIX = "[pacer change] ";

    private final PrintStream out;
    private final HistogramLogWriter writer;
    private boolean closed;

    public HlogSink(Path file, long startEpochMs, String description) throws FileNotFoundException {
        this.out = new PrintStream(file.toFile());
        this.writer = new HistogramLogWriter(out);
        writer.outputComment("pacer " + description);
        writer.outputLogFormatVersion();
        writer.outputStartTime(startEpochMs);
        writer.setBaseTime(startEpochMs);
        writer.outputLegend();
        out.flush();
    }

    public synchronized void interval(IntervalReport report) {
        if (closed) {
            return;
        }
        for (Metric m : Metric.values()) {
            writer.outputIntervalHistogram(report.stats().histogram(m));
        }
        out.flush();
    }

    public synchronized void change(Change c) {
        if (!closed) {
            writer.outputComment(CHANGE_PREFIX + c.describe());
            out.flush();
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            out.flush();
            out.close();
        }
    }
}
