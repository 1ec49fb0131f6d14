package dev.pacer.engine.internal;

import dev.pacer.engine.api.ControlEndpoint;
import dev.pacer.engine.api.Threshold;
import dev.pacer.engine.hlog.HlogPageRenderer;
import dev.pacer.engine.api.OutputFiles;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.StatusBlock;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.api.StandardStreams;
import dev.pacer.engine.scenario.ScenarioRunner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a {@link LoadRun} needs besides the op: what to run, how it is reported and judged, and
 * how it is controlled while it runs. Immutable; made by a {@link Builder}, where every setting but the
 * activity has a default. {@code LoadTest} keeps its reporting settings in one (the one place they are held) and
 * builds it with the activity at each start; the builder checks them all when it builds, so the order they were
 * given in does not matter.
 */
public final class RunOptions {

    /** Errors may be at most 1 % of ops by default. */
    public static final double DEFAULT_MAX_ERROR_RATIO = 0.01;
    /** One progress line and one log interval a second by default. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    /** The shortest reporting interval. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(10);
    /** How long ops in flight at the end of a run may take to finish, by default. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(10);

    private final ActivityConfig activity;
    private final Duration interval;
    private final Duration grace;
    private final Path hlog;
    private final HlogPageRenderer reportPage;
    private final Path summaryJson;
    private final Path csv;
    private final boolean progress;
    private final boolean announce;
    private final List<Threshold> thresholds;
    private final double maxErrorRatio;
    private final ControlEndpoint control;
    private final ControlEndpoint metrics;
    private final String controlToken;
    private final InputStream console;
    private final Scenario scenario;
    private final boolean handleSignals;
    private final StatusBlock statusBlock;
    private final RunClock clock;
    private final Duration engineWarmUp;
    private final boolean idleCompilerThreads;

    private RunOptions(Builder b, ActivityConfig activity) {
        this.clock = b.clock;
        this.activity = activity;
        this.interval = b.interval;
        this.grace = b.grace;
        this.hlog = b.hlog;
        this.reportPage = b.reportPage;
        this.summaryJson = b.summaryJson;
        this.csv = b.csv;
        this.progress = b.progress;
        this.announce = b.announce;
        this.thresholds = List.copyOf(b.thresholds);
        this.maxErrorRatio = b.maxErrorRatio;
        this.control = b.control;
        this.metrics = b.metrics;
        this.controlToken = b.controlToken;
        this.console = b.console;
        this.scenario = b.scenario;
        this.handleSignals = b.handleSignals;
        this.statusBlock = b.statusBlock;
        this.engineWarmUp = b.engineWarmUp;
        this.idleCompilerThreads = b.idleCompilerThreads;
    }

    /** Options for {@code activity}, every other setting at its default. */
    public static Builder builder(ActivityConfig activity) {
        return new Builder(Objects.requireNonNull(activity, "activity"));
    }

    /** Options whose activity is given when they are built ({@link Builder#build(ActivityConfig)}). */
    public static Builder builder() {
        return new Builder(null);
    }

    /** Options for {@code activity}, every other setting at its default. */
    public static RunOptions of(ActivityConfig activity) {
        return builder(activity).build();
    }

    /** What to run. */
    public ActivityConfig activity() {
        return activity;
    }

    /** Reporting interval: progress lines, log intervals, status. */
    public Duration interval() {
        return interval;
    }

    /**
     * How long ops still in flight when the run's schedule ends (its duration, a stop) may take to finish;
     * those still running then are recorded as cancelled.
     */
    public Duration grace() {
        return grace;
    }

    /** The interval histogram log to write, or null. */
    public Path hlog() {
        return hlog;
    }

    /**
     * What makes the report page of the {@link #hlog()} that the console page offers when the run ends, or
     * null (then it offers the command that makes it).
     */
    public HlogPageRenderer reportPage() {
        return reportPage;
    }

    /** The JSON summary to write, or null. */
    public Path summaryJson() {
        return summaryJson;
    }

    /** The CSV file of per-interval rows to stream, or null. */
    public Path csv() {
        return csv;
    }

    /** Whether a progress line is printed every interval (and each change as it happens). */
    public boolean progress() {
        return progress;
    }

    /** Whether the start lines are printed (what runs, the scenario, the control endpoint). */
    public boolean announce() {
        return announce;
    }

    /** Pass/fail gates. */
    public List<Threshold> thresholds() {
        return thresholds;
    }

    /** The run fails when errors / ops is over this. */
    public double maxErrorRatio() {
        return maxErrorRatio;
    }

    /** Where the HTTP control endpoint listens, or null for none. */
    public ControlEndpoint control() {
        return control;
    }

    /** Where the Prometheus scrape endpoint listens, or null for none. */
    public ControlEndpoint metrics() {
        return metrics;
    }

    /** The bearer token the control and metrics endpoints require, or null. */
    public String controlToken() {
        return controlToken;
    }

    /** Where console commands are read from, or null for none. */
    public InputStream console() {
        return console;
    }

    /** The scenario whose phases the run plays, or null. */
    public Scenario scenario() {
        return scenario;
    }

    /**
     * Whether SIGINT and SIGTERM stop the run cleanly for the run's length: the first stops it (ops in
     * flight get the grace period), a second ends the grace period at once; the summary and files are
     * written either way, and {@link LoadRun#run()} returns. (Off, the JVM's own handling applies.)
     */
    public boolean handleSignals() {
        return handleSignals;
    }

    /**
     * The bound of the engine's warm-up before the run's clock starts ({@code EngineWarmUp}); zero (the default
     * here, the CLI's is {@code EngineWarmUp.DEFAULT_BOUND}) for none.
     */
    public Duration engineWarmUp() {
        return engineWarmUp;
    }

    /**
     * Whether the JIT's compiler threads move to the idle scheduling class once the engine's warm-up is done, for
     * the rest of the process ({@code CompilerThreads}); off by default here, on in the CLI.
     */
    public boolean idleCompilerThreads() {
        return idleCompilerThreads;
    }

    /** The live status block to update every interval (a terminal's view), or null. */
    public StatusBlock statusBlock() {
        return statusBlock;
    }

    /** Builds {@link RunOptions}; each setter checks its value and names it when refused. */
    /** The run's clock: {@link RunClock#system()} unless a test gave a {@link dev.pacer.engine.api.ManualRunClock}. */
    public RunClock clock() {
        return clock;
    }

    public static final class Builder {
        /** The activity given with {@link #builder(ActivityConfig)}, or null. */
        private final ActivityConfig activity;
        private RunClock clock = RunClock.system();
        private Duration interval = DEFAULT_INTERVAL;
        private Duration grace = DEFAULT_GRACE;
        private Path hlog;
        private HlogPageRenderer reportPage;
        private Path summaryJson;
        private Path csv;
        private boolean progress;
        private boolean announce;
        private final List<Threshold> thresholds = new ArrayList<>();
        private double maxErrorRatio = DEFAULT_MAX_ERROR_RATIO;
        private ControlEndpoint control;
        private ControlEndpoint metrics;
        private String controlToken;
        private InputStream console;
        private Scenario scenario;
        private boolean handleSignals;
        private StatusBlock statusBlock;
        private Duration engineWarmUp = Duration.ZERO;
        private boolean idleCompilerThreads;

        private Builder(ActivityConfig activity) {
            this.activity = activity;
        }

        /** Reporting interval, at least {@link #MIN_INTERVAL}. */
        public Builder interval(Duration interval) {
            this.interval = interval;
            return this;
        }

        /** How long ops in flight at the end may take to finish (0: cancel them at once). */
        public Builder grace(Duration grace) {
            this.grace = grace;
            return this;
        }

        public Builder hlog(Path file) {
            this.hlog = file;
            return this;
        }

        /** Makes the report page of the run's log for its console page, at the end (null: none). */
        public Builder reportPage(HlogPageRenderer renderer) {
            this.reportPage = renderer;
            return this;
        }

        public Builder summaryJson(Path file) {
            this.summaryJson = file;
            return this;
        }

        /** Stream one CSV row per interval to {@code file} (see {@code IntervalCsv}). */
        public Builder csv(Path file) {
            this.csv = file;
            return this;
        }

        public Builder progress(boolean progress) {
            this.progress = progress;
            return this;
        }

        public Builder announce(boolean announce) {
            this.announce = announce;
            return this;
        }

        public Builder threshold(Threshold gate) {
            thresholds.add(Objects.requireNonNull(gate, "gate"));
            return this;
        }

        public Builder thresholds(List<Threshold> gates) {
            gates.forEach(this::threshold);
            return this;
        }

        /** The gates given so far, in their order. */
        public List<Threshold> thresholds() {
            return List.copyOf(thresholds);
        }

        /** The largest error ratio that passes, between 0 and 1. */
        public Builder maxErrorRatio(double ratio) {
            this.maxErrorRatio = ratio;
            return this;
        }

        /**
         * The HTTP control endpoint and its bearer token (null for none). An endpoint that listens beyond
         * this machine needs a token.
         */
        public Builder control(ControlEndpoint endpoint, String token) {
            this.control = endpoint;
            this.controlToken = token;
            return this;
        }

        /**
         * The Prometheus scrape endpoint (null for none), under the same rules as the control endpoint:
         * beyond this machine it needs the token given with {@link #control} (or {@link #token}).
         */
        public Builder metrics(ControlEndpoint endpoint) {
            this.metrics = endpoint;
            return this;
        }

        /** The bearer token the control and metrics endpoints require (null for none). */
        public Builder token(String token) {
            this.controlToken = token;
            return this;
        }

        /** Reads console commands ({@code rate 8000}, {@code stop}, ...) from {@code in} until it ends. */
        public Builder console(InputStream in) {
            this.console = in;
            return this;
        }

        /** Plays a scenario's phases; the activity should be the scenario's (see {@code ScenarioRunner}). */
        public Builder scenario(Scenario scenario) {
            this.scenario = scenario;
            return this;
        }

        /** Updates {@code block} every interval, for a terminal to draw. */
        public Builder statusBlock(StatusBlock block) {
            this.statusBlock = block;
            return this;
        }

        /** The clock the run reads and waits on (default {@link RunClock#system()}, the one real runs use). */
        public Builder clock(RunClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Warms the engine for at most {@code bound} before the run's clock starts; zero for no warm-up. */
        public Builder engineWarmUp(Duration bound) {
            this.engineWarmUp = bound;
            return this;
        }

        /** Moves the compiler threads to the idle class after the engine's warm-up ({@link #idleCompilerThreads()}). */
        public Builder idleCompilerThreads(boolean idle) {
            this.idleCompilerThreads = idle;
            return this;
        }

        public Builder handleSignals(boolean handle) {
            this.handleSignals = handle;
            return this;
        }

        /** The options, for the activity given with {@link #builder(ActivityConfig)}. */
        public RunOptions build() {
            if (activity == null) {
                throw new IllegalStateException("no activity: build(ActivityConfig)");
            }
            return build(activity);
        }

        /**
         * The options for {@code activity}, every setting checked: a bad one is a {@link SettingException} naming it.
         * The builder can build again (a test started twice).
         */
        public RunOptions build(ActivityConfig activity) {
            Objects.requireNonNull(activity, "activity");
            if (interval == null) {
                throw new SettingException("interval", "null", "must be given (a duration of at least 10ms)");
            }
            if (interval.compareTo(MIN_INTERVAL) < 0) {
                throw new SettingException("interval", Durations.format(interval), "must be at least 10ms");
            }
            checkNotTooLong("interval", interval);
            if (scenario != null) {
                ScenarioRunner.checkHold(scenario, interval);
            }
            if (grace == null) {
                throw new SettingException("grace", "null", "must be given (a duration, 0 or more)");
            }
            if (grace.isNegative()) {
                throw new SettingException("grace", Durations.format(grace), "must not be negative");
            }
            checkNotTooLong("grace", grace);
            if (!(maxErrorRatio >= 0 && maxErrorRatio <= 1)) {
                throw new SettingException("max-error-ratio", Double.toString(maxErrorRatio), "must be between 0 and "
                        + "1");
            }
            ControlEndpoint.checkToken("control-token", controlToken);
            checkOwnFiles();
            if (control != null && !control.isLoopback() && controlToken == null) {
                throw new SettingException("control", control.text(),
                        "listens beyond this machine, so it needs ${control-token}");
            }
            if (engineWarmUp == null) {
                throw new SettingException("engine-warm-up", "null", "must be given (a duration, 0 or more)");
            }
            if (engineWarmUp.isNegative()) {
                throw new SettingException("engine-warm-up", Durations.format(engineWarmUp), "must not be negative");
            }
            checkNotTooLong("engine-warm-up", engineWarmUp);
            if (metrics != null && !metrics.isLoopback() && controlToken == null) {
                throw new SettingException("metrics", metrics.text(),
                        "listens beyond this machine, so it needs ${control-token}");
            }
            return new RunOptions(this, activity);
        }

        /**
         * Refuses an output (the log, the CSV, the summary) that cannot be written ({@link OutputFiles#checkWritable}),
         * and two naming one regular file, by its absolute path with links
         * resolved as far as the file exists: the one written last would leave nothing of the other. A device, a pipe
         * ({@code /dev/null}) or one of the process's streams ({@code /dev/stdout}, even when the shell sent it to a
         * file: each output appends to it, see {@link StandardStreams}) may take several.
         */
        private void checkOwnFiles() {
            Map<Path, String> seen = new HashMap<>();
            Map<String, Path> outputs = new LinkedHashMap<>();
            outputs.put("hlog", hlog);
            outputs.put("csv", csv);
            outputs.put("summary", summaryJson);
            outputs.forEach((setting, file) -> {
                if (file != null) {
                    OutputFiles.checkWritable(setting, file); // now: at the run's end what it measured would be lost
                }
                boolean shareable = file == null || StandardStreams.isStream(file)
                        || Files.exists(file) && !Files.isRegularFile(file);
                if (shareable) {
                    return;
                }
                String other = seen.putIfAbsent(resolved(file), setting);
                if (other != null) {
                    throw new SettingException(setting, file.toString(), "${" + other + "} writes the same file; give"
                            + " each its own");
                }
            });
        }

        /** {@code file} absolute, with the links of its longest part that exists resolved. */
        private static Path resolved(Path file) {
            Path abs = file.toAbsolutePath().normalize();
            for (Path p = abs; p != null; p = p.getParent()) {
                try {
                    return p.toRealPath().resolve(p.relativize(abs));
                } catch (IOException notThere) {
                    // try its folder
                }
            }
            return abs;
        }

        /** Refuses a duration over {@link Durations#MAX}: its nanoseconds, which the run counts in, would overflow. */
        private static void checkNotTooLong(String setting, Duration d) {
            if (d.compareTo(Durations.MAX) > 0) {
                throw new SettingException(setting, Durations.format(d), "too long: at most " + Durations.MAX_TEXT);
            }
        }
    }
}
