package dev.pacer.engine.run;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.RunClock;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Sleeper;
import dev.pacer.ratelimit.api.TickSleeper;
import dev.pacer.ratelimit.api.RateSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The one place that changes a running activity: its rate, strictness, threads, pause, resume and stop, and
 * what the workers read of them (the limiter, whether the run goes on, whether it is paused).
 *
 * <p>Each change returns its {@link Change} and is recorded in the {@link ChangeLog}, but for a retune
 * ({@link #adjustRate}), a planned stop and a later stop. The limiter's schedule, counters and the metrics
 * continue across every change.
 *
 * <h2>Threads</h2>
 * Control threads (console, HTTP control, scenario, signal, API, and a worker that failed) make the changes,
 * each under the activity's lock ({@code lock}), so they are synchronized with each other and with the start.
 * Workers read the volatile fields below once per op, and wait in {@link #awaitUnpaused}; they take the lock
 * only to report a failure (and, in the {@link WorkerPool}, to leave).
 *
 * <h2>Shared fields</h2>
 * Each is written under the lock only. {@code limiter}, {@code running} and {@code paused}: volatiles that
 * workers and other threads read without the lock. {@code limiter} is null while the run is unpaced; once set, a
 * change reconfigures it in place and only the start replaces it; a worker reads it once per op. A worker that has
 * not yet seen {@code running} false may start one more op; the stop interrupts those waiting for a slot.
 * {@code stopReason}, {@code stopSource} and {@code stopNanos}: volatiles written once by the first stop, after
 * {@code running} turns false, so a reader that sees one of them set sees {@code running} false, not the reverse.
 * {@code hurried}: a volatile a later unplanned stop sets. {@code globalRate} and {@code failure}: read and written
 * under the lock only. {@code stopListeners}: a copy-on-write list any thread appends to; the stop runs it under
 * the lock.
 */
final class RunControl {

    /** How the note of a pause or resume that changed nothing (and was not recorded) begins. */
    static final String NOTHING_CHANGED = "nothing changed: ";

    /** The activity's lock: every change, and the start, runs under it. */
    private final Object lock;
    private final ActivityConfig config;
    private final RunClock clock;
    private final TargetLedger target;
    private final ChangeLog log;
    private final WorkerPool workers;
    private final RunTimeline timeline;
    /** The limiter, or null when unpaced. Written under the lock, read by workers once per op. */
    volatile RateLimiter limiter;
    /**
     * The whole test's rate as last set, of which a shard's limiter runs its share; null when unpaced. Under the
     * lock.
     */
    private RateSpec globalRate;
    /** False once stopped. Written under the lock, read by workers once per op. */
    volatile boolean running = true;
    /** Why the run stopped (the first reason given), or null while it runs. Written under the lock. */
    private volatile StopReason stopReason;
    /** Who stopped it, or null while it runs. Written under the lock. */
    private volatile String stopSource;
    /** When the stop came (monotonic), or 0 while running. Written under the lock. */
    private volatile long stopNanos;
    /** Set by a second stop (a second Ctrl-C): end the grace period now. Written under the lock. */
    private volatile boolean hurried;
    /** Why a worker failed outside its op, or null. Under the lock. */
    private String failure;
    /**
     * Workers wait while true (see {@link #awaitUnpaused}); paced runs pause their limiter too. Written under the
     * lock.
     */
    private volatile boolean paused;
    /**
     * The only source that may change the rate, strictness, threads or pause while set (a knee search's), or null:
     * any may. Under the lock.
     */
    private String owner;
    /** Why a change from another source is refused while {@link #owner} is set. Under the lock. */
    private String ownerReason;
    private final List<Runnable> stopListeners = new CopyOnWriteArrayList<>();

    RunControl(Object lock, ActivityConfig config, RunClock clock, TargetLedger target, ChangeLog log,
            WorkerPool workers, RunTimeline timeline) {
        this.lock = lock;
        this.config = config;
        this.clock = clock;
        this.target = target;
        this.log = log;
        this.workers = workers;
        this.timeline = timeline;
    }

    /**
     * Starts pacing at the configured rate, with a limiter whose schedule counts from {@code origin} (null: its
     * creation). Under the lock, as the activity starts.
     */
    RateLimiter startPacing(Long origin) {
        limiter = limiterFor(share(config.rate()), origin);
        globalRate = config.rate();
        return limiter;
    }

    /**
     * From now on only {@code source} may change the rate, strictness, threads, pause or resume; a change from any
     * other is refused with {@code reason}, and nothing is recorded. A stop is never refused. Takes the lock.
     */
    void reserveChanges(String source, String reason) {
        synchronized (lock) {
            owner = Objects.requireNonNull(source, "source");
            ownerReason = Objects.requireNonNull(reason, "reason");
        }
    }

    /** Refuses a change from a source other than the one that reserved them (see {@link #reserveChanges}). */
    private void checkOwner(String source) {
        if (owner != null && !owner.equals(source)) {
            throw new IllegalStateException(ownerReason);
        }
    }

    /** Sets the target rate (and strictness, as the spec says); starts pacing an unpaced run. Takes the lock. */
    Change setRate(RateSpec spec, String source) {
        synchronized (lock) {
            checkOwner(source);
            Objects.requireNonNull(spec, "spec");
            retune(spec);
            // what the change reset, and what the design does to the new rate (a window's rounded quota)
            String reset = limiter.rateChangeNote();
            String caveat = config.limiter().rateCaveat(share(spec));
            String note = reset.isEmpty() ? caveat : caveat.isEmpty() ? reset : reset + "; " + caveat;
            return log.record(log.change(ChangeKind.RATE, spec.toString(), source, note));
        }
    }

    /** Sets the target rate with the strictness in force (the spec's when none is yet). Takes the lock. */
    Change setRateKeepingStrictness(RateSpec spec, String source) {
        synchronized (lock) {
            checkOwner(source);
            RateSpec global = Objects.requireNonNull(spec, "spec");
            return setRate(globalRate == null ? global : global.withStrictness(globalRate.strictness()), source);
        }
    }

    /** Retunes the rate without recording a change. Takes the lock. */
    void adjustRate(RateSpec spec) {
        synchronized (lock) {
            retune(Objects.requireNonNull(spec, "spec"));
        }
    }

    /** This process's share of a rate: all of it, or a shard's. */
    private RateSpec share(RateSpec global) {
        return config.share(global);
    }

    private RateLimiter limiterFor(RateSpec spec, Long origin) {
        Sleeper sleeper = config.pacingTick() == null ? clock.sleeper()
                : new TickSleeper(clock.sleeper(), config.pacingTick().toNanos());
        RateLimiters.Builder b = RateLimiters.builder(spec).clock(clock).sleeper(sleeper)
                .arrivals(config.arrivals()).design(config.limiter());
        if (origin != null) {
            b.origin(origin);
        }
        if (config.streamSeed() != null) {
            b.seed(config.streamSeed());
        }
        return b.build();
    }

    /** Under the lock. */
    private void retune(RateSpec global) {
        if (config.pacingTick() != null) {
            ActivityConfig.checkStrictnessWithTick(global.strictness()); // before anything changes
        }
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

    /** The deadline for the rate in force (see {@link RunTimeline#updateDeadline}). Under the lock. */
    void updateDeadline() {
        timeline.updateDeadline(rate());
    }

    /** Changes the strictness only; needs a rate. Takes the lock. */
    Change setStrictness(double strictness, String source) {
        synchronized (lock) {
            checkOwner(source);
            RateLimiter l = limiter;
            if (l == null) {
                throw new IllegalArgumentException("strictness needs a target rate: set one first (rate N)");
            }
            if (config.pacingTick() != null) {
                ActivityConfig.checkStrictnessWithTick(strictness);
            }
            l.reconfigure(l.spec().withStrictness(strictness));
            globalRate = globalRate.withStrictness(strictness);
            return log.record(ChangeKind.STRICTNESS,
                    BigDecimal.valueOf(strictness).stripTrailingZeros().toPlainString(), source);
        }
    }

    /** Sets the number of workers ({@link WorkerPool#resize}). Takes the lock. */
    Change setThreads(int threads, String source) {
        synchronized (lock) {
            checkOwner(source);
            ActivityConfig.checkThreads(threads, config.virtualThreads());
            workers.resize(threads);
            return log.record(ChangeKind.THREADS, Integer.toString(threads), source);
        }
    }

    /**
     * Stops granting ops until {@link #resume}; the paused time is not released as a burst. Already paused: nothing
     * changes and nothing is recorded; the change returned says so in its note. Takes the lock.
     */
    Change pause(String source) {
        synchronized (lock) {
            checkOwner(source);
            if (paused) {
                return log.change(ChangeKind.PAUSE, "", source, NOTHING_CHANGED + "already paused");
            }
            if (limiter != null) {
                limiter.pause();
            }
            paused = true;
            target.setPaused(clock.nanoTime(), true);
            return log.record(ChangeKind.PAUSE, "", source);
        }
    }

    /**
     * Grants ops again, and wakes the workers waiting in {@link #awaitUnpaused}. Not paused: nothing changes and
     * nothing is recorded; the change returned says so in its note. Takes the lock.
     */
    Change resume(String source) {
        synchronized (lock) {
            checkOwner(source);
            if (!paused) {
                return log.change(ChangeKind.RESUME, "", source, NOTHING_CHANGED + "not paused");
            }
            if (limiter != null) {
                limiter.resume();
            }
            paused = false;
            target.setPaused(clock.nanoTime(), false);
            workers.unparkAll();
            return log.record(ChangeKind.RESUME, "", source);
        }
    }

    /** The note of the stop that ended the grace (a second Ctrl-C, a stop over HTTP after the run's end). */
    static final String HURRIED = "ended the grace for ops in flight";

    /**
     * Stops the run: no new op starts; workers waiting for a slot or a resume are woken, and those at the gate
     * let go (to leave). The first reason wins; the first later one that is not planned hurries the stop (the
     * grace for ops in flight ends) and is recorded, with the note {@link #HURRIED}; any after it are not.
     * Takes the lock.
     */
    Change stop(StopReason reason, String source) {
        synchronized (lock) {
            Objects.requireNonNull(reason, "reason");
            if (!running) {
                if (!reason.planned()) {
                    boolean first = !hurried;
                    hurried = true;
                    notifyAll(stopListeners);
                    if (first) { // recorded: why ops still in flight were cancelled before their grace was out
                        return log.record(log.change(ChangeKind.STOP, "", source, HURRIED));
                    }
                }
                return log.change(ChangeKind.STOP, reason.label(), source);
            }
            running = false;
            stopReason = reason;
            stopSource = source;
            stopNanos = clock.nanoTime();
            // the source says who stopped it (console, http, SIGINT, ...); a planned end is no change
            Change c = reason.planned() ? log.change(ChangeKind.STOP, reason.label(), source)
                    : log.record(ChangeKind.STOP, "", source);
            workers.unparkAll();
            workers.interruptAcquiring();
            workers.open();
            notifyAll(stopListeners);
            return c;
        }
    }

    /**
     * A worker failed outside its op: the run stops, failed, with the reason in {@link #failure()}. The first
     * failure is kept. On the worker; takes the lock to keep the failure, then again to stop.
     */
    void workerFailed(Worker w, Throwable t) {
        synchronized (lock) {
            if (failure == null) {
                failure = "worker " + w.id + " failed: " + t;
            }
        }
        stop(StopReason.ERROR, "worker");
    }

    /** Why the run failed inside the engine, or null. Takes the lock. */
    String failure() {
        synchronized (lock) {
            return failure;
        }
    }

    /** Called (on the stopping thread, under the lock) when the run is stopped, and again when hurried. */
    void addStopListener(Runnable listener) {
        stopListeners.add(listener);
    }

    private static void notifyAll(List<Runnable> listeners) {
        for (Runnable l : listeners) {
            l.run();
        }
    }

    /**
     * Blocks while paused (until resumed or stopped), parked on the run's clock. Returns true if it waited.
     * On a worker, without the lock.
     */
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

    StopReason stopReason() {
        return stopReason;
    }

    String stopSource() {
        return stopSource;
    }

    long stopNanos() {
        return stopNanos;
    }

    boolean hurried() {
        return hurried;
    }

    boolean isRunning() {
        return running;
    }

    /** Takes the lock. */
    boolean isPaused() {
        synchronized (lock) {
            return paused;
        }
    }

    /** The rate this process's limiter runs, or null when unpaced. */
    RateSpec rate() {
        RateLimiter l = limiter;
        return l == null ? null : l.spec();
    }

    /** The whole test's rate as last set, or null when unpaced. Takes the lock. */
    RateSpec globalRate() {
        synchronized (lock) {
            return globalRate;
        }
    }

    /** The limiter's accumulators, or null when unpaced. */
    LimiterSnapshot limiterSnapshot() {
        RateLimiter l = limiter;
        return l == null ? null : l.snapshot();
    }
}
