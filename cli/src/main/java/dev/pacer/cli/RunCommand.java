package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.event.StopReason;
import dev.pacer.engine.result.Summary;
import dev.pacer.engine.scenario.RatePlan;
import dev.pacer.engine.scenario.Scenario;
import dev.pacer.engine.scenario.ScenarioException;
import dev.pacer.engine.scenario.ScenarioParser;
import dev.pacer.engine.scenario.Scenarios;
import dev.pacer.engine.op.OpSpec;
import dev.pacer.engine.workload.SqlWorkloadParser;
import dev.pacer.engine.workload.WorkloadParser;
import dev.pacer.engine.run.Shard;
import dev.pacer.engine.text.Durations;
import dev.pacer.engine.text.SettingException;
import dev.pacer.report.Report;
import dev.pacer.report.ReportHtml;
import dev.pacer.ratelimit.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.RateSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
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

    @CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "FILE.yaml",
            description = {"Run a scenario file (timed phases of rates, see: pacer scenarios), or a workload file",
                    "(a mix of requests with generated data and checks, at --rate: see docs/workloads.md)."})
    Path scenarioFile;

    @Option(names = "--var", paramLabel = "NAME=VALUE",
            description = "A workload file's var, overriding the file's value (repeatable).")
    List<String> vars = new ArrayList<>();

    @Option(names = "--workload", paramLabel = "NAME|FILE",
            description = {"A SQL workload against PostgreSQL (with --url postgresql://user:password@host:port/db):",
                    "tpcb-like, simple-update or select-only (pgbench's scripts, on its tables: pacer pg-init), or a",
                    "file with 'driver: postgres'; -c sets the connections (default 8). See docs/postgres.md."})
    String sqlWorkload;

    /** The positional file when it is a workload (it has top-level ops), else null. */
    private Path workloadFile;

    @Option(names = "--scenario", paramLabel = "NAME",
            description = "Run a built-in scenario by name (see: pacer scenarios). Flags given here override the file's.")
    String scenarioName;

    @Option(names = "--max-in-flight", paramLabel = "N",
            description = {"Asynchronous ops (http): the most in flight at once; a slot that finds none free waits,",
                    "and that is wait time (default: the op's own bound, e.g. --connections)."})
    Integer maxInFlight;

    @Option(names = "--search", paramLabel = "SLO",
            description = {"Find the knee: the highest rate from --from to --to that meets the SLO (gates joined by 'and',",
                    "e.g. 'response.p99<20ms and errors<1%%'), probing each rate for --hold; the run ends when it is found."})
    String search;

    @Option(names = "--from", paramLabel = "RATE", converter = Converters.Rate.class, description = "A search's first rate (default 100).")
    RateSpec searchFrom;

    @Option(names = "--to", paramLabel = "RATE", converter = Converters.Rate.class, description = "A search's highest rate (default 1M).")
    RateSpec searchTo;

    @Option(names = "--hold", paramLabel = "DURATION", converter = Converters.PositiveDuration.class,
            description = "How long a search holds each rate; the first fifth settles, the rest is judged (default 10s).")
    Duration hold;

    @Option(names = "--precision", paramLabel = "FRACTION",
            description = "A search ends when its bracket is this narrow, relative: 2%% or 0.02 (the default).")
    String precision;

    @Option(names = "--shard", paramLabel = "I/N",
            description = {"Run as shard I of N processes making one test: every rate given is the test's global rate and",
                    "this process runs 1/N of it, its slots interleaved with the others'; /N takes I from $JOB_COMPLETION_INDEX."})
    String shard;

    @Option(names = "--start-at", paramLabel = "INSTANT",
            description = "Start the schedule at this UTC instant (2026-12-01T10:00:00Z), so shards start together; late: catch up.")
    String startAt;

    @Option(names = "--arrivals", paramLabel = "uniform|poisson", converter = Converters.ArrivalsName.class,
            description = {"How ops arrive at the target rate: uniform (a metronome, the default) or poisson (each gap",
                    "drawn from an exponential distribution with the same mean, as open traffic arrives)."})
    Arrivals arrivals;

    @Option(names = "--limiter", paramLabel = "NAME[:KEY=VALUE,...]", converter = Converters.LimiterName.class,
            description = {"The limiter design that paces the run (default: atomic, pacer's lock-free limiter): "
                    + "${COMPLETION-CANDIDATES}.",
                    "The others model limiters from the field, e.g. leaky:queue=10, warmup:period=10s; see the README."},
            completionCandidates = Converters.LimiterNames.class)
    LimiterDesign limiter;

    @Option(names = "--bytes-rate", paramLabel = "BYTES_PER_S",
            description = {"With the bucket limiter: a second bucket for bytes, filled at this rate (10M = 10 MB/s);",
                    "each op is charged its size (http: the request's) before it starts."})
    String bytesRate;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the Poisson arrivals' generators: the same seed gives the same gaps; each --shard"
                    + " mixes its index in (default: random).")
    Long seed;

    @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "10s", converter = Converters.NonNegativeDuration.class,
            description = {"How long ops in flight when the run ends (its duration, Ctrl-C, stop) may take to finish;",
                    "those still running are then counted as cancelled (default: ${DEFAULT-VALUE}). A second Ctrl-C ends it at once."})
    Duration grace;

    @Option(names = "--engine-warm-up", paramLabel = "DURATION", defaultValue = "1500ms",
            converter = Converters.NonNegativeDuration.class,
            description = {"Before the clock starts, run the engine's per-op code off the record (a stand-in op, nothing",
                    "sent) until the JIT has compiled it, at most this long (default: ${DEFAULT-VALUE}); 0 for none."})
    Duration engineWarmUp;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s", converter = Converters.PositiveDuration.class,
            description = "Reporting interval: progress lines and .hlog intervals (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--hlog", paramLabel = "FILE",
            description = "Write an interval histogram log (HdrHistogram .hlog; tags wait, service, response).")
    Path hlog;

    @Option(names = "--summary", paramLabel = "FILE.json", description = "Write the summary as JSON.")
    Path summary;

    @Option(names = "--csv", paramLabel = "FILE.csv",
            description = "Stream one CSV row per interval: start, end, phase, ops, errors, per metric p50/p90/p99/max (ns).")
    Path csv;

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
                    "GET / is a live web console of the run (charts and controls, docs/console.md).",
                    "Binds 127.0.0.1 unless HOST says otherwise; a non-loopback HOST requires a token."})
    String control;

    @Option(names = "--metrics", paramLabel = "[HOST:]PORT",
            description = {"Serve Prometheus metrics at http://HOST:PORT/metrics: wait/service/response histograms, ops",
                    "by outcome, target and achieved rate, threads, in flight, the limiter. Loopback unless HOST",
                    "says otherwise; then it requires the control token too."})
    String metrics;

    @Option(names = "--control-token", paramLabel = "TOKEN",
            description = "Bearer token the control endpoint requires (default: $PACER_CONTROL_TOKEN).")
    String controlToken;

    @Option(names = "--no-console", description = "Do not read commands (rate 8000, threads 32, status, stop, ...) from stdin.")
    boolean noConsole;

    @CommandLine.Mixin
    HttpOptions http = new HttpOptions();

    /** Set by the run's finish listener when the --plot page could not be written; read after the run returned. */
    private volatile boolean plotFailed;

    @Option(names = {"-q", "--quiet"}, description = "No progress lines.")
    boolean quiet;

    @Option(names = "--progress", description = "Progress lines even when stderr is not a terminal.")
    boolean progress;

    @Override
    public Integer call() throws Exception {
        Scenario scenario = scenario();
        LoadTest test = blamingTheFile(scenario, () -> loadTest(scenario));
        test.interval(interval).engineWarmUp(engineWarmUp).grace(grace).hlog(hlog).summaryJson(summary).csv(csv).maxErrorRatio(maxErrorRatio)
                .output(System.out, System.err).announce(!quiet).progress(!quiet && (progress || Terminal.stderrIsTerminal()))
                .handleSignals(true);
        for (String t : thresholds) {
            test.threshold(t);
        }
        Map<String, Path> outputs = new LinkedHashMap<>();
        outputs.put("--hlog", hlog);
        outputs.put("--summary", summary);
        outputs.put("--plot", plot);
        outputs.put("--csv", csv);
        Map<Path, String> inputs = new LinkedHashMap<>();
        if (scenarioFile != null) {
            inputs.put(scenarioFile, "the scenario file");
        }
        Path bodyFile = bodyFile(scenario);
        if (bodyFile != null) {
            inputs.putIfAbsent(bodyFile, "the file --body sends");
        }
        OutputFiles.check(outputs, inputs);
        if (controlToken != null && control == null && metrics == null) {
            throw new IllegalArgumentException("--control-token protects the control and metrics endpoints: give --control or --metrics too");
        }
        String envToken = System.getenv("PACER_CONTROL_TOKEN");
        String token = controlToken != null ? controlToken : envToken == null || envToken.isBlank() ? null : envToken;
        test.token(token);
        if (control != null) {
            test.control(control, token);
        }
        if (metrics != null) {
            test.metrics(metrics);
        }
        boolean live = !quiet && !noConsole && Terminal.isInteractive();
        if (!live && !noConsole && Terminal.stdinIsReadable()) {
            test.console(System.in);
        }
        Path tempLog = plot != null && hlog == null ? Files.createTempFile("pacer-run", ".hlog") : null;
        try {
            if (plot != null) {
                // a finish listener runs before a signal lets the run end, so the page is written then too
                Path log = tempLog != null ? tempLog : hlog;
                test.hlog(log).onFinish(s -> writePlot(log, tempLog));
            }
            Summary result = live ? runLive(test, scenario) : blamingTheFile(scenario, test::run).summary();
            if (result.stopReason() == StopReason.SIGNAL) {
                return PacerCommand.exitStatusOfSignal(result.stoppedBy());
            }
            return result.passed() && !plotFailed ? PacerCommand.EXIT_OK : PacerCommand.EXIT_FAILED;
        } finally {
            if (tempLog != null) {
                Files.deleteIfExists(tempLog);
            }
        }
    }

    /** On a terminal: the live view while it runs, then the summary. */
    private Summary runLive(LoadTest test, Scenario scenario) throws Exception {
        String summaryText;
        LoadTest.Result result;
        try (LiveConsole console = LiveConsole.open()) {
            console.attach(test);
            LoadTest.Running running = blamingTheFile(scenario, test::start);
            summaryText = console.interact(running);
            result = running.await();
        }
        System.out.print(summaryText);
        System.out.flush();
        return result.summary();
    }

    /** {@code design} (a bucket, or none: then a bucket) with a bytes bucket at {@code rate}. */
    private static LimiterDesign withBytesRate(LimiterDesign design, String rate) {
        if (rate.isBlank()) {
            throw new SettingException("bytes-rate", rate, "expected bytes per second, e.g. 10M");
        }
        if (design != null && !design.name().equals("bucket")) {
            throw new SettingException("bytes-rate", rate, "needs the bucket limiter, not " + design.name());
        }
        if (design != null && design.options().containsKey("bytes-rate")) {
            throw new SettingException("bytes-rate", rate, "and the limiter's own bytes-rate="
                    + design.options().get("bytes-rate") + " are two rates for one bucket: give one");
        }
        Map<String, String> o = new LinkedHashMap<>(design == null ? Map.of() : design.options());
        o.put("bytes-rate", rate);
        StringBuilder text = new StringBuilder("bucket");
        String sep = ":";
        for (Map.Entry<String, String> e : o.entrySet()) {
            text.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = ",";
        }
        try {
            return LimiterDesign.parse(text.toString());
        } catch (IllegalArgumentException e) {
            throw new SettingException("bytes-rate", rate, e.getMessage());
        }
    }

    /** The test the flags describe; with a scenario, flags given here override the file's top-level values. */
    private LoadTest loadTest(Scenario scenario) {
        LoadTest test;
        Map<String, List<String>> options = new LinkedHashMap<>();
        String opText = op;
        if (scenario == null) {
            // an unpaced run has no limiter: a design or a bytes rate given without a rate would be ignored
            if (rate == null && limiter != null) {
                throw new SettingException("limiter", limiter.toString(), "needs a rate: give ${rate} too, or a scenario");
            }
            if (rate == null && bytesRate != null) {
                throw new SettingException("bytes-rate", bytesRate, "needs a rate: give ${rate} too, or a scenario");
            }
            if (rate == null && arrivals != null) {
                throw new SettingException("arrivals", arrivals.toString(), "needs a rate: give ${rate} too, or a scenario");
            }
            test = rate == null ? LoadTest.unpaced() : LoadTest.rate(rate);
        } else {
            if (rate != null) {
                throw new IllegalArgumentException("--rate cannot be combined with a scenario: its phases set the rate");
            }
            test = LoadTest.scenario(scenario);
            options.putAll(scenario.opOptions());
            opText = op != null ? op : scenario.op();
        }
        Arrivals spacing = arrivals != null ? arrivals : scenario != null && scenario.arrivals() != null ? scenario.arrivals() : Arrivals.UNIFORM;
        if (seed != null && spacing != Arrivals.POISSON) {
            throw new SettingException("seed", seed.toString(), "seeds Poisson arrivals: give ${arrivals} poisson too");
        }
        if (workloadFile != null) {
            if (op != null) {
                throw new IllegalArgumentException("give a workload file or --op, not both");
            }
            opText = (SqlWorkloadParser.isSql(workloadFile) ? "postgres:" : "workload:") + workloadFile;
        }
        if (sqlWorkload != null) {
            if (op != null || workloadFile != null) {
                throw new IllegalArgumentException("give --workload or --op (or a workload file), not both");
            }
            opText = "postgres:" + sqlWorkload;
        }
        options.putAll(opOptions());
        OpSpec spec = OpSpec.parse(opText == null ? "noop" : opText, options);
        HttpOptions.refuseUnlessHttp(spec);
        HttpOptions.checkBody(spec.option("body"));
        if (!vars.isEmpty()) {
            if (!spec.name().equals("workload") && !spec.name().equals("postgres")) {
                throw new SettingException("var", vars.get(0), "sets a workload file's var: give a workload file");
            }
            Map<String, List<String>> withVars = new LinkedHashMap<>(spec.options());
            withVars.put("var", List.copyOf(vars));
            spec = new OpSpec(spec.name(), spec.argument(), withVars);
        }
        test.op(spec).virtualThreads(virtual)
                .duration(duration).cycles(cycles == null ? 0 : cycles).maxInFlight(maxInFlight == null ? 0 : maxInFlight);
        if (arrivals != null) {
            test.arrivals(arrivals);
        }
        if (seed != null) {
            test.seed(seed);
        }
        LimiterDesign design = limiter;
        if (bytesRate != null) {
            design = withBytesRate(design != null ? design : scenario != null ? scenario.limiter() : null, bytesRate);
        }
        if (design != null) {
            test.limiter(design);
        }
        if (shard != null) {
            test.shard(Shard.parse(shard, System.getenv("JOB_COMPLETION_INDEX")));
        }
        if (startAt != null) {
            try {
                test.startAt(java.time.Instant.parse(startAt.strip()));
            } catch (java.time.format.DateTimeParseException e) {
                throw new SettingException("start-at", startAt, "expected a UTC instant such as 2026-12-01T10:00:00Z");
            }
        }
        if (threads != null) {
            test.threads(threads);
        }
        return test;
    }

    /**
     * Runs {@code step}; a setting it refuses that came from the scenario file (not from a flag) is
     * reported at the file's line, in the file's words.
     */
    private <T> T blamingTheFile(Scenario scenario, Callable<T> step) throws Exception {
        try {
            return step.call();
        } catch (SettingException e) {
            boolean byFlag = e.setting().equals("op") ? op != null : opOptions().containsKey(e.setting());
            ScenarioException inFile = scenario == null || byFlag ? null : scenario.refuse(e);
            throw inFile != null ? inFile : e;
        }
    }

    private void writePlot(Path log, Path tempLog) {
        try {
            // a temp log's name means nothing to a reader: the page is named after the run and its start
            Report report = Report.of(List.of(log), null, null);
            String title = tempLog == null ? null : "pacer run " + java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
                    .withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.ofEpochMilli((long) (report.startSec() * 1000)));
            ReportHtml.write(List.of(report), title, plot);
            if (!quiet) {
                System.err.println("pacer: wrote " + plot);
            }
            if (tempLog != null) {
                Files.deleteIfExists(tempLog);
            }
        } catch (IOException e) {
            plotFailed = true;
            System.err.println("pacer: could not write " + plot + ": " + OutputFiles.why(e));
        } catch (RuntimeException e) {
            plotFailed = true;
            System.err.println("pacer: could not write " + plot + ": "
                    + PacerCommand.oneLine(String.valueOf(e.getMessage())));
        }
    }

    /** The file the http op's body is read from ({@code --body @FILE}, or the scenario's), or null. */
    private Path bodyFile(Scenario scenario) {
        List<String> inFile = scenario == null ? null : scenario.opOptions().get("body");
        String body = http.body != null ? http.body : inFile == null || inFile.isEmpty() ? null : inFile.get(0);
        return body == null || !body.startsWith("@") || body.length() == 1 ? null : Path.of(body.substring(1));
    }

    /** The scenario named by file or --scenario, parsed and validated, or null. */
    private Scenario scenario() throws java.io.IOException {
        if (scenarioFile != null && scenarioName != null) {
            throw new IllegalArgumentException("give a scenario file or --scenario NAME, not both");
        }
        if (search != null) {
            if (scenarioName != null || scenarioFile != null) {
                throw new IllegalArgumentException("--search runs a search of its own; put it in the scenario as a 'search:' phase instead");
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
            return Scenarios.search(search, searchFrom == null ? 100 : searchFrom.opsPerSecond(),
                    searchTo == null ? 1e6 : searchTo.opsPerSecond(), hold == null ? Duration.ofSeconds(10) : hold,
                    precision == null ? 0.02 : RatePlan.Search.parsePrecision(precision));
        }
        if (searchFrom != null || searchTo != null || hold != null || precision != null) {
            throw new IllegalArgumentException("--from, --to, --hold and --precision go with --search");
        }
        if (scenarioName != null) {
            return Scenarios.named(scenarioName);
        }
        if (scenarioFile == null) {
            return null;
        }
        if (Files.isDirectory(scenarioFile)) {
            throw new IllegalArgumentException("invalid scenario file '" + scenarioFile + "': is a folder");
        }
        if (!Files.exists(scenarioFile)) {
            throw new IllegalArgumentException("scenario file '" + scenarioFile + "' does not exist"
                    + (scenarioFile.toString().contains("/") || scenarioFile.toString().endsWith(".yaml") ? ""
                    : "; to run a built-in scenario, use --scenario " + scenarioFile));
        }
        if (WorkloadParser.isWorkload(scenarioFile)) {
            workloadFile = scenarioFile;
            return null;
        }
        return ScenarioParser.parse(scenarioFile);
    }

    /** Named options for ops that take flags of their own (the http op's). */
    Map<String, List<String>> opOptions() {
        return http.toOptions();
    }
}
