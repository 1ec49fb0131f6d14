package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.StandardStreams;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The flags of {@code pacer run} that say what it reports, how often, and to which files. */
final class OutputOptions {

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s",
            converter = Converters.PositiveDuration.class,
            description = "Reporting interval: progress lines and .hlog intervals (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--hlog", paramLabel = "FILE",
            description = "Write an interval histogram log (HdrHistogram .hlog; tags wait, service, response).")
    Path hlog;

    @Option(names = "--summary", paramLabel = "FILE.json", description = "Write the summary as JSON.")
    Path summary;

    @Option(names = "--csv", paramLabel = "FILE.csv",
            description = "Stream one CSV row per interval: start, end, phase, ops, errors, per metric p50/p90/p99/max"
                    + " (ns).")
    Path csv;

    @Option(names = "--plot", paramLabel = "FILE.html",
            description = "At the end, write the page 'pacer report --plot' makes of this run's .hlog.")
    Path plot;

    @Option(names = {"-q", "--quiet"}, description = "No progress lines.")
    boolean quiet;

    @Option(names = "--progress", description = "Progress lines even when stderr is not a terminal.")
    boolean progress;

    /**
     * Refuses output files that cannot be written, that two flags name, or that are one of {@code inputs}
     * (each file the run reads and what it is to the reader), before anything runs.
     */
    void check(Map<Path, String> inputs) {
        Map<String, Path> outputs = new LinkedHashMap<>();
        outputs.put("--hlog", hlog);
        outputs.put("--summary", summary);
        outputs.put("--plot", plot);
        outputs.put("--csv", csv);
        OutputFiles.check(outputs, inputs);
    }

    /**
     * Sets the interval, the files and the text on stdout and stderr (progress lines off a terminal only if asked).
     * When a file flag names standard output ({@code --summary /dev/stdout | jq}), the summary's text goes to stderr,
     * so that stdout carries only what the flag asked for.
     */
    void applyTo(LoadTest test) {
        test.interval(interval).hlog(hlog).summaryJson(summary).csv(csv).output(summaryText(), System.err)
                .announce(!quiet).progress(!quiet && (progress || Terminal.stderrIsTerminal()));
    }

    /** Where the summary's text is printed: stdout, unless an output flag writes there. */
    PrintStream summaryText() {
        for (Path p : new Path[] {hlog, summary, csv, plot}) {
            if (p != null && StandardStreams.isOutput(p)) {
                return System.err;
            }
        }
        return System.out;
    }

    /** The {@code --plot} page, set to be written when the run finishes; null without {@code --plot}. */
    RunPlot plot(LoadTest test) throws IOException {
        return plot == null ? null : RunPlot.attach(test, plot, hlog, quiet);
    }
}
