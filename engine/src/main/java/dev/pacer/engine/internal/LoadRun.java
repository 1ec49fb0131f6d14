package dev.pacer.engine.internal;

import dev.pacer.engine.control.ConsoleControl;
import dev.pacer.engine.api.IoReason;
import dev.pacer.engine.api.Knee;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ControlEndpoint;
import dev.pacer.engine.control.HttpControlServer;
import dev.pacer.engine.control.LiveFeed;
import dev.pacer.engine.control.RunController;
import dev.pacer.engine.control.RunStatus;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.export.MetricsEndpoint;
import dev.pacer.engine.export.PrometheusMetrics;
import dev.pacer.engine.gate.Verdict;
import dev.pacer.engine.hlog.HlogWriter;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.run.Activity;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.run.CompilerThreads;
import dev.pacer.engine.run.EngineWarmUp;
import dev.pacer.engine.run.Reporter;
import dev.pacer.engine.api.Phase;
import dev.pacer.engine.scenario.ScenarioRunner;
import dev.pacer.engine.text.Json;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.sink.IntervalCsv;
import dev.pacer.engine.sink.ProgressLine;
import dev.pacer.engine.api.StatusBlock;
import dev.pacer.engine.sink.StartLines;
import dev.pacer.engine.sink.SummaryJson;
import dev.pacer.engine.sink.SummaryText;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * One load run from start to summary, with everything around it: the engine's entry point.
 *
 * <p>It wires, for the run's length: the {@link Activity} (workers, limiter, and the one place that
 * changes them), the {@link Reporter} (intervals), the sinks (progress lines on {@code err}, the .hlog,
 * the summary text on {@code out} and its JSON), the status that control reads, and as the options ask
 * the HTTP control endpoint, console commands, a scenario's phases and a signal hook. Data flows one
 * way: workers record, the reporter cuts intervals, sinks and status read them.
 *
 * <p>{@link #run()} runs the reporter on the calling thread and returns the {@link Summary} once every
 * worker has exited. {@link #requestStop} may be called from any thread; the run then records its last
 * partial interval, writes and closes its files, and {@link #run()} returns. {@link #awaitFinished}
 * lets another thread (a shutdown hook) wait for that.
 */
public final class LoadRun {

    /** How long moving one compiler thread to the idle class may take ({@code chrt} answers in milliseconds). */
    private static final long IDLE_TIMEOUT_MILLIS = 2_000;

    private final RunOptions options;
    private final Activity activity;
    private final Reporter reporter;
    private final RunController controller;
    private final PrintStream out;
    private final PrintStream err;
    private final List<Consumer<Summary>> finishListeners = new CopyOnWriteArrayList<>();
    /** Set by the builder's thread before {@link #run()} starts (a happens-before through the thread's start). */
    private AutoCloseable closeBeforeWriting;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean running;
    private volatile InetSocketAddress controlAddress;
    private volatile InetSocketAddress metricsAddress;
    /** The measured run's histograms once it has ended, else empty. */
    private volatile Map<Metric, Histogram> histograms = Map.of();
    /** Why the run could not go on (a log it could not write, a listener that threw), or null. */
    private volatile String outputFailure;
    /** What an interval listener threw, or null: {@link #run()} throws it once the files are written. */
    private volatile Throwable listenerFailure;
    /** Plays the scenario, if any; set once before the run starts. */
    private volatile ScenarioRunner scenarioRunner;

    /**
     * @param options what to run and how
     * @param op      the op, created from {@code options.activity().op()} (closed by the caller)
     * @param out     where the summary is printed
     * @param err     where start lines, progress lines and console answers are printed
     */
    public LoadRun(RunOptions options, Op op, PrintStream out, PrintStream err) {
        this.options = Objects.requireNonNull(options, "options");
        this.activity = new Activity(options.activity(), op, options.clock());
        this.reporter = new Reporter(activity, options.interval(), options.grace());
        this.out = out;
        this.err = err;
        RunStatus status = new RunStatus(activity);
        reporter.addListener(status);
        if (options.statusBlock() != null) {
            reporter.addListener(r -> options.statusBlock().update(r, statusFacts()));
        }
        this.controller = new RunController(activity, status);
    }

    /** The running activity: the one place to change rate, threads, pause, stop. */
    public Activity activity() {
        return activity;
    }

    /** Applies control actions (what the console and the HTTP endpoint call); its status is fed each interval. */
    public RunController controller() {
        return controller;
    }

    /**
     * Called on the reporter thread after every interval. A listener that throws fails the run: it is stopped (ops in
     * flight get the grace period), no interval listener is called again, every op measured still reaches the log,
     * the CSV and the summary, which is written failed with it, and then {@link #run()} throws what it threw.
     */
    public void addIntervalListener(Consumer<IntervalReport> listener) {
        reporter.addListener(r -> {
            if (listenerFailure != null) {
                return;
            }
            try {
                listener.accept(r);
            } catch (RuntimeException | Error e) {
                listenerFailure = e;
                failed("an interval listener threw " + e, "listener");
            }
        });
    }

    /**
     * Called with the summary once it has been printed and written, before {@link #awaitFinished}
     * returns: also when a signal stopped the run, so whatever it writes is written before the JVM exits.
     * A listener that throws does not fail the run nor keep the summary from the others: what it threw goes to the
     * thread's uncaught-exception handler.
     */
    public void addFinishListener(Consumer<Summary> listener) {
        finishListeners.add(listener);
    }

    /**
     * What to close once the measurement has ended and before the summary and the finish listeners write their
     * files (the op, when the run owns it); a failure to close is said in one line. Set before {@link #run()}.
     */
    public void closeBeforeWriting(AutoCloseable resource) {
        this.closeBeforeWriting = resource;
    }

    /** Stops the run from any thread; the summary is still written. The first reason wins. */
    public void requestStop(StopReason reason, String source) {
        activity.stop(reason, source);
    }

    /** The measured run's wait, service and response histograms (warm-up left out), once it has ended. */
    public Map<Metric, Histogram> histograms() {
        return histograms;
    }

    /** Where the Prometheus scrape endpoint listens once the run has started it, or null. */
    public InetSocketAddress metricsAddress() {
        return metricsAddress;
    }

    /** Where the control endpoint listens once the run has started it, or null. */
    public InetSocketAddress controlAddress() {
        return controlAddress;
    }

    /**
     * Waits until the summary has been written and the files closed. Returns at once when
     * {@link #run()} was never called.
     */
    public boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return !running || finished.await(timeout, unit);
    }

    /**
     * Sinks of the kinds this run writes (an hlog, a CSV), each into nothing, for the engine's warm-up to write its
     * private intervals to: their writing is compiled before the clock starts.
     */
    private List<Consumer<IntervalReport>> warmUpSinks(boolean hlog, boolean csv) {
        List<Consumer<IntervalReport>> sinks = new ArrayList<>();
        if (hlog) {
            sinks.add(HlogWriter.discarding(StartLines.settings(options.activity()))::interval);
        }
        if (csv) {
            sinks.add(IntervalCsv.discarding());
        }
        return sinks;
    }

    /**
     * Runs to the end. Returns the summary (also printed, and written when asked); throws what an interval listener
     * threw, once the summary is written (see {@link #addIntervalListener}).
     */
    @SuppressWarnings("try") // the signal handlers are held for the run's length, not used in the block
    public Summary run() throws IOException {
        running = true;
        LiveFeed feed = options.control() == null ? null : new LiveFeed();
        try (SignalStop signals = options.handleSignals() ? new SignalStop(
                signal -> activity.stop(StopReason.SIGNAL, signal)) : null;
             HlogWriter hlog = options.hlog() == null ? null : new HlogWriter(options.hlog(),
                     StartLines.settings(options.activity()), this::outputFailed);
             IntervalCsv csv = options.csv() == null ? null : new IntervalCsv(options.csv(), this::outputFailed);
             HttpControlServer server = options.control() == null ? null
                     : HttpControlServer.start(options.control(), options.controlToken(), controller, feed);
             MetricsEndpoint metrics = options.metrics() == null ? null : startMetrics()) {
            if (hlog != null) {
                // made now, not at the start: a method reference's first evaluation defines a class, which in the
                // start listener cost the run's first 10 ms a few milliseconds of lateness (-Xlog:class+load)
                Consumer<Change> hlogChange = hlog::change;
                reporter.addStartListener((startNanos, startEpochMs) -> {
                    hlog.start(startEpochMs);
                    activity.addChangeListenerWithHistory(hlogChange);
                });
                reporter.addListener(hlog::interval);
            }
            if (csv != null) {
                reporter.addListener(csv);
            }

            ProgressLine.Printer progress = null;
            if (options.progress()) {
                progress = new ProgressLine.Printer(err, options.interval().toNanos() / 1e9,
                        ConsoleControl.SOURCE);
                activity.addChangeListener(progress::change);
                reporter.addListener(progress::interval);
            }
            if (options.scenario() != null) {
                scenarioRunner = new ScenarioRunner(options.scenario(), activity, reporter, why -> failed(why,
                        "scenario"));
                scenarioRunner.start();
            }
            if (server != null) {
                controlAddress = server.address();
            }
            if (feed != null) {
                feedConsolePage(feed);
            }
            if (metrics != null) {
                metricsAddress = new InetSocketAddress(options.metrics().host(), metrics.port());
            }
            if (options.announce()) {
                announce();
            }
            if (options.console() != null) {
                new ConsoleControl(controller, options.console(), err).start();
            }
            // the op first (the http op's warm-up leaves compilations queued), then the engine, which ends once the
            // JIT has been quiet for two rounds: what both queued is compiled before the first op
            activity.warmUpOp();
            // a test that starts at an instant gets what is left before it: its first ops on time beat a warmer JIT
            java.time.Duration engineWarmUp = activity.config().startAt() == null ? options.engineWarmUp()
                    : java.util.Collections.min(List.of(options.engineWarmUp(), activity.untilStartAt()));
            EngineWarmUp.Result warm = EngineWarmUp.before(activity, engineWarmUp,
                    engineWarmUp.isZero() ? List.of() : warmUpSinks(hlog != null, csv != null));
            // what the JIT compiles from here on (the reporter's code, paths the warm-ups never took) runs on CPU
            // the run leaves: at 60 000 req/s on 2 cores they had taken the whole run's p99 from 1.83 to 3.13 ms
            CompilerThreads.Result jit = warm != null && options.idleCompilerThreads()
                    ? CompilerThreads.idle(IDLE_TIMEOUT_MILLIS) : null;
            String opWarmUp = activity.opWarmUpLine();
            if (opWarmUp != null && options.announce()) {
                err.println(opWarmUp);
            }
            if (warm != null && options.announce()) {
                err.println(warm.startLine());
                if (jit != null) {
                    err.println(jit.startLine());
                }
            }
            if (warm != null) {
                // the warm-ups' garbage and what they set up (connections, compiled code's data) are collected now,
                // before the clock starts, not by a young collection early in the run that copies them all
                System.gc();
            }
            Reporter.Measurement measured;
            try {
                measured = reporter.run();
            } catch (RuntimeException | Error e) {
                // a sink or the status threw on the reporter's thread (an interval listener's throw is caught where
                // it is called): the run fails with it, and its load ends with it (no op starts after this; ops in
                // flight get the grace period)
                endAfterFailure();
                throw e;
            } finally {
                if (progress != null) {
                    progress.flush(); // changes made after the last interval line (a stop), above the summary
                }
            }
            if (activity.failure() != null) {
                failed(activity.failure(), "worker");
            }
            histograms = measured.histograms();
            Summary summary = summarize(measured);
            out.print(SummaryText.format(summary));
            out.flush();
            String opEnd = activity.opEndLine();
            if (opEnd != null && options.announce()) {
                err.println(opEnd);
            }
            AutoCloseable release = closeBeforeWriting;
            if (release != null) {
                try {
                    release.close();
                } catch (Exception e) {
                    err.println("pacer: closing the op failed: " + e);
                }
            }
            if (options.summaryJson() != null) {
                try {
                    SummaryJson.write(summary, options.summaryJson());
                } catch (IOException e) {
                    // said in one line and the run failed with it; what comes after (the report page) is still made
                    String why = "cannot write the summary to " + options.summaryJson() + ": " + IoReason.of(e);
                    err.println("pacer: " + why);
                    err.flush();
                    summary = summary.failedWith(why);
                }
            }
            for (Consumer<Summary> l : finishListeners) {
                try {
                    l.accept(summary);
                } catch (RuntimeException | Error e) { // the run has ended as it has: the others still get it
                    Thread t = Thread.currentThread();
                    t.getUncaughtExceptionHandler().uncaughtException(t, e);
                }
            }
            if (feed != null) {
                String page = reportPage();
                feed.end(summary, SummaryText.format(summary), reportCommand(), page,
                        page == null ? null : reportFile().getFileName().toString());
            }
            Throwable listener = listenerFailure;
            if (listener instanceof RuntimeException e) {
                throw e;
            }
            if (listener instanceof Error e) {
                throw e;
            }
            return summary;
        } finally {
            finished.countDown();
        }
    }

    /**
     * The console page's records: the run's settings at its start, every change, and every interval with
     * the falling-behind warning the status block shows.
     */
    private void feedConsolePage(LiveFeed feed) {
        Consumer<Change> feedChange = feed::change; // made now: see the hlog's listener in run()
        reporter.addStartListener((startNanos, startEpochMs) -> {
            feed.start(pageSettings());
            activity.addChangeListenerWithHistory(feedChange);
        });
        StatusBlock warnings = new StatusBlock();
        reporter.addListener(r -> {
            StatusBlock.Facts facts = statusFacts();
            warnings.update(r, facts);
            feed.interval(r, warnings.warning(), facts.paused(), facts.inFlightCapacity());
        });
    }

    /** What the console page shows of the run's settings: op, rate, threads, length, phases, interval, log, ops. */
    private ObjectNode pageSettings() {
        ActivityConfig c = options.activity();
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("op", c.op().toString());
        n.put("rate", activity.rate() == null ? null : activity.rate().toString());
        n.put("threads", activity.threads());
        if (c.duration() == null) {
            n.putNull("durationSec");
        } else {
            n.put("durationSec", c.duration().toNanos() / 1e9);
        }
        n.put("cycles", c.cycles());
        n.put("intervalSec", options.interval().toNanos() / 1e9);
        n.put("hlog", options.hlog() == null ? null : options.hlog().toString());
        ArrayNode opNames = n.putArray("opNames");
        activity.opNames().forEach(opNames::add);
        ArrayNode phases = n.putArray("phases");
        if (options.scenario() != null) {
            for (Phase p : options.scenario().phases()) {
                phases.addObject().put("name", p.name()).put("durationSec", p.duration().toNanos() / 1e9)
                        .put("warmup", p.warmup());
            }
        }
        return n;
    }

    /** The command that makes the report page of the run's log, or null when it writes none. */
    private String reportCommand() {
        return options.hlog() == null ? null : "pacer report " + options.hlog() + " --plot " + reportFile();
    }

    /** Where the report page of the run's log goes by default: the log's name, {@code .html} for {@code .hlog}. */
    private Path reportFile() {
        return Path.of(options.hlog().toString().replaceAll("\\.hlog$", "") + ".html");
    }

    /**
     * The report page of the run's log, for the console page to offer; null when it has no log or no renderer, or
     * when the page could not be made or is over {@link LiveFeed#MAX_REPORT_PAGE_CHARS} (said on {@code err}: the
     * console page then shows the command that makes it).
     */
    private String reportPage() {
        if (options.hlog() == null || options.reportPage() == null) {
            return null;
        }
        try {
            String page = options.reportPage().render(options.hlog());
            if (page != null && page.length() > LiveFeed.MAX_REPORT_PAGE_CHARS) {
                err.println("pacer: the report page of " + options.hlog() + " is over "
                        + LiveFeed.MAX_REPORT_PAGE_CHARS / 1_000_000 + " MB; the console page shows its command");
                return null;
            }
            return page;
        } catch (IOException | RuntimeException e) {
            err.println("pacer: the console page's report of " + options.hlog() + " could not be made: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            return null;
        }
    }

    /** Stops the activity and waits up to the grace period for its workers to leave, interrupting them then. */
    private void endAfterFailure() {
        activity.stop(StopReason.ERROR, "error");
        try {
            if (!activity.awaitDone(Math.max(1, options.grace().toMillis()), TimeUnit.MILLISECONDS)) {
                activity.interruptWorkers();
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    /** The Prometheus endpoint, fed by the reporter each interval. */
    private MetricsEndpoint startMetrics() throws IOException {
        PrometheusMetrics exported = new PrometheusMetrics(activity);
        reporter.addListener(exported);
        ControlEndpoint e = options.metrics();
        return MetricsEndpoint.start(e.socketAddress(), e.text(), options.controlToken(), exported);
    }

    /** The run's state for a status block, now. */
    public StatusBlock.Facts statusFacts() {
        ActivityConfig c = options.activity();
        int cores = Runtime.getRuntime().availableProcessors();
        double cpu = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                && os.getProcessCpuLoad() >= 0 ? os.getProcessCpuLoad() * cores : Double.NaN;
        return new StatusBlock.Facts(c.op().toString(), activity.threads(), activity.inFlight(),
                activity.inFlightCapacity(), activity.rate(), activity.isPaused(), c.duration(), c.cycles(), cpu,
                        cores);
    }

    /** A file the run writes failed: say so once, stop the run, and fail its summary. */
    private void outputFailed(String why) {
        failed(why, "output");
    }

    /**
     * Something the run needs failed ({@code source}: output, scenario, listener): say so once, stop the run, fail
     * its summary.
     */
    private void failed(String why, String source) {
        if (outputFailure == null) {
            outputFailure = why;
            err.println("pacer: " + why + "; stopping the run");
        }
        activity.stop(StopReason.ERROR, source);
    }

    private Summary summarize(Reporter.Measurement m) {
        ActivityConfig config = options.activity();
        RateSpec finalRate = activity.rate();
        Verdict verdict = Verdict.judge(m.figures(), options.thresholds(), options.maxErrorRatio());
        Knee knee = scenarioRunner == null ? null : scenarioRunner.knee();
        String noKnee = knee == null || knee.gaveARate() ? null
                : "the knee search gave no rate (knee " + knee.status() + ")";
        String failure = java.util.stream.Stream.of(outputFailure, verdict.failure(), noKnee)
                .filter(java.util.Objects::nonNull).reduce((a, b) -> a + "; " + b).orElse(null);
        return new Summary(config.op().toString(), activity.threads(), config.virtualThreads(),
                finalRate == null ? Double.NaN : finalRate.strictness(), m.figures(), m.outcomes(), m.errorsByType(),
                activity.changes(), m.phases(), verdict.thresholds(), options.maxErrorRatio(), activity.stopReason(),
                activity.stopSource(), failure, knee,
                activity.limiterSnapshot(), m.perOp());
    }

    private void announce() {
        err.println(StartLines.run(options.activity()));
        String caveat = StartLines.caveat(options.activity());
        if (caveat != null) {
            err.println(caveat);
        }
        if (options.scenario() != null) {
            err.println("pacer: " + ScenarioRunner.describe(options.scenario(), options.activity().duration()));
        }
        InetSocketAddress a = controlAddress;
        if (a != null) { // the host asked for: a wildcard bound is the JDK's IPv6 one whichever was asked
            err.println(StartLines.control(new InetSocketAddress(options.control().host(), a.getPort())));
        }
        InetSocketAddress m = metricsAddress;
        if (m != null) {
            err.println("pacer: Prometheus metrics at " + StartLines.url(m) + "/metrics");
        }
    }
}
