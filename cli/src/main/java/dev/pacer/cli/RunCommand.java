package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.WorkloadFiles;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.ScenarioException;
import dev.pacer.engine.api.SettingException;
import dev.pacer.report.Report;
import dev.pacer.report.ReportHtml;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code pacer run}: a paced, multi-threaded load run with wait, service and response histograms. Its flags are
 * grouped by concern, one mixin each, and each group sets its own part of the {@link LoadTest}; this class wires
 * them: the scenario first, then the test the flags describe, its outputs, its endpoints, and the run.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                // one element: 'pacer --help' lists each command with its description's first element
                "Runs an op from many threads at a target rate and reports wait (scheduled -> start), "
                        + "service (start -> end) and response (scheduled -> end) time histograms.",
                "",
                "Examples:",
                "  pacer run --rate 1000 --duration 10s",
                "  pacer run --rate 5000 --threads 16 --duration 30s --op sleep:2ms",
                "  pacer run --rate 1M,0.5 --threads 2 --cycles 20M --op noop --hlog run.hlog --summary run.json",
                "  pacer run --rate 20000 --duration 60s --op http --url http://127.0.0.1:8080/ --virtual --threads "
                        + "500",
                "  pacer run scenarios/stepped.yaml",
                "  pacer run --scenario ramp-to-knee",
                "",
                "While it runs, type commands into its terminal: rate 8000 | rate 8000,0.5 | strictness 1 |",
                "threads 32 | pause | resume | status | stop  (or use --control and 'pacer control').",
                ""})
final class RunCommand implements Callable<Integer> {

    @CommandLine.Mixin
    RateOptions rates = new RateOptions();

    @CommandLine.Mixin
    LoadOptions load = new LoadOptions();

    @CommandLine.Mixin
    OpOptions ops = new OpOptions();

    @CommandLine.Mixin
    ScenarioOptions scenarios = new ScenarioOptions();

    @CommandLine.Mixin
    ShardOptions sharding = new ShardOptions();

    @CommandLine.Mixin
    OutputOptions output = new OutputOptions();

    @CommandLine.Mixin
    GateOptions gates = new GateOptions();

    @CommandLine.Mixin
    ControlOptions control = new ControlOptions();

    @CommandLine.Mixin
    HttpOptions http = new HttpOptions();

    @CommandLine.Mixin
    PostgresOptions postgres = new PostgresOptions();

    /** The op the run was given, once {@link #loadTest} has read the flags and the scenario. */
    private OpSpec opSpec;

    @Override
    public Integer call() throws Exception {
        Scenario scenario = scenarios.scenario(output.interval, sharding.shard);
        LoadTest test = blamingTheFile(scenario, () -> loadTest(scenario));
        output.applyTo(test);
        gates.applyTo(test);
        test.handleSignals(true);
        Map<Path, String> inputs = new LinkedHashMap<>();
        if (scenarios.file != null) {
            inputs.put(scenarios.file, scenarios.workloadFile() != null ? "the workload file" : "the scenario file");
        }
        Path bodyFile = bodyFile(scenario);
        if (bodyFile != null) {
            inputs.putIfAbsent(bodyFile, "the file --body sends");
        }
        WorkloadFiles.inputs(opSpec).forEach(inputs::putIfAbsent);
        output.check(inputs);
        control.applyTo(test);
        boolean live = !output.quiet && !control.noConsole && Terminal.isInteractive();
        control.console(test, live);
        try (RunPlot plot = output.plot(test)) {
            if (control.control != null && output.hlog != null) {
                // the console page offers the report page of the log at the end: --plot's page, already made, or
                // the one 'pacer report LOG --plot' makes
                Path page = output.plot;
                test.reportPage(log -> plot != null && !plot.failed() && Files.exists(page) ? Files.readString(page)
                        : ReportHtml.render(List.of(Report.of(List.of(log), null, null)), null));
            }
            Summary result = live ? runLive(test, scenario) : blamingTheFile(scenario, test::run).summary();
            if (result.stopReason() == StopReason.SIGNAL) {
                return PacerCommand.exitStatusOfSignal(result.stoppedBy());
            }
            boolean plotted = plot == null || !plot.failed();
            return result.passed() && plotted ? PacerCommand.EXIT_OK : PacerCommand.EXIT_FAILED;
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
        PrintStream out = output.summaryText();
        out.print(summaryText);
        out.flush();
        return result.summary();
    }

    /** The test the flags describe; with a scenario, flags given here override the file's top-level values. */
    private LoadTest loadTest(Scenario scenario) {
        LoadTest test = rates.newTest(scenario);
        rates.applyTo(test, scenario);
        opSpec = ops.spec(scenario, scenarios.workloadFile(), opOptions());
        test.op(opSpec);
        load.applyTo(test);
        sharding.applyTo(test);
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
            boolean byFlag = e.setting().equals("op") ? ops.op != null : opOptions().containsKey(e.setting());
            ScenarioException inFile = scenario == null || byFlag ? null : scenario.refuse(e);
            throw inFile != null ? inFile : e;
        }
    }

    /** The file the http op's body is read from ({@code --body @FILE}, or the scenario's), or null. */
    private Path bodyFile(Scenario scenario) {
        List<String> inFile = scenario == null ? null : scenario.opOptions().get("body");
        String body = http.body != null ? http.body : inFile == null || inFile.isEmpty() ? null : inFile.get(0);
        return body == null || !body.startsWith("@") || body.length() == 1 ? null : Path.of(body.substring(1));
    }

    /** Named options for ops that take flags of their own (the http op's, the postgres op's). */
    Map<String, List<String>> opOptions() {
        Map<String, List<String>> m = http.toOptions();
        m.putAll(postgres.toOptions());
        return m;
    }
}
