package dev.pacer.cli;

import dev.pacer.engine.ActivityConfig;
import dev.pacer.engine.Durations;
import dev.pacer.engine.LoadRun;
import dev.pacer.engine.RunOptions;
import dev.pacer.engine.Summary;
import dev.pacer.engine.Threshold;
import dev.pacer.engine.control.ConsoleControl;
import dev.pacer.engine.control.ControlEndpoint;
import dev.pacer.engine.control.HttpControlServer;
import dev.pacer.engine.control.RunController;
import dev.pacer.engine.control.RunStatus;
import dev.pacer.engine.scenario.Scenario;
import dev.pacer.engine.scenario.ScenarioParser;
import dev.pacer.engine.scenario.ScenarioRunner;
import dev.pacer.engine.scenario.Scenarios;
import dev.pacer.engine.op.Op;
import dev.pacer.engine.op.OpSpec;
import dev.pacer.engine.op.Ops;
import dev.pacer.engine.report.HlogReader;
import dev.pacer.engine.report.Report;
import dev.pacer.engine.report.ReportHtml;
import dev.pacer.ratelimit.ParkingSleeper;
import dev.pacer.ratelimit.RateSpec;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pacer run}: a paced, multi-threaded load run with wait, service and response histograms. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "Runs an op from many threads at a target rate and reports wait (scheduled -> start),",
                "service (start -> end) and response (scheduled -> end) time histograms.",
                "",
                "Examples:",
                "  pacer run --rate 1000 --duration 10s",
                "  pacer run --rate 5000 --threads 16 --duration 30s --op sleep:2ms",
                "  pacer run --rate 1M,0.5 --threads 2 --cycles 20M --op noop --hlog run.hlog --summary run.json",
                "  pacer run --rate 20000 --duration 60s --op http --url http://127.0.0.1:8080/ --virtual --threads 500",
                "  pacer run scenarios/stepped.yaml",
                "  pacer run --scenario ramp-to-knee",
                "",
                "While it runs, type commands into its terminal: rate 8000 | rate 8000,0.5 | strictness 1 |",
                "threads 32 | pause | resume | status | stop  (or use --control and 'pacer control').",
                ""})
final class RunCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-r", "--rate"}, paramLabel = "RATE[,STRICTNESS]", converter = Converters.Rate.class,
            description = {"Target ops/s: 1000, 2.5k, 1.5M; optional strictness after a comma:",
                    "0 average (default), 0..1 burst compensation, 1 strict, >1 burst allowance (1.1 = up to 110 %%).",
                    "Without --rate the run is unpaced (as fast as the threads go)."})
    RateSpec rate;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", description = "Worker threads (default: 1, or the scenario's).")
    Integer threads;

    @Option(names = "--virtual", description = "Run workers as virtual threads (thousands of concurrent clients are cheap).")
    boolean virtual;

    @Option(names = {"-d", "--duration"}, paramLabel = "DURATION", converter = Converters.PositiveDuration.class,
            description = "Stop after this long: 500ms, 30s, 5m, 1h.")
    Duration duration;

    @Option(names = {"-n", "--cycles"}, paramLabel = "COUNT", converter = Converters.Count.class,
            description = {"Stop after this many ops: 20000, 20k, 20M.",
                    "With --duration, whichever comes first; with neither, the run goes until Ctrl-C."})
    Long cycles;

    @Option(names = "--op", paramLabel = "OP",
            description = {"The operation (default: noop, or the scenario's): noop, sleep:2ms, sleep:uniform(1ms,5ms),",
                    "sleep:exp(2ms), cpu:50us, http (with --url ...), or any op on the class path (see: pacer ops)."})
    String op;

    @CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO.yaml",
            description = "Run a scenario file: timed phases of rates (see: pacer scenarios).")
    Path scenarioFile;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Run a built-in scenario by name (see: pacer scenarios). Flags given here override the file's.")
    String scenarioName;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s", converter = Converters.PositiveDuration.class,
            description = "Reporting interval: progress lines and .hlog intervals (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--hlog", paramLabel = "FILE",
            description = "Write an interval histogram log (HdrHistogram .hlog; tags wait, service, response).")
    Path hlog;

    @Option(names = "--summary", paramLabel = "FILE.json", description = "Write the summary as JSON.")
    Path summary;

    @Option(names = "--plot", paramLabel = "FILE.html",
            description = "At the end, write the page 'pacer report --plot' makes of this run's .hlog.")
    Path plot;

    @Option(names = "--threshold", paramLabel = "GATE",
            description = {"A pass/fail gate, repeatable: 'response.p99<20ms', 'achieved>=0.99*target', 'errors<0.1%%'.",
                    "A failed gate makes the exit code 1."})
    List<String> thresholds = new ArrayList<>();

    @Option(names = "--max-error-ratio", paramLabel = "RATIO", defaultValue = "0.01",
            description = "The run fails (exit 1) when errors/ops is over this (default: ${DEFAULT-VALUE}).")
    double maxErrorRatio;

    @Option(names = "--control", paramLabel = "[HOST:]PORT",
            description = {"Open the HTTP control endpoint: GET /status; POST /rate /strictness /threads /pause /resume /stop.",
                    "Binds 127.0.0.1 unless HOST says otherwise; a non-loopback HOST requires a token."})
    String control;

    @Option(names = "--control-token", paramLabel = "TOKEN",
            description = "Bearer token the control endpoint requires (default: $PACER_CONTROL_TOKEN).")
    String controlToken;

    @Option(names = "--no-console", description = "Do not read commands (rate 8000, threads 32, status, stop, ...) from stdin.")
    boolean noConsole;

    @CommandLine.Mixin
    HttpOptions http = new HttpOptions();

    @Option(names = {"-q", "--quiet"}, description = "No progress lines.")
    boolean quiet;

    @Option(names = "--progress", description = "Progress lines even when stderr is not a terminal.")
    boolean progress;

    @Override
    public Integer call() throws Exception {
        Scenario scenario = scenario();
        ActivityConfig activity;
        if (scenario == null) {
            activity = new ActivityConfig(OpSpec.parse(op == null ? "noop" : op, opOptions()),
                    threads == null ? 1 : threads, virtual, rate, duration, cycles == null ? 0 : cycles);
        } else {
            if (rate != null) {
                throw new IllegalArgumentException("--rate cannot be combined with a scenario: its phases set the rate");
            }
            Map<String, List<String>> options = new LinkedHashMap<>(scenario.opOptions());
            options.putAll(opOptions());
            String opText = op != null ? op : scenario.op() != null ? scenario.op() : "noop";
            activity = new ActivityConfig(OpSpec.parse(opText, options),
                    threads != null ? threads : ScenarioRunner.initialThreads(scenario, 1), virtual,
                    ScenarioRunner.initialRate(scenario), ScenarioRunner.runDuration(scenario, duration),
                    cycles == null ? 0 : cycles);
        }
        List<Threshold> gates = new ArrayList<>();
        for (String t : thresholds) {
            gates.add(Threshold.parse(t));
        }
        checkWritable(hlog, "--hlog");
        checkWritable(summary, "--summary");
        checkWritable(plot, "--plot");
        Path log = hlog;
        Path tempLog = null;
        if (plot != null && log == null) {
            tempLog = Files.createTempFile("pacer-run", ".hlog");
            log = tempLog;
        }
        ControlEndpoint endpoint = control == null ? null : ControlEndpoint.parse(control);
        String envToken = System.getenv("PACER_CONTROL_TOKEN");
        String token = controlToken != null ? controlToken : envToken == null || envToken.isBlank() ? null : envToken;
        RunOptions options = new RunOptions(activity, interval, log, summary,
                !quiet && (progress || Terminal.stderrIsTerminal()), gates, maxErrorRatio);

        PrintStream out = System.out;
        PrintStream err = System.err;
        try (Op theOp = Ops.create(activity.op())) {
            LoadRun run = new LoadRun(options, theOp, out, err);
            Thread hook = new Thread(() -> {
                run.requestStop("signal", "signal");
                try {
                    run.awaitFinished(30, TimeUnit.SECONDS); // the summary and logs get written, then the JVM exits
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "pacer-shutdown");
            RunController controller = new RunController(run, new RunStatus(run.activity()));
            run.addIntervalListener(controller.status());
            try (HttpControlServer server = endpoint == null ? null : HttpControlServer.start(endpoint, token, controller)) {
                if (scenario != null) {
                    new ScenarioRunner(scenario, run).start();
                }
                if (!quiet) {
                    err.println(header(activity));
                    if (scenario != null) {
                        Duration runs = ScenarioRunner.runDuration(scenario, duration);
                        err.println("pacer: " + ScenarioRunner.describe(scenario)
                                + (runs.equals(scenario.totalDuration()) ? ""
                                        : ", cut to " + Durations.format(runs) + " by --duration"));
                    }
                    if (server != null) {
                        err.println("pacer: control endpoint http://" + server.address().getHostString() + ":"
                                + server.address().getPort() + " (GET /status; POST /rate /strictness /threads /pause /resume /stop)");
                    }
                }
                if (!noConsole && Terminal.stdinIsReadable()) {
                    new ConsoleControl(controller, System.in, err).start();
                }
                Runtime.getRuntime().addShutdownHook(hook);
                Summary result = run.run();
                if (plot != null) {
                    ReportHtml.write(Report.of(List.of(HlogReader.read(log)), null, null), plot);
                    if (!quiet) {
                        err.println("pacer: wrote " + plot);
                    }
                }
                return result.passed() ? PacerCommand.EXIT_OK : PacerCommand.EXIT_FAILED;
            }
        } finally {
            if (tempLog != null) {
                Files.deleteIfExists(tempLog);
            }
        }
    }

    /** The scenario named by file or --scenario, parsed and validated, or null. */
    private Scenario scenario() throws java.io.IOException {
        if (scenarioFile != null && scenarioName != null) {
            throw new IllegalArgumentException("give a scenario file or --scenario NAME, not both");
        }
        if (scenarioName != null) {
            return Scenarios.named(scenarioName);
        }
        if (scenarioFile == null) {
            return null;
        }
        if (!Files.isRegularFile(scenarioFile)) {
            throw new IllegalArgumentException("scenario file '" + scenarioFile + "' does not exist"
                    + (scenarioFile.toString().contains("/") || scenarioFile.toString().endsWith(".yaml") ? ""
                    : "; to run a built-in scenario, use --scenario " + scenarioFile));
        }
        return ScenarioParser.parse(scenarioFile);
    }

    /** Named options for ops that take flags of their own (the http op's). */
    Map<String, List<String>> opOptions() {
        return http.toOptions();
    }

    private static String header(ActivityConfig a) {
        StringBuilder b = new StringBuilder("pacer: ").append(a.op()).append(", ").append(a.threads())
                .append(a.virtualThreads() ? " virtual" : "").append(a.threads() == 1 ? " thread" : " threads");
        if (a.rate() != null) {
            b.append(", rate ").append(a.rate())
                    .append(", park threshold ")
                    .append(Durations.format((double) ParkingSleeper.calibrated().parkThresholdNanos()));
        } else {
            b.append(", unpaced");
        }
        if (a.duration() != null) {
            b.append(", for ").append(Durations.format(a.duration()));
        }
        if (a.cycles() > 0) {
            b.append(", ").append(a.cycles()).append(" cycles");
        }
        if (a.duration() == null && a.cycles() == 0) {
            b.append(", until Ctrl-C");
        }
        return b.toString();
    }

    private static void checkWritable(Path file, String option) {
        if (file == null) {
            return;
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new IllegalArgumentException("invalid " + option + " '" + file + "': the folder " + parent + " does not exist");
        }
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException("invalid " + option + " '" + file + "': is a folder");
        }
        if (!Files.isWritable(parent)) {
            throw new IllegalArgumentException("invalid " + option + " '" + file + "': cannot write in " + parent);
        }
    }
}
