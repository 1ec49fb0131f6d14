package dev.pacer.engine.scenario;

import dev.pacer.engine.api.Phase;
import dev.pacer.engine.api.RatePlan;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.ScenarioException;

import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Knee;
import dev.pacer.engine.run.Activity;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.run.Reporter;
import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.api.Shard;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Plays a scenario's phases on a running load: at each phase start it sets threads, strictness and rate,
 * and the reporter, told of the boundary a phase ahead, cuts the interval there and marks the phase;
 * during a ramp it retunes the limiter every {@link #RETUNE} to the line's value at the middle of the
 * next slice of time, so each interval's rate follows the line; on a staircase it changes the rate at
 * each step. The limiter is only reconfigured, never reset, so the schedule, counts and histograms continue. The run
 * itself ends when
 * the last phase does: its duration is the scenario's ({@link #runDuration}). From the start of a knee search's
 * phase the search alone changes the rate, strictness, threads and pause ({@link #SEARCH_OWNS_THE_RATE}).
 */
public final class ScenarioRunner {

    /** How often a ramp retunes the rate. */
    static final Duration RETUNE = Duration.ofMillis(10);
    /** The source the scenario's changes are recorded with. */
    static final String SOURCE = "scenario";
    /** Why a change from elsewhere (the API, the console, the control endpoint) is refused during a knee search. */
    public static final String SEARCH_OWNS_THE_RATE = "the knee search sets the rate until it ends: a change of rate,"
            + " strictness, threads or pause would be judged as its probe's (stop ends the run)";

    private final Scenario scenario;
    private final Activity activity;
    private final Reporter reporter;
    private final Consumer<String> failure;
    /** The phase being played, for a failure's message; the scenario's thread only. */
    private Phase current;
    /** The last phase's knee search, or null. */
    private final KneeSearch search;

    /**
     * Plays {@code scenario} on {@code activity}, telling {@code reporter} where each phase begins; a phase that
     * fails (a rate its limiter refuses, when {@link #check} was not asked first) is handed to {@code failure},
     * one line, and the scenario ends there.
     */
    public ScenarioRunner(Scenario scenario, Activity activity, Reporter reporter, Consumer<String> failure) {
        this.scenario = scenario;
        this.activity = activity;
        this.reporter = reporter;
        this.failure = failure;
        Phase last = scenario.phases().get(scenario.phases().size() - 1);
        if (last.rate() instanceof RatePlan.Search plan) {
            // probes are strict unless told otherwise: a broken probe's backlog must not spill into the next
            double strictness = last.strictness() != null ? last.strictness()
                    : scenario.strictness() != null ? scenario.strictness() : 1.0;
            search = new KneeSearch(plan, activity, rate -> new RateSpec(rate, strictness), SOURCE);
            reporter.addListener(search::interval);
        } else {
            search = null;
        }
    }

    /** The knee search's result, or null when the scenario has none. */
    public Knee knee() {
        return search == null ? null : search.result();
    }

    /** The spec the first phase starts at: the run's initial rate. */
    public static RateSpec initialRate(Scenario s) {
        return spec(s, s.phases().get(0), s.phases().get(0).rate().rateAt(Duration.ZERO));
    }

    /** The threads the first phase starts with. */
    public static int initialThreads(Scenario s, int fallback) {
        Phase first = s.phases().get(0);
        return first.threads() != null ? first.threads() : s.threads() != null ? s.threads() : fallback;
    }

    /** The run's duration: the scenario's, or {@code cap} when that is shorter (a --duration given with it). */
    public static Duration runDuration(Scenario s, Duration cap) {
        return cap != null && cap.compareTo(s.totalDuration()) < 0 ? cap : s.totalDuration();
    }

    /** Starts playing on a daemon thread; the first phase is marked before the run's first interval. */
    public void start() {
        Phase first = scenario.phases().get(0);
        if (first.rate() instanceof RatePlan.Search) {
            activity.reserveChanges(SOURCE, SEARCH_OWNS_THE_RATE); // before the run starts: no change slips in first
        }
        CompletableFuture<Void> firstCut = reporter.beginPhase(first.name(), first.warmup(), SOURCE);
        activity.clock().start(Thread.ofPlatform().name("pacer-scenario").daemon(true), () -> play(firstCut));
    }

    /** Plays the phases; {@code firstCut} completes when the reporter has begun the first. */
    private void play(CompletableFuture<Void> firstCut) {
        try {
            if (!activity.awaitStarted(60, TimeUnit.SECONDS)) {
                return;
            }
            long phaseStart = activity.startNanos();
            List<Phase> phases = scenario.phases();
            CompletableFuture<Void> cut = firstCut; // the reporter's cut at the start of the phase announced last
            for (int i = 0; i < phases.size(); i++) {
                Phase p = phases.get(i);
                current = p;
                if (!activity.isRunning()) {
                    return;
                }
                if (p.rate() instanceof RatePlan.Search) {
                    activity.reserveChanges(SOURCE, SEARCH_OWNS_THE_RATE);
                }
                // the new rate first, at the boundary: the system under test sees the schedule change on
                // time; the reporter cuts there by itself (announced below) and counts what was asked in it
                // (TargetLedger)
                applyPhaseStart(activity, p, i == 0);
                reporter.awaitCut(cut); // before announcing the next: one phase is pending at a time
                long end = phaseStart + p.duration().toNanos();
                if (i + 1 < phases.size()) {
                    Phase next = phases.get(i + 1);
                    cut = reporter.beginPhaseAt(next.name(), next.warmup(), SOURCE, end);
                }
                switch (p.rate()) {
                    case RatePlan.Ramp ramp -> playRamp(activity, p, phaseStart, end);
                    case RatePlan.Steps steps -> playSteps(activity, p, steps, phaseStart, end);
                    case RatePlan.Constant c -> sleepUntil(activity, end);
                    case RatePlan.Search plan -> {
                        search.play();
                        activity.stop(StopReason.SEARCH, SOURCE);
                    }
                }
                phaseStart = end;
            }
            // the run's duration is the scenario's (see runDuration), so it ends there by itself
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            Phase p = current;
            failure.accept("scenario " + scenario.name() + (p == null ? "" : ", phase " + p.name()) + ": "
                    + e.getMessage());
        }
    }

    /**
     * Checks every phase against the run's limiter design before anything runs, so no phase fails midway: each
     * rate a phase reaches (a ramp's and a staircase's ends) builds the design, a design other than the atomic
     * one takes no strictness, and a knee search needs the atomic limiter (its probes are strict). A shard
     * builds its share of each rate ({@code shard} null: the whole).
     *
     * @throws ScenarioException naming the phase's file and line
     * @throws SettingException  for a knee search with another design
     */
    public static void check(Scenario s, LimiterDesign design, Shard shard) {
        for (Phase p : s.phases()) {
            if (p.rate() instanceof RatePlan.Search) {
                if (!design.isAtomic()) {
                    throw new SettingException("limiter", design.toString(), "cannot run a knee search (${search} or a"
                            + " search phase): its probes are strict, and only the atomic limiter has a strictness");
                }
                continue;
            }
            double[] ends = switch (p.rate()) {
                case RatePlan.Constant c -> new double[] {c.rate()};
                case RatePlan.Ramp r -> new double[] {r.from(), r.to()};
                case RatePlan.Steps st -> new double[] {st.from(), st.rateAt(st.length())};
                case RatePlan.Search x -> new double[0];
            };
            for (double rate : ends) {
                RateSpec spec = spec(s, p, rate);
                String at = "phase '" + p.name() + "' at "
                        + java.math.BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString()
                        + " ops/s: ";
                if (!design.isAtomic() && spec.strictness() != RateSpec.DEFAULT_STRICTNESS) {
                    throw new ScenarioException(s.source(), p.line(), at + "its strictness is "
                            + java.math.BigDecimal.valueOf(spec.strictness()).stripTrailingZeros().toPlainString()
                            + (fromScenario(p) ? " (the scenario's)" : "") + ", but the " + design.name()
                            + " limiter has no strictness (it applies to the atomic limiter only)");
                }
                try {
                    design.check(ActivityConfig.share(shard, spec));
                } catch (IllegalArgumentException e) {
                    throw new ScenarioException(s.source(), p.line(), at + e.getMessage());
                }
            }
        }
    }

    /**
     * Refuses a knee search whose hold the reporting {@code interval} cannot judge on time (see {@link
     * RatePlan.Search#checkInterval}): in a file at the search phase's line, else (a search made by {@link
     * Scenarios#search}) naming the hold.
     *
     * @throws ScenarioException naming the phase's file and line
     * @throws SettingException  naming the hold, for a scenario without a file
     */
    public static void checkHold(Scenario s, Duration interval) {
        for (Phase p : s.phases()) {
            if (p.rate() instanceof RatePlan.Search plan) {
                try {
                    plan.checkInterval(interval);
                } catch (SettingException e) {
                    if (Scenarios.SEARCH_SOURCE.equals(s.source())) {
                        throw e;
                    }
                    throw new ScenarioException(s.source(), p.line(), "phase '" + p.name() + "': " + e.getMessage());
                }
            }
        }
    }

    /**
     * Refuses a phase's threads beyond what the run's kind of thread allows ({@code virtual} or platform threads),
     * before anything runs: the file allows up to the virtual threads' bound. So too the file's own {@code threads}
     * when the run starts with them ({@code workers}, not another count given beside the file).
     *
     * @throws ScenarioException naming the phase's (or the setting's) file and line
     */
    public static void checkThreads(Scenario s, boolean virtual, int workers) {
        Integer line = s.lines().get("threads");
        if (s.threads() != null && s.threads() == workers && line != null) {
            try {
                ActivityConfig.checkThreads(workers, virtual);
            } catch (SettingException e) {
                throw new ScenarioException(s.source(), line, e.getMessage());
            }
        }
        for (Phase p : s.phases()) {
            if (p.threads() != null) {
                try {
                    ActivityConfig.checkThreads(p.threads(), virtual);
                } catch (SettingException e) {
                    throw new ScenarioException(s.source(), p.line(), "phase '" + p.name() + "': " + e.getMessage());
                }
            }
        }
    }

    private void applyPhaseStart(Activity activity, Phase p, boolean first) {
        if (p.threads() != null && p.threads() != activity.threads()) {
            activity.setThreads(p.threads(), SOURCE);
        }
        RateSpec spec = spec(scenario, p, p.rate().rateAt(Duration.ZERO));
        if (p.rate() instanceof RatePlan.Search || first && spec.equals(activity.globalRate())) {
            return; // the run started at it
        }
        activity.setRate(spec, SOURCE);
    }

    private void playRamp(Activity activity, Phase p, long phaseStart, long end) {
        long step = RETUNE.toNanos();
        for (long t = phaseStart + step; t < end && activity.isRunning(); t += step) {
            sleepUntil(activity, t);
            long mid = Math.min(t + step / 2, end) - phaseStart;
            activity.adjustRate(spec(scenario, p, p.rate().rateAt(Duration.ofNanos(mid))));
        }
        sleepUntil(activity, end);
    }

    private void playSteps(Activity activity, Phase p, RatePlan.Steps steps, long phaseStart, long end) {
        for (int k = 1; k < steps.count(); k++) {
            long at = phaseStart + steps.every().toNanos() * k;
            if (at >= end) {
                break;
            }
            sleepUntil(activity, at);
            if (activity.isRunning()) {
                activity.setRate(spec(scenario, p, steps.from() + k * steps.by()), SOURCE);
            }
        }
        sleepUntil(activity, end);
    }

    /** Whether a phase's strictness is the scenario's: neither the phase nor its constant rate sets one. */
    private static boolean fromScenario(Phase p) {
        return p.strictness() == null && !(p.rate() instanceof RatePlan.Constant c && c.strictness() != null);
    }

    private static RateSpec spec(Scenario s, Phase p, double rate) {
        Double strictness = p.rate() instanceof RatePlan.Constant c && c.strictness() != null ? c.strictness()
                : p.strictness() != null ? p.strictness()
                : s.strictness() != null ? s.strictness() : RateSpec.DEFAULT_STRICTNESS;
        return new RateSpec(rate, strictness);
    }

    private static void sleepUntil(Activity activity, long deadline) {
        RunClock clock = activity.clock();
        for (long left = deadline - clock.nanoTime(); left > 0 && activity.isRunning();
                left = deadline - clock.nanoTime()) {
            clock.park(Math.min(left, 50_000_000));
        }
    }

    /** One line about the scenario for the start of a run that lasts {@code runs} (null: the whole scenario). */
    public static String describe(Scenario s, Duration runs) {
        int n = s.phases().size();
        return "scenario " + s.name() + ": " + n + (n == 1 ? " phase, " : " phases, ")
                + Durations.format(s.totalDuration())
                + (runs == null || runs.compareTo(s.totalDuration()) >= 0 ? "" : ", cut to " + Durations.format(runs));
    }
}
