package dev.pacer.engine.sink;

import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.text.OutputFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * One CSV row per interval, for spreadsheets and scripts ({@code pacer run --csv FILE} streams them as the
 * run goes; {@code pacer report --csv} prints the same rows from a log):
 * <pre>
 * start_s,end_s,phase,ops,errors,wait_p50_ns,wait_p90_ns,wait_p99_ns,wait_max_ns,service_p50_ns,...,response_max_ns
 * 0.000,1.000,,2000,0,12041,20863,81407,1204223,...
 * </pre>
 * Times are seconds since the run's start; latencies are nanoseconds; an empty interval has empty
 * latency cells. Fields are quoted as RFC 4180 says when they need it (a phase name with a comma).
 */
public final class IntervalCsv implements Consumer<IntervalReport>, AutoCloseable {

    private static final double[] PERCENTILES = {50, 90, 99};

    private final OutputFile file;

    /** Opens {@code path} and writes the header; a failed write is reported once to {@code onFailure}. */
    public IntervalCsv(Path path, Consumer<String> onFailure) throws IOException {
        this(new OutputFile(path, onFailure));
    }

    private IntervalCsv(OutputFile file) {
        this.file = file;
        file.out().println(header());
        file.flush();
    }

    /** Rows into nothing, for the engine's warm-up ({@link OutputFile#discarding()}). */
    public static IntervalCsv discarding() {
        return new IntervalCsv(OutputFile.discarding());
    }

    /** The header row. */
    public static String header() {
        StringBuilder b = new StringBuilder("start_s,end_s,phase,ops,errors");
        for (Metric m : Metric.values()) {
            for (double p : PERCENTILES) {
                b.append(',').append(m.tag()).append("_p").append((int) p).append("_ns");
            }
            b.append(',').append(m.tag()).append("_max_ns");
        }
        return b.toString();
    }

    /**
     * One row.
     *
     * @param phase     the phase's name, or null
     * @param histogram each metric's histogram in the interval (null when the source has none)
     */
    public static String row(double startSec, double endSec, String phase, long ops, long errors,
                             Function<Metric, Histogram> histogram) {
        StringBuilder b = new StringBuilder(160);
        b.append(String.format(Locale.ROOT, "%.3f,%.3f,", startSec, endSec)).append(quote(phase))
                .append(',').append(ops).append(',').append(errors);
        for (Metric m : Metric.values()) {
            Histogram h = histogram.apply(m);
            boolean empty = h == null || h.getTotalCount() == 0;
            for (double p : PERCENTILES) {
                b.append(',').append(empty ? "" : Long.toString(h.getValueAtPercentile(p)));
            }
            b.append(',').append(empty ? "" : Long.toString(h.getMaxValue()));
        }
        return b.toString();
    }

    /** Reporter thread: one interval. */
    @Override
    public synchronized void accept(IntervalReport r) {
        if (file.failed()) {
            return;
        }
        file.out().println(row(r.elapsedSec() - r.stats().seconds(), r.elapsedSec(), r.phase(), r.stats().ops(),
                r.stats().errors(), r.stats()::histogram));
        file.flush();
    }

    @Override
    public synchronized void close() {
        file.close();
    }

    private static String quote(String field) {
        if (field == null) {
            return "";
        }
        if (field.contains(",") || field.contains("\"") || field.contains("\n")) {
            return '"' + field.replace("\"", "\"\"") + '"';
        }
        return field;
    }
}
