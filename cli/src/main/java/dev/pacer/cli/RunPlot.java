package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import dev.pacer.report.Report;
import dev.pacer.report.ReportHtml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * The page {@code pacer run --plot} writes when the run finishes: {@code pacer report --plot} of the run's
 * {@code .hlog}, or of a temporary one when no {@code --hlog} was given (removed when this closes). A run's finish
 * listener writes it, so it is written before a signal lets the run end too; {@link #failed()} is read after the
 * run returned.
 */
final class RunPlot implements AutoCloseable {

    private static final DateTimeFormatter START =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private final Path page;
    private final Path log;
    /** The log made for the page alone, or null when it is the run's own {@code --hlog}. */
    private final Path tempLog;
    private final boolean quiet;
    /** Written by the finish listener's thread; read after the run returned. */
    private volatile boolean failed;

    private RunPlot(Path page, Path log, Path tempLog, boolean quiet) {
        this.page = page;
        this.log = log;
        this.tempLog = tempLog;
        this.quiet = quiet;
    }

    /** Makes {@code test} log to {@code hlog} (a temporary file when null) and write {@code page} when it finishes. */
    static RunPlot attach(LoadTest test, Path page, Path hlog, boolean quiet) throws IOException {
        Path temp = hlog == null ? Files.createTempFile("pacer-run", ".hlog") : null;
        RunPlot plot = new RunPlot(page, temp != null ? temp : hlog, temp, quiet);
        test.hlog(plot.log).onFinish(s -> plot.write());
        return plot;
    }

    /** Whether the page could not be written (the reason was printed); the run then fails. */
    boolean failed() {
        return failed;
    }

    private void write() {
        try {
            // a temp log's name means nothing to a reader: the page is named after the run and its start
            Report report = Report.of(List.of(log), null, null);
            String title = tempLog == null ? null : "pacer run " + START.format(
                    Instant.ofEpochMilli((long) (report.startSec() * 1000)));
            ReportHtml.write(List.of(report), title, page);
            if (!quiet) {
                System.err.println("pacer: wrote " + page);
            }
            if (tempLog != null) {
                Files.deleteIfExists(tempLog);
            }
        } catch (IOException e) {
            failed = true;
            System.err.println("pacer: could not write " + page + ": " + OutputFiles.why(e));
        } catch (RuntimeException e) {
            failed = true;
            System.err.println("pacer: could not write " + page + ": "
                    + PacerCommand.oneLine(String.valueOf(e.getMessage())));
        }
    }

    @Override
    public void close() throws IOException {
        if (tempLog != null) {
            Files.deleteIfExists(tempLog);
        }
    }
}
