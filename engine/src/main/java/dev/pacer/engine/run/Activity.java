package dev.pacer.engine.run;

import dev.pacer.engine.api.Shard;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.metrics.InFlightOp;
import dev.pacer.engine.metrics.MetricsRegistry;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.RunClock;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A running workload: the op, its workers, the limiter, and the one place that changes them.
 *
 * <p>Activity composes the parts of a run and is the face the rest of the engine sees:
 * <ul>
 *   <li>{@link RunControl}: every change to a running activity (rate, strictness, threads, pause, resume,
 *       stop), whoever asks (console, HTTP control, scenario, signal, API); each returns its {@link Change}.
 *       The limiter's schedule, counters and the metrics continue across every change.</li>
 *   <li>{@link ChangeLog}: the changes, published to the listeners (progress output, .hlog comment,
 *       summary).</li>
 *   <li>{@link WorkerPool}: the worker threads; lowering the thread count retires workers, raising it keeps
 *       retiring ones first.</li>
 *   <li>{@link RunTimeline}: the start-at instant, the start and the deadline on the run's clock.</li>
 * </ul>
 * Activity itself starts the run, warms the op up, holds its metrics and in-flight pool, and knows when the
 * run is done.
 *
 * <h2>Ending</h2>
 * A stop ends the schedule: no op starts after it; workers waiting for a slot are interrupted; ops in
 * flight finish. The reporter gives them a grace period, then cancels what is left
 * ({@link #outstanding()}) and interrupts the workers still in an op ({@link #interruptWorkers()}).
 * {@link #isDone()} is true once every worker has left and no asynchronous op is in flight.
 *
 * <p>Thread-safety: the parts share one lock, this activity's monitor: control methods and the start are
 * synchronized with each other on it; workers never take it but to leave or report a failure. Each part
 * documents its shared fields.
 */
public final class Activity {

    /** The in-flight bound for asynchronous ops when neither the user nor the op gives one. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 1024;

    final Op op;
    /** The op as a mix of named ops, each recorded under its name too; null when it names none. */
    final OpMix mix;
    final CycleSource cycles;
    /** The run's time: every clock read and wait of the activity, its workers and limiter. */
    final RunClock clock;
    /** The start-at instant, the start, the deadline. */
    final RunTimeline timeline;
    /** The worker threads and the gate they wait at. */
    final WorkerPool workers;
    /** The limiter, whether the run goes on or is paused, and every change to them. */
    final RunControl control;
    /** Every change, and the listeners told of each. */
    private final ChangeLog log;
    private final ActivityConfig config;
    private final MetricsRegistry metrics;
    /** Completed once every worker has left and no asynchronous op is in flight. */
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final TargetLedger target = new TargetLedger();
    /** Asynchronous ops only: the in-flight bound. Set once in start(), under the lock; read without it. */
    private volatile InFlightPool pool;
    /**
     * Set (CAS) by the first {@link #warmUpOp()}, which alone then warms the op, outside the lock so that a stop
     * is not held up by it; a later call returns at once.
     */
    private final AtomicBoolean opWarmed = new AtomicBoolean();

    /**
     * @throws IllegalArgumentException when {@code op} is an {@link OpMix} whose names break its promises
     */
    public Activity(ActivityConfig config, Op op, RunClock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.op = Objects.requireNonNull(op, "op");
        List<String> opNames = OpMix.namesOf(op);
        this.mix = opNames.isEmpty() ? null : (OpMix) op;
        this.metrics = new MetricsRegistry(opNames, OpMix.stepsOf(op, opNames.size()));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.timeline = new RunTimeline(this, config, clock);
        this.log = new ChangeLog(this, clock, timeline);
        this.workers = new WorkerPool(this, this, metrics, clock, config.virtualThreads());
        this.control = new RunControl(this, config, clock, target, log, workers, timeline);
        // --cycles is the test's: a shard runs its own of them, none when the test has fewer cycles than shards
        this.cycles = new CycleSource(config.cycles() == 0 ? CycleSource.NO_LIMIT
                : config.shard() == null ? config.cycles() : config.shard().cyclesOf(config.cycles()));
    }

    /**
     * Warms the op up ({@link #warmUpOp()}), then starts the workers; the limiter's schedule begins once they are
     * all up. Returns the start time. A run stopped before it started starts no op.
     *
     * @throws IllegalStateException when started twice, or naming the op's warm-up failure
     * @throws dev.pacer.engine.api.SettingException when the test starts at an instant and had ended before the
     *         warm-ups did
     */
    public long start() {
        warmUpOp();
        config.checkReady(clock.instant()); // the warm-ups may have outlasted a test that starts at an instant
        // A test that starts at an instant (shards starting together) waits for it here, outside the lock, so a
        // stop (Ctrl-C, SIGTERM, a control) ends the wait; one started late counts from that instant all the same,
        // so its first ops are late and catch up like any late caller.
        Long testStart = config.startAt() == null ? null
                : timeline.awaitStartAt(config.startAt(), control::isRunning);
        synchronized (this) {
            timeline.claimStart();
            if (op instanceof AsyncOp async) {
                int capacity = config.maxInFlight() > 0 ? config.maxInFlight()
                        : async.capacity() > 0 ? async.capacity() : DEFAULT_MAX_IN_FLIGHT;
                pool = new InFlightPool(capacity, metrics.attach(true), this::opCompleted, clock,
                        config.pacingTick() == null ? 0 : config.pacingTick().toNanos());
            }
            workers.start(config.threads());
            long startNanos = timeline.start(testStart, control::startPacing);
            target.start(startNanos, config.rate() == null ? Double.NaN
                    : config.share(config.rate()).opsPerSecond());
            control.updateDeadline();
            workers.open();
            timeline.started();
            return startNanos;
        }
    }

    /**
     * Warms the op up ({@link Op#warmUp(java.time.Duration)}: within what is left before the test's start-at
     * instant, less {@link #OP_WARM_UP_MARGIN}, when it has one) unless that was done already; {@link #start()} calls
     * it, and so may a caller that runs something between the op's warm-up and the start (the engine's warm-up). A
     * stop (Ctrl-C, SIGTERM, a control) while it warms interrupts this thread, which ends the op's warm-up at once:
     * what it throws then is the stop's doing, not a failure, and the run starts no op.
     *
     * @throws IllegalStateException naming the op's warm-up failure
     */
    public void warmUpOp() {
        if (!opWarmed.compareAndSet(false, true)) {
            return;
        }
        Thread warming = Thread.currentThread();
        int[] state = {WARMING}; // guarded by itself: no interrupt of ours reaches this thread once it is DONE
        control.addStopListener(() -> {
            synchronized (state) {
                if (state[0] == WARMING) {
                    state[0] = INTERRUPTED;
                    warming.interrupt();
                }
            }
        });
        try {
            if (isRunning()) {
                op.warmUp(opWarmUpBound());
            }
        } catch (Exception e) {
            if (isRunning()) {
                throw new IllegalStateException("the op's warm-up failed: " + e.getMessage(), e);
            }
        } finally {
            synchronized (state) {
                if (state[0] == INTERRUPTED) {
                    Thread.interrupted(); // the stop's interrupt ended the warm-up; it must not end a later wait
                }
                state[0] = DONE;
            }
        }
    }

    /**
     * What the op's warm-up leaves the engine before a start-at instant: its own warm-up (which takes what is left,
     * {@link #untilStartAt}), the workers' start and a collection of the warm-ups' garbage.
     */
    public static final java.time.Duration OP_WARM_UP_MARGIN = java.time.Duration.ofMillis(500);

    /** The op's warm-up's bound ({@link Op#warmUp(java.time.Duration)}): null unless the run starts at an instant. */
    java.time.Duration opWarmUpBound() {
        if (config.startAt() == null) {
            return null;
        }
        java.time.Duration left = untilStartAt().minus(OP_WARM_UP_MARGIN);
        return left.isNegative() ? java.time.Duration.ZERO : left;
    }

    private static final int WARMING = 0;
    private static final int INTERRUPTED = 1;
    private static final int DONE = 2;

    /** The op's own line after the summary ({@link Op#endLine()}), or null; once the ops have ended. */
    public String opEndLine() {
        return op.endLine();
    }

    /** The op's own line about its warm-up ({@link Op#warmUpLine()}), or null; after {@link #warmUpOp()}. */
    public String opWarmUpLine() {
        return opWarmed.get() ? op.warmUpLine() : null;
    }

    /**
     * Waits until the workload has started (control commands that arrive earlier wait for it, so
     * they apply to the running limiter and are logged). False on timeout.
     */
    public boolean awaitStarted(long timeout, TimeUnit unit) throws InterruptedException {
        return timeline.awaitStarted(timeout, unit);
    }

    /** The run's clock. */
    public RunClock clock() {
        return clock;
    }

    /** True once a worker has stopped at the deadline: the run ended by its duration. */
    public boolean deadlineReached() {
        return timeline.deadlineReached;
    }

    /** Monotonic time at which the run ends (no op scheduled then or later starts), or Long.MAX_VALUE. */
    public long deadlineNanos() {
        return timeline.deadlineNanos();
    }

    /** Monotonic time the workload started. */
    public long startNanos() {
        return timeline.startNanos();
    }

    /** What the target asked for over time; the reporter cuts it into intervals. */
    public TargetLedger target() {
        return target;
    }

    /** Called with every change from now on, on the thread that made it. */
    public void addChangeListener(Consumer<Change> listener) {
        log.addListener(listener);
    }

    /**
     * Called first with every change made so far, then with every later one: no change is missed or
     * seen twice, however the two race.
     */
    public void addChangeListenerWithHistory(Consumer<Change> listener) {
        log.addListenerWithHistory(listener);
    }

    /** Every change so far, in order. */
    public List<Change> changes() {
        return log.changes();
    }

    /** The op mix's named ops, whose figures are kept beside the totals; empty for a plain op. */
    public List<String> opNames() {
        return metrics.opNames();
    }

    /** Where the workers record; the reporter drains it. */
    MetricsRegistry metrics() {
        return metrics;
    }

    // --------------------------------------------------------------------------------------------
    // Control (RunControl)

    /**
     * From now on only {@code source} may change the rate, strictness, threads, pause or resume (a knee search,
     * which sets them until the run ends); any other source's change is an {@link IllegalStateException} with
     * {@code reason}, and nothing is recorded. A stop is never refused.
     */
    public void reserveChanges(String source, String reason) {
        control.reserveChanges(source, reason);
    }

    /** Sets the target rate (and strictness, as the spec says); starts pacing an unpaced run. */
    public Change setRate(RateSpec spec, String source) {
        return control.setRate(spec, source);
    }

    /** Sets the target rate; the strictness in force stays (none in force yet: the spec's). */
    public Change setRateKeepingStrictness(RateSpec spec, String source) {
        return control.setRateKeepingStrictness(spec, source);
    }

    /**
     * Retunes the rate without recording a change: for continuous ramps, which record one change when
     * they begin rather than one per retune.
     */
    public void adjustRate(RateSpec spec) {
        control.adjustRate(spec);
    }

    /** Changes the strictness only; needs a rate. */
    public Change setStrictness(double strictness, String source) {
        return control.setStrictness(strictness, source);
    }

    /**
     * Sets the number of workers. Lowering it retires the excess (each runs the op whose slot it holds,
     * then leaves); raising it keeps retiring workers first, then starts new ones.
     */
    public Change setThreads(int threads, String source) {
        return control.setThreads(threads, source);
    }

    /**
     * Stops granting ops until {@link #resume}; the paused time is not released as a burst. Already paused: nothing
     * changes and nothing is recorded (the change returned, with the note {@code nothing changed: already paused}).
     */
    public Change pause(String source) {
        return control.pause(source);
    }

    /**
     * Grants ops again. Not paused: nothing changes and nothing is recorded (the change returned, with the note
     * {@code nothing changed: not paused}).
     */
    public Change resume(String source) {
        return control.resume(source);
    }

    /** Records a knee search's probe (a marker, not a setting). */
    public Change markProbe(String text, String source) {
        return log.markProbe(text, source);
    }

    /**
     * Records the start of a scenario phase (a marker, not a setting) at {@code atNanos}: the reporter's
     * cut there, so the marker and the interval bound agree (not before the run's start).
     */
    public Change markPhase(String label, String source, long atNanos) {
        return log.markPhase(label, source, atNanos);
    }

    /**
     * Stops the run: no new op starts; workers waiting for a slot are woken; ops in flight finish (the
     * reporter gives them a grace period). The first reason wins; a later stop shortens that grace
     * period to nothing (a second Ctrl-C) and is not recorded. A stop before the planned end
     * ({@link StopReason#planned()} is false) is recorded like any other change.
     */
    public Change stop(StopReason reason, String source) {
        return control.stop(reason, source);
    }

    /** Why the run failed inside the engine (a worker's failure outside its op), or null. */
    public String failure() {
        return control.failure();
    }

    /** Called (on the stopping thread) when the run is stopped, and again when a second stop hurries it. */
    public void addStopListener(Runnable listener) {
        control.addStopListener(listener);
    }

    /** Completes (on the thread that made it so) once the last worker has left and the last op completed. */
    public CompletableFuture<Void> whenDone() {
        return done;
    }

    // --------------------------------------------------------------------------------------------
    // State

    /** Why the run stopped, or null while it runs. */
    public StopReason stopReason() {
        return control.stopReason();
    }

    /** Who stopped it ({@code duration}, {@code console}, {@code SIGINT}, ...), or null while it runs. */
    public String stopSource() {
        return control.stopSource();
    }

    /** When it was stopped (monotonic), or 0 while it runs. */
    public long stopNanos() {
        return control.stopNanos();
    }

    /** True once a second stop asked for the grace period to end now. */
    public boolean hurried() {
        return control.hurried();
    }

    public boolean isRunning() {
        return control.isRunning();
    }

    public boolean isPaused() {
        return control.isPaused();
    }

    /** The target rate this process runs (a shard's share of {@link #globalRate()}), or null when unpaced. */
    public RateSpec rate() {
        return control.rate();
    }

    /**
     * The whole test's rate as set (from the command line, a scenario or a control): a shard runs its share,
     * {@link #rate()}.
     */
    public RateSpec globalRate() {
        return control.globalRate();
    }

    /** The thread setting: the workers asked for (retiring ones do not count). */
    public int threads() {
        return workers.threads();
    }

    /** Worker threads started over the run (raising threads again keeps retiring workers first). */
    public int workersStarted() {
        return workers.started();
    }

    /** Workers retired that have not left yet: each finishes the op whose slot it holds. */
    public int retiringThreads() {
        return workers.retiring();
    }

    /** The in-flight bound of asynchronous ops (0 for synchronous ops, or before the run starts). */
    public int inFlightCapacity() {
        InFlightPool p = pool;
        return p == null ? 0 : p.capacity();
    }

    /** How long until the run's start-at instant on its clock: zero when it has none or that has passed. */
    public java.time.Duration untilStartAt() {
        if (config.startAt() == null) {
            return java.time.Duration.ZERO;
        }
        java.time.Duration d = java.time.Duration.between(clock.instant(), config.startAt());
        return d.isNegative() ? java.time.Duration.ZERO : d;
    }

    /** Asynchronous ops started and not yet completed (0 for synchronous ops). */
    public int inFlight() {
        InFlightPool p = pool;
        return p == null ? 0 : p.inFlight();
    }

    public ActivityConfig config() {
        return config;
    }

    /** The limiter's accumulators, or null when unpaced. */
    public LimiterSnapshot limiterSnapshot() {
        return control.limiterSnapshot();
    }

    /** True once every worker has left (asynchronous ops may still be in flight). */
    boolean workersGone() {
        return workers.gone();
    }

    /** True once every worker has left and no asynchronous op is in flight. */
    public boolean isDone() {
        return workers.gone() && inFlight() == 0;
    }

    /** Waits until {@link #isDone()}; false on timeout. */
    public boolean awaitDone(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            done.get(timeout, unit);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The ops started and not yet recorded: each worker's synchronous op, and the asynchronous ones. */
    public List<InFlightOp> outstanding() {
        List<InFlightOp> ops = new ArrayList<>();
        workers.addOutstanding(ops);
        InFlightPool p = pool;
        if (p != null) {
            for (InFlightOp o : p.slots()) {
                if (o.running()) {
                    ops.add(o);
                }
            }
        }
        return ops;
    }

    /** After ops were cancelled: interrupts every worker still alive, so ops that honour interrupts return. */
    public void interruptWorkers() {
        workers.interruptAll();
    }

    /** The grace is over: an asynchronous op's requests it never began to send complete as not-sent. */
    void abandonUnsent() {
        if (op instanceof AsyncOp async) {
            try {
                async.abandonUnsent();
            } catch (RuntimeException e) {
                // the op's own failure: what it held is cancelled with the rest, right after
            }
        }
    }

    /**
     * Waits, on real time and at most {@code nanos}, for every worker to leave: a worker stopped while it waited
     * for an in-flight slot records its op and the slots owed before the end as {@code not-sent} on its way out,
     * which the run's last interval must hold. False when one is still running (an op that ignores interrupts).
     */
    boolean awaitWorkersGone(long nanos) throws InterruptedException {
        return workers.awaitGone(nanos);
    }

    // --------------------------------------------------------------------------------------------
    // Workers

    /** The global cycle number of this process's {@code local}-th op. */
    long cycleOf(long local) {
        Shard shard = config.shard();
        return shard == null ? local : shard.cycle(local);
    }

    /** Asynchronous ops: the in-flight slots (null for synchronous ops). */
    InFlightPool inFlightPool() {
        return pool;
    }

    /** A worker left: once the last has, and no asynchronous op is in flight, the activity is done. */
    void workerExited(Worker w) {
        if (workers.exited(w)) {
            checkDone();
        }
    }

    /** An asynchronous op completed: once the workers have left, the last one makes the activity done. */
    private void opCompleted() {
        if (workers.gone()) {
            checkDone();
        }
    }

    private void checkDone() {
        if (isDone()) {
            done.complete(null);
        }
    }
}
