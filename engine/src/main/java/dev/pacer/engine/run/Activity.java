package dev.pacer.engine.run;

import dev.pacer.engine.event.Change;
import dev.pacer.engine.event.ChangeKind;
import dev.pacer.engine.event.StopReason;
import dev.pacer.engine.metrics.InFlightOp;
import dev.pacer.engine.metrics.MetricsRegistry;
import dev.pacer.engine.op.AsyncOp;
import dev.pacer.engine.op.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.ratelimit.LimiterSnapshot;
import dev.pacer.ratelimit.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import dev.pacer.engine.time.RunClock;

/**
 * A running workload: the op, its workers, the limiter, and the one place that changes them.
 *
 * <p>Every change to a running activity (rate, strictness, threads, pause, resume, stop) goes through
 * the synchronized methods here, whoever asks (console, HTTP control, scenario, signal, API); each
 * returns its {@link Change} and publishes it to the listeners (progress output, .hlog comment,
 * summary). The limiter's schedule, counters and the metrics continue across every change.
 *
 * <h2>Workers</h2>
 * Lowering the thread count retires the excess workers: each runs the op whose slot it already holds
 * (slots handed out keep their times) and leaves. Raising it keeps retiring workers that have not left
 * yet before it starts new ones, so lowering and raising again does not pile up threads. A stop reaches
 * every worker still alive, retiring ones included.
 *
 * <h2>Ending</h2>
 * A stop ends the schedule: no op starts after it; workers waiting for a slot are interrupted; ops in
 * flight finish. The reporter gives them a grace period, then cancels what is left
 * ({@link #outstanding()}) and interrupts the workers still in an op ({@link #interruptWorkers()}).
 * {@link #isDone()} is true once every worker has left and no asynchronous op is in flight.
 *
 * <p>Thread-safety: control methods are synchronized with each other; workers never take the lock.
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
    /** The limiter, or null when unpaced. Written under the lock, read by workers once per op. */
    volatile RateLimiter limiter;
    /** The whole test's rate as last set, of which a shard's limiter runs its share; null when unpaced. Under the lock. */
    private RateSpec globalRate;
    /** False once stopped. Written under the lock, read by workers once per op. */
    volatile boolean running = true;
    /** The start-at instant, the start, the deadline. */
    final RunTimeline timeline;
    /** Every change, and the listeners told of each. */
    private final ChangeLog log;
    /** Why the run stopped (the first reason given), or null while it runs. Written under the lock. */
    private volatile StopReason stopReason;
    private volatile String stopSource;
    /** When the stop came (monotonic), or 0 while running. */
    private volatile long stopNanos;
    /** Set by a second stop (a second Ctrl-C): end the grace period now. */
    private volatile boolean hurried;
    /** Why a worker failed outside its op, or null. Under the lock. */
    private String failure;
    /** Workers wait while true (see {@link #awaitUnpaused}); paced runs pause their limiter too. */
    private volatile boolean paused;

    private final ActivityConfig config;
    private final MetricsRegistry metrics;
    /** The worker threads and the gate they wait at. */
    final WorkerPool workers;
    /** Completed once every worker has left and no asynchronous op is in flight. */
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final List<Runnable> stopListeners = new CopyOnWriteArrayList<>();
    private final TargetLedger target = new TargetLedger();
    /** Asynchronous ops only: the in-flight bound. Set once in start(). */
    private volatile InFlightPool pool;
    /**
     * Set (CAS) by the first {@link #warmUpOp()}, which alone then warms the op, outside the lock so that a stop
     * is not held up by it; a later call returns at once.
     */
    private final java.util.concurrent.atomic.AtomicBoolean opWarmed = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @throws IllegalArgumentException when {@code op} is an {@link OpMix} whose names break its promises
     */
    public Activity(ActivityConfig config, Op op, RunClock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.op = Objects.requireNonNull(op, "op");
        List<String> opNames = OpMix.namesOf(op);
        this.mix = opNames.isEmpty() ? null : (OpMix) op;
        this.metrics = new MetricsRegistry(opNames);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.timeline = new RunTimeline(this, config, clock);
        this.log = new ChangeLog(this, clock, timeline);
        this.workers = new WorkerPool(this, this, metrics, clock, config.virtualThreads());
        this.cycles = new CycleSource(config.shard() == null || config.cycles() == 0 ? config.cycles()
                : Math.max(1, config.shard().cyclesOf(config.cycles())));
    }

    /**
     * Warms the op up ({@link Op#warmUp()}), then starts the workers; the limiter's schedule begins once
     * they are all up. Returns the start time. A run stopped before it started starts no op.
     *
     * @throws IllegalStateException when started twice, or naming the op's warm-up failure
     */
    public long start() {
        warmUpOp();
        // A test that starts at an instant (shards starting together) waits for it here, outside the lock, so a
        // stop (Ctrl-C, SIGTERM, a control) ends the wait; one started late counts from that instant all the same,
        // so its first ops are late and catch up like any late caller.
        Long testStart = config.startAt() == null ? null : timeline.awaitStartAt(config.startAt(), () -> running);
        synchronized (this) {
            timeline.claimStart();
            if (op instanceof AsyncOp async) {
                int capacity = config.maxInFlight() > 0 ? config.maxInFlight()
                        : async.capacity() > 0 ? async.capacity() : DEFAULT_MAX_IN_FLIGHT;
                pool = new InFlightPool(capacity, metrics.attach(true), this::opCompleted, clock);
            }
            workers.start(config.threads());
            long startNanos = timeline.start(testStart, origin -> {
                limiter = limiterFor(share(config.rate()), origin);
                globalRate = config.rate();
                return limiter;
            });
            target.start(startNanos, config.rate() == null ? Double.NaN : share(config.rate()).opsPerSecond());
            updateDeadline();
            workers.open();
            timeline.started();
            return startNanos;
        }
    }

    /**
     * Warms the op up ({@link Op#warmUp()}) unless that was done already; {@link #start()} calls it, and so may a
     * caller that runs something between the op's warm-up and the start (the engine's warm-up).
     *
     * @throws IllegalStateException naming the op's warm-up failure
     */
    public void warmUpOp() {
        if (!opWarmed.compareAndSet(false, true)) {
            return;
        }
        try {
            op.warmUp();
        } catch (Exception e) {
            throw new IllegalStateException("the op's warm-up failed: " + e.getMessage(), e);
        }
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
    // Control

    /** Sets the target rate (and strictness, as the spec says); starts pacing an unpaced run. */
    public synchronized Change setRate(RateSpec spec, String source) {
        Objects.requireNonNull(spec, "spec");
        retune(spec);
        // what the change reset, and what the design does to the new rate (a window's rounded quota)
        String reset = limiter.rateChangeNote();
        String caveat = config.limiter().rateCaveat(share(spec));
        String note = reset.isEmpty() ? caveat : caveat.isEmpty() ? reset : reset + "; " + caveat;
        return log.record(log.change(ChangeKind.RATE, spec.toString(), source, note));
    }

    /**
     * Retunes the rate without recording a change: for continuous ramps, which record one change when
     * they begin rather than one per retune.
     */
    public synchronized void adjustRate(RateSpec spec) {
        retune(Objects.requireNonNull(spec, "spec"));
    }

    /** This process's share of a rate: all of it, or a shard's. */
    private RateSpec share(RateSpec global) {
        return config.share(global);
    }

    /** The global cycle number of this process's {@code local}-th op. */
    long cycleOf(long local) {
        Shard shard = config.shard();
        return shard == null ? local : shard.cycle(local);
    }

    private RateLimiter limiterFor(RateSpec spec, Long origin) {
        RateLimiters.Builder b = RateLimiters.builder(spec).clock(clock).sleeper(clock.sleeper())
                .arrivals(config.arrivals()).design(config.limiter());
        if (origin != null) {
            b.origin(origin);
        }
        if (config.streamSeed() != null) {
            b.seed(config.streamSeed());
        }
        return b.build();
    }

    private void retune(RateSpec global) {
        globalRate = global;
        RateSpec spec = share(global);
        if (limiter == null) {
            RateLimiter l = limiterFor(spec, null);
            if (paused) {
                l.pause();
            }
            limiter = l;
        } else {
            limiter.reconfigure(spec);
        }
        target.setRate(clock.nanoTime(), spec.opsPerSecond());
        updateDeadline();
    }

    /** Changes the strictness only; needs a rate. */
    public synchronized Change setStrictness(double strictness, String source) {
        RateLimiter l = limiter;
        if (l == null) {
            throw new IllegalArgumentException("strictness needs a target rate: set one first (rate N)");
        }
        l.reconfigure(l.spec().withStrictness(strictness));
        globalRate = globalRate.withStrictness(strictness);
        return log.record(ChangeKind.STRICTNESS, java.math.BigDecimal.valueOf(strictness).stripTrailingZeros().toPlainString(),
                source);
    }

    /**
     * Sets the number of workers. Lowering it retires the excess (each runs the op whose slot it holds,
     * then leaves); raising it keeps retiring workers first, then starts new ones.
     */
    public synchronized Change setThreads(int threads, String source) {
        ActivityConfig.checkThreads(threads, config.virtualThreads());
        workers.resize(threads);
        return log.record(ChangeKind.THREADS, Integer.toString(threads), source);
    }

    /** Stops granting ops until {@link #resume}; the paused time is not released as a burst. */
    public synchronized Change pause(String source) {
        if (limiter != null) {
            limiter.pause();
        }
        paused = true;
        target.setPaused(clock.nanoTime(), true);
        return log.record(ChangeKind.PAUSE, "", source);
    }

    public synchronized Change resume(String source) {
        if (limiter != null) {
            limiter.resume();
        }
        paused = false;
        target.setPaused(clock.nanoTime(), false);
        workers.unparkAll();
        return log.record(ChangeKind.RESUME, "", source);
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
    public synchronized Change stop(StopReason reason, String source) {
        Objects.requireNonNull(reason, "reason");
        if (!running) {
            if (!reason.planned()) {
                hurried = true;
                notifyAll(stopListeners);
            }
            return log.change(ChangeKind.STOP, reason.label(), source);
        }
        running = false;
        stopReason = reason;
        stopSource = source;
        stopNanos = clock.nanoTime();
        // the source says who stopped it (console, http, SIGINT, ...); a planned end is no change
        Change c = reason.planned() ? log.change(ChangeKind.STOP, reason.label(), source) : log.record(ChangeKind.STOP, "", source);
        workers.unparkAll();
        workers.interruptAcquiring();
        workers.open();
        notifyAll(stopListeners);
        return c;
    }

    /**
     * A worker failed outside its op (the engine's own fault; an op's throwables are its outcomes): the run
     * stops, failed, with the reason in {@link #failure()}. The first failure is kept.
     */
    void workerFailed(Worker w, Throwable t) {
        synchronized (this) {
            if (failure == null) {
                failure = "worker " + w.id + " failed: " + t;
            }
        }
        stop(StopReason.ERROR, "worker");
    }

    /** Why the run failed inside the engine (a worker's failure outside its op), or null. */
    public synchronized String failure() {
        return failure;
    }

    /** Called (on the stopping thread) when the run is stopped, and again when a second stop hurries it. */
    public void addStopListener(Runnable listener) {
        stopListeners.add(listener);
    }

    /** Completes (on the thread that made it so) once the last worker has left and the last op completed. */
    public CompletableFuture<Void> whenDone() {
        return done;
    }

    // --------------------------------------------------------------------------------------------
    // State

    /** Why the run stopped, or null while it runs. */
    public StopReason stopReason() {
        return stopReason;
    }

    /** Who stopped it ({@code duration}, {@code console}, {@code SIGINT}, ...), or null while it runs. */
    public String stopSource() {
        return stopSource;
    }

    /** When it was stopped (monotonic), or 0 while it runs. */
    public long stopNanos() {
        return stopNanos;
    }

    /** True once a second stop asked for the grace period to end now. */
    public boolean hurried() {
        return hurried;
    }

    public boolean isRunning() {
        return running;
    }

    public synchronized boolean isPaused() {
        return paused;
    }

    /** The target rate this process runs (a shard's share of {@link #globalRate()}), or null when unpaced. */
    public RateSpec rate() {
        RateLimiter l = limiter;
        return l == null ? null : l.spec();
    }

    /** The whole test's rate as set (from the command line, a scenario or a control): a shard runs its share, {@link #rate()}. */
    public synchronized RateSpec globalRate() {
        return globalRate;
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
        RateLimiter l = limiter;
        return l == null ? null : l.snapshot();
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

    // --------------------------------------------------------------------------------------------
    // Workers

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

    /** Blocks while paused (until resumed or stopped), parked on the run's clock. Returns true if it waited. */
    boolean awaitUnpaused() throws InterruptedException {
        if (!paused) {
            return false;
        }
        while (paused && running) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            clock.park(Long.MAX_VALUE); // resume and stop unpark it (WorkerPool#unparkAll)
        }
        return true;
    }

    /** The deadline for the rate in force (see {@link RunTimeline#updateDeadline}). Under the lock. */
    private void updateDeadline() {
        timeline.updateDeadline(rate());
    }

    private static void notifyAll(List<Runnable> listeners) {
        for (Runnable l : listeners) {
            l.run();
        }
    }
}
