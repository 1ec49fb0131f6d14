package dev.pacer.cli;

import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.ScenarioCatalog;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.WorkloadFiles;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The flags of {@code pacer run} that make it a scenario: a file (or a workload file in its place), a built-in
 * scenario, or a knee search.
 */
final class ScenarioOptions {

    @CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "FILE.yaml",
            description = {"Run a scenario file (timed phases of rates, see: pacer scenarios), or a workload file",
                    "(a mix of requests with generated data and checks, at --rate: see docs/workloads.md)."})
    Path file;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Run a built-in scenario by name (see: pacer scenarios), or a scenario file. Flags given"
                    + " here override the file's.")
    String name;

    @Option(names = "--search", paramLabel = "SLO",
            description = {"Find the knee: the highest rate from --from to --to that meets the SLO (gates joined by"
                    + " 'and',", "e.g. 'response.p99<20ms and errors<1%%'), probing each rate for --hold; the run ends"
                    + " when it is found."})
    String search;

    @Option(names = "--from", paramLabel = "RATE", converter = Converters.Rate.class,
            description = "A search's first rate (default 100).")
    RateSpec searchFrom;

    @Option(names = "--to", paramLabel = "RATE", converter = Converters.Rate.class,
            description = "A search's highest rate (default 1M).")
    RateSpec searchTo;

    @Option(names = "--hold", paramLabel = "DURATION", converter = Converters.PositiveDuration.class,
            description = "How long a search holds each rate; the first fifth settles, the rest is judged"
                    + " (default 10s).")
    Duration hold;

    @Option(names = "--precision", paramLabel = "FRACTION",
            description = "A search ends when its bracket is this narrow, relative: 2%% or 0.02 (the default).")
    String precision;

    /** The positional file when it is a workload (it has top-level ops), else null; set by {@link #scenario}. */
    private Path workloadFile;

    /**
     * The scenario named by file, {@code --scenario} or {@code --search}, parsed and validated, or null (no
     * scenario, or a workload file: see {@link #workloadFile()}).
     *
     * @param interval the reporting interval, which a search's probes must outlast
     * @param shard    {@code --shard} as given, or null: a search cannot run as a shard
     */
    Scenario scenario(Duration interval, String shard) throws IOException {
        if (file != null && name != null) {
            throw new IllegalArgumentException("give a scenario file or --scenario NAME, not both");
        }
        if (name != null && name.isBlank()) { // an empty path is the working folder, which no one means
            throw new IllegalArgumentException("invalid --scenario '" + name + "': expected a built-in scenario's name "
                    + "(pacer scenarios lists them) or a scenario file");
        }
        if (name != null && !ScenarioCatalog.builtIn().containsKey(name) && exists(name)) {
            file = Path.of(name); // a path where a name goes: run it (or refuse it) as the file it is
            name = null;
        }
        if (search != null) {
            return search(interval, shard);
        }
        if (searchFrom != null || searchTo != null || hold != null || precision != null) {
            throw new IllegalArgumentException("--from, --to, --hold and --precision go with --search");
        }
        if (name != null) {
            return ScenarioCatalog.named(name);
        }
        if (file == null) {
            return null;
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException("invalid scenario file '" + file + "': is a folder");
        }
        if (!Files.exists(file)) {
            throw new IllegalArgumentException("scenario file '" + file + "' does not exist"
                    + (file.toString().contains("/") || file.toString().endsWith(".yaml") ? ""
                    : "; to run a built-in scenario, use --scenario " + file));
        }
        if (!Files.isRegularFile(file)) { // it is read more than once: a pipe would give its text to the first only
            throw new IllegalArgumentException("invalid scenario file '" + file + "': not a regular file (a device, "
                    + "pipe or socket); save it to a file first");
        }
        if (WorkloadFiles.isWorkload(file)) {
            workloadFile = file;
            return null;
        }
        return ScenarioCatalog.read(file);
    }

    private static boolean exists(String name) {
        try {
            return Files.exists(Path.of(name));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    /** The workload file given in place of a scenario file, once {@link #scenario} has looked; else null. */
    Path workloadFile() {
        return workloadFile;
    }

    private Scenario search(Duration interval, String shard) {
        if (name != null || file != null) {
            throw new IllegalArgumentException("--search runs a search of its own; put it in the scenario as a"
                    + " 'search:' phase instead");
        }
        if (shard != null) {
            throw new IllegalArgumentException("--search cannot run as a shard (--shard " + shard + "): each shard"
                    + " would judge its share of every probe alone; run the search in one process");
        }
        Duration least = interval.multipliedBy(5).dividedBy(4);
        if (hold != null && hold.compareTo(least) < 0) {
            throw new SettingException("hold", Durations.format(hold), "a probe is judged on the reporting"
                    + " intervals after its first fifth: give at least 1.25 x ${interval} ("
                    + Durations.format(least) + ")");
        }
        if (hold == null && Duration.ofSeconds(10).compareTo(least) < 0) {
            throw new SettingException("interval", Durations.format(interval), "is too long for"
                    + " a search's probes of 10s (${hold}): a probe is judged on the reporting intervals after its"
                    + " first fifth; give a longer ${hold}");
        }
        return ScenarioCatalog.search(search, searchFrom == null ? 100 : searchFrom.opsPerSecond(),
                searchTo == null ? 1e6 : searchTo.opsPerSecond(), hold == null ? Duration.ofSeconds(10) : hold,
                precision == null ? 0.02 : ScenarioCatalog.precision(precision));
    }
}
