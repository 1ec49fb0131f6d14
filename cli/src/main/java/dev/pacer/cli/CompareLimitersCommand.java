package dev.pacer.cli;

import dev.pacer.engine.LimiterComparison;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.report.Report;
import dev.pacer.report.ReportHtml;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pacer compare-limiters}: the same stalling workload under each limiter design, side by side. */
@Command(name = "compare-limiters", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the same workload under each limiter design, one after another, and prints side by side "
                + "what each let through.",
                "Each: achieved rate, burst peak (most ops in any 10 ms), ops forfeited, refusals and wait "
                        + "percentiles. The op is a no-op that stalls every --stall-every for --stall (a server's "
                        + "hiccup)."})
final class CompareLimitersCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--rate", paramLabel = "OPS_PER_S", defaultValue = "2000", converter = Converters.Rate.class,
            description = "The target rate (default: ${DEFAULT-VALUE}).")
    RateSpec rate;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", defaultValue = "8", description = "Worker threads (default: "
            + "${DEFAULT-VALUE}).")
    int threads;

    @Option(names = {"-d", "--duration"}, paramLabel = "DURATION", defaultValue = "10s",
            converter = Converters.PositiveDuration.class,
            description = "How long each design runs (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--stall", paramLabel = "DURATION", defaultValue = "200ms",
            converter = Converters.NonNegativeDuration.class,
            description = "How long each stall of the op lasts; 0 for none (default: ${DEFAULT-VALUE}).")
    Duration stall;

    @Option(names = "--stall-every", paramLabel = "DURATION", defaultValue = "2s",
            converter = Converters.PositiveDuration.class,
            description = "How often the op stalls (default: ${DEFAULT-VALUE}).")
    Duration stallEvery;

    @Option(names = "--limiter", paramLabel = "NAME[:KEY=VALUE,...]", converter = Converters.LimiterName.class,
            description = "A design to compare; repeat for several (default: every design with its default options).")
    List<LimiterDesign> limiters = new ArrayList<>();

    @Option(names = "--dir", paramLabel = "DIR", description = "Where each design's interval log is written (default: "
            + "a new temporary folder).")
    Path dir;

    @Option(names = "--plot", paramLabel = "FILE", description = "Also write a page charting every design's achieved "
            + "rate (and wait) together.")
    Path plot;

    @Override
    public Integer call() throws Exception {
        // every check before the first design runs: a comparison takes designs x duration
        if (rate.strictness() != RateSpec.DEFAULT_STRICTNESS) {
            throw new IllegalArgumentException("--rate '" + rate + "': give the rate alone; strictness is the atomic "
                    + "limiter's,"
                    + " and the comparison runs every design at its defaults");
        }
        int maxThreads = LimiterComparison.maxThreads();
        if (threads < 1 || threads > maxThreads) {
            throw new SettingException("threads", Integer.toString(threads), "must be between 1 and " + maxThreads);
        }
        List<LimiterDesign> designs = limiters.isEmpty() ? LimiterComparison.Settings.defaults().designs() : limiters;
        try {
            LimiterComparison.Settings.checkDesigns(designs, rate.opsPerSecond());
        } catch (SettingException e) {
            if (!limiters.isEmpty()) {
                throw e; // invalid --limiter 'D': at R ops/s: why
            }
            throw new SettingException("rate",
                    java.math.BigDecimal.valueOf(rate.opsPerSecond()).stripTrailingZeros().toPlainString(),
                    "the default designs include " + e.value() + ", which cannot run " + e.reason());
        }
        LimiterComparison.Settings settings = new LimiterComparison.Settings(rate.opsPerSecond(), threads, duration,
                stallEvery,
                stall, Duration.ofMillis(100), designs);
        Map<String, Path> outputs = new LinkedHashMap<>();
        outputs.put("--plot", plot);
        OutputFiles.check(outputs);
        Path logs = dir != null ? logFolder(dir) : Files.createTempDirectory("pacer-compare-");
        for (Path log : LimiterComparison.logFiles(designs, logs)) {
            outputs.put("--dir", log); // each log can be written, and --plot is none of them
            OutputFiles.check(outputs);
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        err.printf(Locale.ROOT, "compare-limiters: %d designs, %s each; logs in %s%n", settings.designs().size(),
                dev.pacer.engine.api.Durations.format(duration), logs);
        err.flush();
        List<LimiterComparison.Row> rows = LimiterComparison.run(settings, logs, row -> {
            err.printf(Locale.ROOT, "  %s: %d ops%n", row.design(), row.ops());
            err.flush();
        });
        out.print(LimiterComparison.table(settings, rows));
        out.flush();
        if (plot != null) {
            List<Report> reports = new ArrayList<>();
            for (LimiterComparison.Row r : rows) {
                reports.add(Report.of(List.of(r.hlog()), null, null));
            }
            ReportHtml.write(reports, "limiters compared", rows.stream().map(LimiterComparison.Row::design).toList(),
                    plot);
            err.println("compare-limiters: page written to " + plot);
            err.flush();
        }
        return PacerCommand.EXIT_OK;
    }

    /** The --dir folder, made if it is missing; refused (one line naming it) when it cannot hold the logs. */
    private static Path logFolder(Path dir) {
        String bad = "invalid --dir '" + dir + "': ";
        if (dir.toString().isBlank()) {
            throw new IllegalArgumentException(bad + "give a folder for the logs (. for this one)");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(bad + "is not a folder");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException(bad + "cannot make the folder (" + OutputFiles.why(e) + ")");
        }
        return dir;
    }
}
