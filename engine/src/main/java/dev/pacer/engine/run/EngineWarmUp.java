package dev.pacer.engine.run;

import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.JitSettling;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The engine's warm-up: before a run's clock starts, the code it executes per op (the limiter's acquire, the
 * worker loop, the in-flight pool, the recorders, the reporter's swap and merge) runs for a while on a private
 * {@link Activity} and {@link Reporter} of the same shape (workers, rate, limiter design, arrivals, in-flight
 * bound) around a stand-in op that does nothing, so the JIT has compiled it when the first scheduled op comes.
 * Measured without it (JDK 25, 2 cores): at 1M ops/s the first 100 ms interval's wait p99 was ~100 ms, and
 * ~300 compilations of the run's code (a third of them replacing code made not entrant) fell in the run's
 * first second.
 *
 * <p>Off the record: the private activity has its own limiter, recorders and reporter, which are dropped;
 * the real op is never called (an op warms itself in {@link Op#warmUp()}, the http op against a private
 * server); the real activity's limiter does not exist yet (it is made in {@link Activity#start()}), so its
 * schedule starts untouched.
 *
 * <p>Bounded: it runs at least {@link #MIN_LENGTH} (when the bound allows), then stops as soon as the JIT has
 * settled ({@link JitSettling.Watch}: it compiled for under {@value JitSettling#QUIET_MILLIS} ms in each of the last
 * two rounds, a slow and a full one), and
 * at the bound at the latest; a stop of the real activity (Ctrl-C) ends it at once.
 */
public final class EngineWarmUp {

    /** The bound when none is given: measured to settle the JIT at 1M ops/s on 2 loaded cores. */
    public static final Duration DEFAULT_BOUND = Duration.ofMillis(1500);
    /** The least it runs (when its bound allows): the JIT's first tier needs some thousand calls to start. */
    static final Duration MIN_LENGTH = Duration.ofMillis(400);
    /** The length of one round (one private activity); the JIT is looked at after each. */
    static final Duration STEP = Duration.ofMillis(100);
    /** Its private reporter's interval: short, so that the swap and merge run often enough to be compiled. */
    static final Duration CUT = Duration.ofMillis(10);
    /** More workers than this add nothing to warm (above 64 the recorders are the shared kind either way). */
    static final int MAX_THREADS = 128;

    private EngineWarmUp() {
    }

    /**
     * What a warm-up did.
     *
     * @param ops     stand-in ops it ran (none of the real op)
     * @param seconds how long it ran, on the private activity's clock
     * @param settled   whether it ended because the JIT had settled (else at its bound, or stopped)
     * @param stoppedBy who stopped the real run during it ({@code SIGINT}, {@code api}, ...; "" when not known),
     *                  which ended it; null when it ran to its end
     */
    public record Result(long ops, double seconds, boolean settled, String stoppedBy) {

        /** A warm-up that ran to its end: the JIT settled, or its bound. */
        public Result(long ops, double seconds, boolean settled) {
            this(ops, seconds, settled, null);
        }

        /**
         * Its start line: {@code pacer: engine warm-up 620ms off the record (310,000 stand-in ops), JIT settled}; it
         * ends {@code stopped at its bound}, or {@code stopped by SIGINT} when a stop of the run ended it.
         */
        public String startLine() {
            String end = stoppedBy == null ? (settled ? "JIT settled" : "stopped at its bound")
                    : stoppedBy.isEmpty() ? "stopped" : "stopped by " + stoppedBy;
            return String.format(Locale.ROOT, "pacer: engine warm-up %s off the record (%,d stand-in ops), %s",
                    Durations.format(seconds * 1e9), ops, end);
        }
    }

    /**
     * Warms the engine for {@code real}, which must not have started; returns null when {@code bound} is zero
     * (no warm-up) or the activity was stopped before it began.
     *
     * <p>It runs in rounds of {@link #STEP}, each a fresh private activity as the real run will be (new workers,
     * a new limiter and grants, an end by its deadline: paths a single long round would take once, before the JIT
     * profiles them, and the real run's first op would then throw the compiled code away). A paced run alternates
     * between a tenth of its rate and all of it: at the rate a loaded machine's warm-up runs behind and its workers
     * never wait, and the real run, on time from its first slot, would find the limiter's waiting paths missing
     * from the compiled code (seen: its acquire, claim and grant deoptimised at the first op).
     */
    public static Result before(Activity real, Duration bound) {
        return before(real, bound, List.of());
    }

    /**
     * As {@link #before(Activity, Duration)}, with {@code sinks} called for each of the private reporter's
     * intervals as the run's own sinks will be for its: a sink of the same kind writing into nothing (an hlog, a
     * CSV), so its code is compiled too. Measured at 20 000 req/s with {@code --hlog}: the log's encoding was
     * compiled in the run's first 0.5 s (45-50 ms of C2 on a compiler thread), and the run's first 2 s compiled for
     * 108-195 ms in all; with these sinks, 23-41 ms.
     */
    public static Result before(Activity real, Duration bound, List<Consumer<IntervalReport>> sinks) {
        Objects.requireNonNull(real, "real");
        if (bound.isZero() || bound.isNegative() || !real.isRunning()) {
            return null;
        }
        ActivityConfig config = real.config();
        RateSpec full = config.rate() == null ? null : config.share(config.rate());
        RateSpec slow = full == null ? null : tenth(full);
        long minRounds = Math.max(1, Math.min(MIN_LENGTH.toMillis(), bound.toMillis()) / STEP.toMillis());
        long maxRounds = Math.max(1, bound.toMillis() / STEP.toMillis());
        ExecutorService completer = Executors.newSingleThreadExecutor(
                r -> Thread.ofPlatform().name("pacer-engine-warm-up-completer").daemon(true).unstarted(r));
        try {
            return rounds(real, config, full, slow, new JitSettling.Watch(), minRounds, maxRounds, completer, sinks);
        } finally {
            completer.shutdownNow();
        }
    }

    private static Result rounds(Activity real, ActivityConfig config, RateSpec full, RateSpec slow,
                                 JitSettling.Watch jit, long minRounds, long maxRounds,
                                 Executor completer, List<Consumer<IntervalReport>> sinks) {
        long ops = 0;
        long nanos = 0;
        for (long round = 1; round <= maxRounds && real.isRunning(); round++) {
            // the JIT compiles in real time: the warm-up runs on the system clock whatever the run's clock
            Activity warm = new Activity(privateConfig(config, round % 2 == 1 && slow != null ? slow : full),
                    standIn(real.op, real.opNames(), round, completer), dev.pacer.engine.api.RunClock.system());
            real.addStopListener(() -> warm.stop(StopReason.SIGNAL, "warm-up")); // dropped with the real run
            if (!real.isRunning()) {
                break;
            }
            Reporter reporter = new Reporter(warm, CUT, Duration.ofSeconds(1));
            sinks.forEach(reporter::addListener);
            Reporter.Measurement m = reporter.run();
            ops += m.figures().ops();
            nanos += Math.max(0, warm.stopNanos() - warm.startNanos());
            if (!real.isRunning()) {
                break; // the stop ended this round: it is what ended the warm-up, whatever the JIT did
            }
            boolean settled = jit.settled(); // a look after every round, so two rounds in a row count
            if (settled && round >= minRounds) {
                return new Result(ops, nanos / 1e9, true);
            }
        }
        // the source is set just after the run turns stopped: a stop that lands here may not show it yet ("")
        return new Result(ops, nanos / 1e9, false, real.isRunning() ? null
                : Objects.requireNonNullElse(real.stopSource(), ""));
    }

    /** A tenth of {@code rate}, or null where that is below the least rate there is (then every round runs at it). */
    static RateSpec tenth(RateSpec rate) {
        try {
            return rate.withRate(rate.opsPerSecond() / 10);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The real activity's shape, alone (no shard, no start instant, no cycle limit), at {@code rate} (a design that
     * refuses it runs at the real share) for one {@link #STEP}.
     */
    static ActivityConfig privateConfig(ActivityConfig c, RateSpec rate) {
        RateSpec share = c.rate() == null ? null : c.share(c.rate());
        try {
            return new ActivityConfig(c.op(), Math.min(c.threads(), MAX_THREADS), c.virtualThreads(), rate, STEP, 0,
                    c.maxInFlight(), c.arrivals(), null, null, null, c.limiter(), c.pacingTick());
        } catch (IllegalArgumentException e) {
            return new ActivityConfig(c.op(), Math.min(c.threads(), MAX_THREADS), c.virtualThreads(), share, STEP, 0,
                    c.maxInFlight(), c.arrivals(), null, null, null, c.limiter(), c.pacingTick());
        }
    }

    /**
     * An op of the same kind as {@code op} (synchronous or asynchronous, with its in-flight bound; a mix of as many
     * named ops, {@code opNames}, each cycle of the next one, so the per-op recording is compiled too) that does
     * nothing; one of three classes by {@code round}, so the worker's call of the op has seen three kinds of op when
     * the real one comes and is compiled as a call to any (two would be inlined, and the real op would make it
     * deoptimise). Asynchronous ones complete at once on the worker, or (two rounds in three) on {@code completer}'s
     * thread, as a real op completes on its event loop: the in-flight pool's hand-off between threads is compiled too
     * (warmed with inline completions only, its poll, its slot's completion and its queue's offer were deoptimised at
     * the http op's first completions).
     */
    static Op standIn(Op op, List<String> opNames, long round, Executor completer) {
        if (op instanceof AsyncOp async) {
            int capacity = async.capacity();
            return switch ((int) (round % 3)) {
                case 0 -> new AsyncStandIn(capacity, opNames);
                case 1 -> new AsyncStandIn2(capacity, opNames, completer);
                default -> new AsyncStandIn3(capacity, opNames, completer);
            };
        }
        return switch ((int) (round % 3)) {
            case 0 -> new StandIn(opNames);
            case 1 -> new StandIn2(opNames);
            default -> new StandIn3(opNames);
        };
    }

    /** A synchronous op that does nothing, a mix of its names (none: a plain op). */
    static class StandIn implements Op, OpMix {
        private final List<String> opNames;

        StandIn(List<String> opNames) {
            this.opNames = opNames;
        }

        @Override
        public Outcome run(long cycle) {
            return Outcome.OK;
        }

        @Override
        public List<String> opNames() {
            return opNames;
        }

        @Override
        public int opOf(long cycle) {
            return opNames.isEmpty() ? NO_OP : (int) Long.remainderUnsigned(cycle, opNames.size());
        }
    }

    /** The second class of {@link StandIn}. */
    static final class StandIn2 extends StandIn {
        StandIn2(List<String> opNames) {
            super(opNames);
        }

        @Override
        public Outcome run(long cycle) {
            return Outcome.OK;
        }
    }

    /** The third class of {@link StandIn}. */
    static final class StandIn3 extends StandIn {
        StandIn3(List<String> opNames) {
            super(opNames);
        }

        @Override
        public Outcome run(long cycle) {
            return Outcome.OK;
        }
    }

    /** An asynchronous op that completes at once, on the worker's thread; a mix of its names (none: a plain op). */
    static class AsyncStandIn implements AsyncOp, OpMix {
        private final int capacity;
        private final List<String> opNames;

        AsyncStandIn(int capacity, List<String> opNames) {
            this.capacity = capacity;
            this.opNames = opNames;
        }

        @Override
        public void start(long cycle, Completion completion) {
            completion.complete(Outcome.OK);
        }

        @Override
        public int capacity() {
            return capacity;
        }

        @Override
        public List<String> opNames() {
            return opNames;
        }

        @Override
        public int opOf(long cycle) {
            return opNames.isEmpty() ? NO_OP : (int) Long.remainderUnsigned(cycle, opNames.size());
        }
    }

    /** The second class of {@link AsyncStandIn}: completes on another thread. */
    static final class AsyncStandIn2 extends AsyncStandIn {
        private final Executor completer;

        AsyncStandIn2(int capacity, List<String> opNames, Executor completer) {
            super(capacity, opNames);
            this.completer = completer;
        }

        @Override
        public void start(long cycle, Completion completion) {
            completer.execute(() -> completion.complete(Outcome.OK));
        }
    }

    /** The third class of {@link AsyncStandIn}: completes on another thread. */
    static final class AsyncStandIn3 extends AsyncStandIn {
        private final Executor completer;

        AsyncStandIn3(int capacity, List<String> opNames, Executor completer) {
            super(capacity, opNames);
            this.completer = completer;
        }

        @Override
        public void start(long cycle, Completion completion) {
            completer.execute(() -> completion.complete(Outcome.OK));
        }
    }
}
