package dev.pacer.engine;

import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.control.ConsoleControl;
import dev.pacer.engine.api.ControlAction;
import dev.pacer.engine.api.ControlEndpoint;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Threshold;
import dev.pacer.engine.hlog.HlogPageRenderer;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.op.Ops;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.api.Shard;
import dev.pacer.engine.api.Phase;
import dev.pacer.engine.api.RatePlan;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.scenario.ScenarioParser;
import dev.pacer.engine.scenario.ScenarioRunner;
import dev.pacer.engine.api.StatusBlock;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.ScenarioException;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A load test built in code: everything {@code pacer run} does, as a Java API (the CLI is built on it).
 *
 * <pre>{@code
 * LoadTest.Result r = LoadTest.rate("5k,0.5")              // 5 000 ops/s, burst compensation 0.5
 *         .threads(8)
 *         .op(cycle -> { client.call(cycle); return null; })  // your op: return an Outcome, or null for ok
 *         .duration(Duration.ofSeconds(30))
 *         .threshold("response.p99<20ms")
 *         .run();
 * assertTrue(r.passed(), r.failure());
 * }</pre>
 *
 * <p>{@link #run()} blocks until the test ends; {@link #start()} returns a {@link Running} handle to
 * change the rate, threads, pause or stop it while it runs (the same actions as the console and the
 * HTTP endpoint, recorded with the source {@code api}). Listeners see every interval and change. By
 * default nothing is printed; {@link #output} sends the progress lines and the summary somewhere.
 *
 * <p>A {@code LoadTest} is a builder: set what you need, then run it; it may be run again. Bad values
 * are refused with a {@link dev.pacer.engine.api.SettingException} naming them, when set or at the
 * latest when the test starts, before anything runs. Not thread-safe while being built.
 */
public final class LoadTest {

    private static final PrintStream DISCARD = new PrintStream(OutputStream.nullOutputStream());

    private RateSpec rate;
    private Scenario scenario;
    private Op op;
    private OpSpec opSpec = OpSpec.parse("noop");
    private int threads = 1;
    /** Whether {@link #threads} was set (by {@link #threads(int)} or the scenario): else the op's own count applies. */
    private boolean threadsGiven;
    private boolean virtualThreads;
    private Duration duration;
    private long cycles;
    private int maxInFlight;
    private Arrivals arrivals = Arrivals.UNIFORM;
    private Long seed;
    private LimiterDesign limiter = LimiterDesign.ATOMIC;
    private Duration pacingTick;
    private Shard shard;
    private java.time.Instant startAt;
    /**
     * How the run is reported, judged and controlled (interval, grace, files, gates, endpoints, console, status):
     * held here only, checked when a start builds the run's options from it with the activity.
     */
    private final RunOptions.Builder reporting = RunOptions.builder();
    private PrintStream out = DISCARD;
    private PrintStream err = DISCARD;
    private final List<Consumer<IntervalReport>> intervalListeners = new ArrayList<>();
    private final List<Consumer<Change>> changeListeners = new ArrayList<>();
    private final List<Consumer<Summary>> finishListeners = new ArrayList<>();
    private RunClock clock = RunClock.system();
    /** The result of the run started last, or null: a second start waits for its end. Guarded by this. */
    private CompletableFuture<Result> running;

    private LoadTest() {
    }

    /** A test paced at {@code spec}: {@code 1000}, {@code 2.5k}, {@code 1M,0.5} (see {@link RateSpec}). */
    public static LoadTest rate(String spec) {
        try {
            return rate(RateSpec.parse(spec));
        } catch (IllegalArgumentException e) {
            throw refusedRate(String.valueOf(spec), e);
        }
    }

    /** A test paced at {@code opsPerSecond}, strictness 0. */
    public static LoadTest rate(double opsPerSecond) {
        try {
            return rate(RateSpec.of(opsPerSecond));
        } catch (IllegalArgumentException e) {
            throw refusedRate(Double.isFinite(opsPerSecond)
                    ? java.math.BigDecimal.valueOf(opsPerSecond).stripTrailingZeros().toPlainString()
                    : String.valueOf(opsPerSecond), e);
        }
    }

    /** The limiter's refusal of a rate (it knows no SettingException) as the engine's: the setting, the value, why. */
    private static SettingException refusedRate(String value, IllegalArgumentException e) {
        String why = String.valueOf(e.getMessage());
        int colon = why.indexOf(": ");
        return new SettingException("rate", value, colon < 0 ? why : why.substring(colon + 2));
    }

    /** A test paced at {@code spec}. */
    public static LoadTest rate(RateSpec spec) {
        LoadTest t = new LoadTest();
        t.rate = Objects.requireNonNull(spec, "spec");
        return t;
    }

    /** A test with no target: as fast as the threads go. */
    public static LoadTest unpaced() {
        return new LoadTest();
    }

    /**
     * A test that plays a scenario: its phases set the rate; its op, threads and strictness are the
     * defaults, which the setters here override.
     */
    public static LoadTest scenario(Scenario scenario) {
        LoadTest t = new LoadTest();
        t.scenario = Objects.requireNonNull(scenario, "scenario");
        t.rate = ScenarioRunner.initialRate(scenario);
        int scenarioThreads = ScenarioRunner.initialThreads(scenario, 0);
        if (scenarioThreads > 0) {
            t.threads = scenarioThreads;
            t.threadsGiven = true;
        }
        if (scenario.arrivals() != null) {
            t.arrivals = scenario.arrivals();
        }
        if (scenario.limiter() != null) {
            t.limiter = scenario.limiter();
        }
        if (scenario.op() != null) {
            t.opSpec = OpSpec.parse(scenario.op(), scenario.opOptions());
        }
        return t;
    }

    /** A test that plays the scenario in a YAML file. */
    public static LoadTest scenario(Path file) throws IOException {
        return scenario(ScenarioParser.parse(Objects.requireNonNull(file, "file")));
    }

    /** The op to run: yours (see {@link Op}; an {@link dev.pacer.engine.api.AsyncOp} completes later). */
    public LoadTest op(Op op) {
        this.op = Objects.requireNonNull(op, "op");
        Class<?> c = op.getClass();
        // a lambda's class is synthetic and an anonymous class's simple name is empty: both are "custom"
        this.opSpec = OpSpec.parse(c.isSynthetic() || c.isAnonymousClass() || c.getSimpleName().isEmpty()
                ? "custom" : c.getSimpleName());
        return this;
    }

    /** A built-in op or one on the class path, by spec: {@code sleep:2ms}, {@code cpu:50us}. */
    public LoadTest op(String spec) {
        return op(OpSpec.parse(spec));
    }

    /** An op by spec with named options (the http op's {@code url}, {@code method}, ...). */
    public LoadTest op(OpSpec spec) {
        this.opSpec = Objects.requireNonNull(spec, "spec");
        this.op = null;
        return this;
    }

    /**
     * A workload file's mix of requests (see docs/workloads.md): the same as {@code op(OpSpec.parse("workload:" +
     * file))}; a bad file is refused with one {@code file:line:} line when the test starts.
     */
    public LoadTest workload(Path file) {
        Objects.requireNonNull(file, "file");
        return op(OpSpec.parse((dev.pacer.engine.workload.SqlWorkloadParser.isSql(file) ? "postgres:" : "workload:")
                + file));
    }

    /**
     * Workers, 1 or more (up to 4 096 platform or 100 000 virtual threads). Default: the op's own count when it has
     * one ({@link Op#threads()}: the postgres op's, one per connection), else 1.
     */
    public LoadTest threads(int threads) {
        this.threads = threads;
        this.threadsGiven = true;
        return this;
    }

    /** Run the workers as virtual threads (thousands are cheap). */
    public LoadTest virtualThreads(boolean virtual) {
        this.virtualThreads = virtual;
        return this;
    }

    /** Stop after this long (a scenario's duration is its phases' unless this is shorter). */
    public LoadTest duration(Duration duration) {
        this.duration = duration;
        return this;
    }

    /** Stop after this many ops (0: no limit). */
    public LoadTest cycles(long cycles) {
        this.cycles = cycles;
        return this;
    }

    /** Asynchronous ops: the most in flight at once (0: the op's own bound). */
    public LoadTest maxInFlight(int maxInFlight) {
        this.maxInFlight = maxInFlight;
        return this;
    }

    /**
     * How arrivals are spaced (default {@link Arrivals#UNIFORM}); {@link Arrivals#POISSON} draws each gap
     * from an exponential distribution with the same mean, as open traffic arrives.
     */
    public LoadTest arrivals(Arrivals arrivals) {
        this.arrivals = Objects.requireNonNull(arrivals, "arrivals");
        return this;
    }

    /**
     * Runs this process as one shard of a test run as {@code shard.count()} processes: every rate given is the
     * test's global rate, this process runs its share, offset so the shards' slots interleave (see {@link Shard}).
     */
    public LoadTest shard(Shard shard) {
        this.shard = shard;
        return this;
    }

    /** Starts the schedule at this wall-clock instant (shards starting together); a late start catches up. */
    public LoadTest startAt(java.time.Instant startAt) {
        this.startAt = startAt;
        return this;
    }

    /**
     * The limiter design that paces the test (default {@link LimiterDesign#ATOMIC}, the lock-free limiter):
     * e.g. {@code LimiterDesign.parse("warmup:period=10s")} to load a service the way a Guava warm-up limiter
     * in front of it would let load through.
     */
    public LoadTest limiter(LimiterDesign limiter) {
        this.limiter = Objects.requireNonNull(limiter, "limiter");
        return this;
    }

    /**
     * Wakes each worker at most once per {@code tick} (null: as often as the machine parks well, about every
     * 0.1 ms on a VM): a woken worker takes every slot due by then, each late by what it waited, so nothing goes
     * early and the waits show the cost. Fewer wake-ups cost less CPU per op; wrk2 paces on 1 ms timers. Needs
     * strictness 0.
     */
    public LoadTest pacingTick(Duration tick) {
        this.pacingTick = tick;
        return this;
    }

    /** The seed of the Poisson arrivals' generators, for a schedule that replays (default: random). */
    public LoadTest seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** Reporting interval (default 1 s, at least 10 ms). */
    public LoadTest interval(Duration interval) {
        if (interval == null) {
            throw new SettingException("interval", "null", "must be given (a duration of at least 10ms)");
        }
        reporting.interval(interval);
        return this;
    }

    /**
     * Before the run's clock starts, runs the engine's per-op code (limiter, workers, recorders, reporter) off the
     * record around a stand-in op for at most {@code bound}, so the first ops are not paced by code still being
     * compiled (default: zero, none; the CLI's default is {@link dev.pacer.engine.run.EngineWarmUp#DEFAULT_BOUND}).
     */
    public LoadTest engineWarmUp(Duration bound) {
        if (bound == null) {
            throw new SettingException("engine-warm-up", "null", "must be given (a duration, 0 or more)");
        }
        reporting.engineWarmUp(bound);
        return this;
    }

    /**
     * Once the engine's warm-up is done, moves the JVM's JIT compiler threads to Linux's idle scheduling class for
     * the rest of the process (with {@code chrt}; nothing changes where there is none), so that what the JIT still
     * compiles during the run takes only CPU the run leaves (default: off; the CLI's default is on). For a program
     * that is the test: an unprivileged thread cannot leave that class, so the program's own code is compiled at
     * idle priority afterwards too. Nothing happens without an engine warm-up ({@link #engineWarmUp}).
     */
    public LoadTest idleCompilerThreads(boolean idle) {
        reporting.idleCompilerThreads(idle);
        return this;
    }

    /** How long ops in flight at the end may take before they are cancelled (default 10 s). */
    public LoadTest grace(Duration grace) {
        if (grace == null) {
            throw new SettingException("grace", "null", "must be given (a duration, 0 or more)");
        }
        reporting.grace(grace);
        return this;
    }

    /** Write the interval histogram log. */
    public LoadTest hlog(Path file) {
        reporting.hlog(file);
        return this;
    }

    /**
     * With {@link #hlog} and {@link #control}: when the run ends its console page offers the report page of the
     * log, made by {@code renderer} (the report module's, which the CLI gives; without one the page shows the
     * command that makes it).
     */
    public LoadTest reportPage(HlogPageRenderer renderer) {
        reporting.reportPage(renderer);
        return this;
    }

    /** Write the summary as JSON. */
    public LoadTest summaryJson(Path file) {
        reporting.summaryJson(file);
        return this;
    }

    /** Stream one CSV row per interval (start, end, phase, ops, errors, per metric p50/p90/p99/max). */
    public LoadTest csv(Path file) {
        reporting.csv(file);
        return this;
    }

    /** A pass/fail gate: {@code response.p99<20ms}, {@code achieved>=0.99*target}, {@code errors<0.1%}. */
    public LoadTest threshold(String gate) {
        reporting.threshold(Threshold.parse(gate));
        return this;
    }

    /** The largest error ratio that passes (default 0.01). */
    public LoadTest maxErrorRatio(double ratio) {
        reporting.maxErrorRatio(ratio);
        return this;
    }

    /** Open the HTTP control endpoint ({@code 7070}, {@code 127.0.0.1:7070}); a token is needed off loopback. */
    public LoadTest control(String endpoint, String token) {
        reporting.control(ControlEndpoint.parse(endpoint), token);
        return this;
    }

    /**
     * Serve Prometheus metrics at {@code endpoint} ({@code 9464}, {@code 127.0.0.1:9464}); off loopback it
     * needs a token, the control endpoint's ({@link #control}) or {@link #token}'s.
     */
    public LoadTest metrics(String endpoint) {
        reporting.metrics(ControlEndpoint.parse(endpoint, "metrics"));
        return this;
    }

    /** The bearer token the control and metrics endpoints require. */
    public LoadTest token(String token) {
        reporting.token(token);
        return this;
    }

    /** Read console commands ({@code rate 8000}, {@code stop}, ...) from {@code in}. */
    public LoadTest console(InputStream in) {
        reporting.console(in);
        return this;
    }

    /** Update {@code block} every interval (a terminal's live view draws it). */
    public LoadTest statusBlock(StatusBlock block) {
        reporting.statusBlock(block);
        return this;
    }

    /** Stop cleanly on SIGINT/SIGTERM while the test runs (for programs that are the test). */
    public LoadTest handleSignals(boolean handle) {
        reporting.handleSignals(handle);
        return this;
    }

    /**
     * Where the summary ({@code out}) and the start lines, progress lines and console answers
     * ({@code err}) are printed. Default: nowhere. Start lines and progress lines are printed only when
     * {@link #announce} and {@link #progress} ask for them.
     */
    public LoadTest output(PrintStream out, PrintStream err) {
        this.out = Objects.requireNonNull(out, "out");
        this.err = Objects.requireNonNull(err, "err");
        return this;
    }

    /** Print a progress line every interval, and every change as it happens (default off). */
    public LoadTest progress(boolean progress) {
        reporting.progress(progress);
        return this;
    }

    /** Print what runs before it starts, and where the control endpoint listens (default off). */
    public LoadTest announce(boolean announce) {
        reporting.announce(announce);
        return this;
    }

    /**
     * Called after every interval, on the reporter thread. A listener that throws fails the test: its load
     * stops (ops in flight get the grace period) and no interval listener is called again; every op measured still
     * reaches the log, the CSV and the summary, which is written (failed, with what it threw) and given to the
     * {@link #onFinish} listeners; then {@link Running#await()} throws what it threw.
     */
    public LoadTest onInterval(Consumer<IntervalReport> listener) {
        intervalListeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Called with every change (rate, threads, pause, phase, stop), on the thread that made it. A listener that
     * throws neither undoes the change nor fails whoever made it, and the other listeners (the .hlog's) still
     * get it: what it threw goes to that thread's uncaught-exception handler.
     */
    public LoadTest onChange(Consumer<Change> listener) {
        changeListeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * Called with the summary once it is written (also when a signal stopped the test), on the run's thread, before
     * {@link Running#await()} returns. A listener that throws neither fails the test nor keeps the summary from the
     * other listeners: what it threw goes to that thread's uncaught-exception handler.
     */
    public LoadTest onFinish(Consumer<Summary> listener) {
        finishListeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /**
     * The clock the test reads and waits on (default {@link RunClock#system()}): a {@link ManualRunClock}
     * plays the test on a synthetic clock that the caller moves, for exact and fast tests of time-driven logic.
     */
    public LoadTest clock(RunClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /** Runs the test to its end and returns its result. */
    public Result run() throws Exception {
        return start().await();
    }

    /** A workload op's spec with the test's shard count, which its mix needs (see docs/workloads.md). */
    private static OpSpec withShards(OpSpec spec, Shard shard) {
        if (!spec.name().equals("workload") && !spec.name().equals("postgres") || shard == null) {
            return spec;
        }
        Map<String, List<String>> options = new java.util.LinkedHashMap<>(spec.options());
        options.put("shards", List.of(Integer.toString(shard.count())));
        return new OpSpec(spec.name(), spec.argument(), options);
    }

    /**
     * Starts the test on a thread of its own and returns a handle to it. The op's warm-up and the
     * limiter's set-up happen before the schedule starts.
     */
    public Running start() throws Exception {
        synchronized (this) {
            if (running != null && !running.isDone()) {
                throw new IllegalStateException("this LoadTest is already running (its logs and listeners are"
                        + " the run's): wait for its end (await) before starting it again, or build another");
            }
            Running r = launch();
            running = r.result;
            return r;
        }
    }

    private Running launch() throws Exception {
        RunOptions options = options(); // every setting checked before the op is made (it may connect)
        Op theOp = op != null ? op : Ops.create(withShards(opSpec, shard), clock);
        boolean owned = op == null;
        LoadRun loadRun;
        try {
            if (theOp.threads() < 0) {
                throw new SettingException("threads", Integer.toString(theOp.threads()), "the op's threads() ("
                        + theOp.getClass().getName() + ") must be 0 (no preference) or more");
            }
            if (!threadsGiven && theOp.threads() > 0 && theOp.threads() != threads) {
                options = options(theOp.threads());
            }
            loadRun = new LoadRun(options, theOp, out, err);
        } catch (RuntimeException e) {
            if (owned) {
                theOp.close();
            }
            throw e;
        }
        intervalListeners.forEach(loadRun::addIntervalListener);
        changeListeners.forEach(loadRun.activity()::addChangeListener);
        finishListeners.forEach(loadRun::addFinishListener);
        // an op made here is closed once its last op has ended, before the summary and pages are written: what
        // it holds (an http op's connections: as many descriptors as the limit allows) is then free for them
        AutoCloseable closeOnce = owned ? closingOnce(theOp) : null;
        loadRun.closeBeforeWriting(closeOnce);
        CompletableFuture<Result> result = new CompletableFuture<>();
        clock.start(Thread.ofPlatform().name("pacer-run"), () -> {
            try (AutoCloseable closing = closeOnce) {
                Summary s = loadRun.run();
                result.complete(new Result(s, loadRun.histograms()));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return new Running(loadRun, result);
    }

    /** Closes {@code op} on the first call only (the run closes it early; the run's thread makes sure it is). */
    private static AutoCloseable closingOnce(Op op) {
        java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
        return () -> {
            if (closed.compareAndSet(false, true)) {
                op.close();
            }
        };
    }

    /** The options this builder describes. */
    RunOptions options() {
        return options(threads);
    }

    /** The options this builder describes, with {@code workers} workers at the start. */
    private RunOptions options(int workers) {
        Duration runs = scenario == null ? duration : ScenarioRunner.runDuration(scenario, duration);
        if (scenario != null) {
            ScenarioRunner.check(scenario, limiter, shard); // first: a phase's problem names its line
            ScenarioRunner.checkThreads(scenario, virtualThreads, workers);
            if (pacingTick != null) {
                checkStrictnessWithTick(scenario, pacingTick);
            }
        }
        if (shard != null && scenario == null && rate == null && cycles == 0) { // each would run the whole test
            throw new SettingException("shard", shard.toString(), "needs something for the shards to divide: give "
                    + "${rate} (or a scenario) or ${cycles}");
        }
        ActivityConfig activity = new ActivityConfig(opSpec, workers, virtualThreads, rate, runs, cycles, maxInFlight,
                arrivals, seed, shard, startAt, limiter, pacingTick);
        return reporting.scenario(scenario).clock(clock).build(activity);
    }

    /**
     * Refuses a scenario that sets a strictness other than 0 anywhere, or searches for a knee, with a pacing tick: at
     * the strictness's line in a file, else naming the tick (no other setting the caller gave is at fault).
     */
    private static void checkStrictnessWithTick(Scenario scenario, Duration tick) {
        if (scenario.strictness() != null) {
            try {
                ActivityConfig.checkStrictnessWithTick(scenario.strictness());
            } catch (SettingException e) {
                Integer line = scenario.lines().get("strictness");
                if (line != null) {
                    throw new ScenarioException(scenario.source(), line, "strictness " + e.value() + " " + e.reason());
                }
                throw new SettingException("pacing-tick", Durations.format(tick), "cannot go with scenario "
                        + scenario.name() + "'s strictness " + e.value() + ": a tick makes every op late by up to a"
                        + " tick by design; strictness 0 keeps the rate");
            }
        }
        for (Phase phase : scenario.phases()) {
            try {
                if (phase.strictness() != null) {
                    ActivityConfig.checkStrictnessWithTick(phase.strictness());
                }
                if (phase.rate() instanceof RatePlan.Constant c && c.strictness() != null) {
                    ActivityConfig.checkStrictnessWithTick(c.strictness());
                }
            } catch (SettingException e) { // the phase's own, at its line
                throw new ScenarioException(scenario.source(), phase.line(), "phase '" + phase.name() + "': strictness "
                        + e.value() + " " + e.reason());
            }
            if (phase.rate() instanceof RatePlan.Search) {
                throw new SettingException("pacing-tick", Durations.format(tick), "cannot go with a knee search "
                        + "(${search} or a search phase): its probes are strict (strictness 1), and a tick makes "
                        + "every op late by design");
            }
        }
    }

    /**
     * A test that is running: change it, watch it, wait for it. Thread-safe. During a knee search (from the start of
     * its phase) the search alone sets the rate: {@link #rate}, {@link #strictness}, {@link #threads}, {@link #pause}
     * and {@link #resume} throw an {@link IllegalStateException} saying so, and change nothing; {@link #stop} works.
     */
    public static final class Running {
        private static final String SOURCE = "api";
        /** The signals a run handles (see {@link #handleSignals}), which {@link #signal} plays. */
        private static final List<String> SIGNALS = List.of("SIGINT", "SIGTERM", "SIGHUP");
        private final LoadRun run;
        private final CompletableFuture<Result> result;

        private Running(LoadRun run, CompletableFuture<Result> result) {
            this.run = run;
            this.result = result;
        }

        /**
         * Sets the target rate ({@code 8000}, {@code 8k,0.5}); the schedule goes on from where it is, and the
         * strictness in force stays unless one is given.
         */
        public Change rate(String spec) {
            return apply(ControlAction.of("rate", spec));
        }

        /** Sets the strictness (see {@link RateSpec}). */
        public Change strictness(double strictness) {
            return apply(ControlAction.of("strictness", Double.toString(strictness)));
        }

        /** Sets the number of workers. */
        public Change threads(int threads) {
            return apply(new ControlAction.SetThreads(threads));
        }

        /**
         * Stops granting ops until {@link #resume()}; the paused time is given away. Already paused: nothing changes
         * and nothing is recorded (the change returned has the note {@code nothing changed: already paused}).
         */
        public Change pause() {
            return apply(new ControlAction.Pause());
        }

        /**
         * Grants ops again. Not paused: nothing changes and nothing is recorded (the change returned has the note
         * {@code nothing changed: not paused}).
         */
        public Change resume() {
            return apply(new ControlAction.Resume());
        }

        /** Stops the test: ops in flight get the grace period; a second stop ends it at once. */
        public Change stop() {
            return apply(new ControlAction.Stop());
        }

        /**
         * Runs a console command given as text ({@code rate 8000}, {@code threads 4}, {@code status},
         * {@code help}, ...) and returns its one-line answer ({@code ok: ...}, {@code error: ...}).
         */
        public String execute(String commandLine) {
            return ConsoleControl.answer(run.controller(), commandLine);
        }

        /**
         * As if the process got signal {@code name} ({@code SIGINT}, {@code SIGTERM} or {@code SIGHUP}, the ones a
         * run handles): the first stops the test, a second ends the grace period at once. For a terminal library
         * that catches Ctrl-C itself. Another name is refused ({@link IllegalArgumentException}) and the test goes on.
         */
        public void signal(String name) {
            Objects.requireNonNull(name, "name"); // before the stop: it is recorded with the name
            if (!SIGNALS.contains(name)) {
                throw new IllegalArgumentException("invalid signal '" + SettingException.visible(name) + "': one of "
                        + String.join(", ", SIGNALS));
            }
            run.requestStop(StopReason.SIGNAL, name);
        }

        /** The run's state now, as a status block shows it. */
        public StatusBlock.Facts facts() {
            return run.statusFacts();
        }

        /** The status as the HTTP endpoint's {@code GET /status} gives it. */
        public ObjectNode status() {
            return run.controller().statusJson();
        }

        /** Where the Prometheus endpoint listens, when one was asked for and has started (else null). */
        public java.net.InetSocketAddress metricsAddress() {
            return run.metricsAddress();
        }

        /** Where the control endpoint listens, when one was asked for and has started (else null). */
        public java.net.InetSocketAddress controlAddress() {
            return run.controlAddress();
        }

        /** Called once the test has ended (its summary written), on the thread that ended it. */
        public void onEnd(Runnable action) {
            result.whenComplete((r, t) -> action.run());
        }

        /** Waits for the test's end. */
        public Result await() throws Exception {
            try {
                return result.get();
            } catch (ExecutionException e) {
                throw unwrap(e);
            }
        }

        /**
         * Waits at most {@code timeout} for the test's end (one too long to count in nanoseconds: without end; zero:
         * not at all). A negative timeout is refused ({@link IllegalArgumentException}).
         */
        public Result await(Duration timeout) throws Exception {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("invalid timeout '" + Durations.format(timeout)
                        + "': must not be negative");
            }
            try {
                return result.get(TimeUnit.NANOSECONDS.convert(timeout), TimeUnit.NANOSECONDS); // saturates
            } catch (ExecutionException e) {
                throw unwrap(e);
            } catch (TimeoutException e) {
                throw new TimeoutException("the load test is still running after " + timeout);
            }
        }

        private Change apply(ControlAction action) {
            return run.controller().apply(action, SOURCE);
        }

        private static Exception unwrap(ExecutionException e) {
            return e.getCause() instanceof Exception c ? c : e;
        }
    }

    /**
     * What a test measured: its summary (the same as {@code pacer run --summary}) and the run's wait,
     * service and response histograms (warm-up phases left out), for any percentile or a log of your own.
     *
     * @param summary    the summary
     * @param histograms the measured run's histograms by metric
     */
    public record Result(Summary summary, Map<Metric, Histogram> histograms) {

        /** True when no gate failed and errors were within the allowed ratio. */
        public boolean passed() {
            return summary.passed();
        }

        /** Why it failed, or null. */
        public String failure() {
            return summary.failure();
        }

        /** The histogram of one metric. */
        public Histogram histogram(Metric metric) {
            return histograms.get(metric);
        }
    }
}
