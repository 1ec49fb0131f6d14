package dev.pacer.engine;

import dev.pacer.engine.metrics.MetricsRegistry;
import dev.pacer.engine.op.Op;
import dev.pacer.ratelimit.LimiterSnapshot;
import dev.pacer.ratelimit.RateLimiter;
import dev.pacer.ratelimit.ParkingSleeper;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A running workload: the op, its workers, the limiter, and the one place that changes them.
 *
 * <p>Every change to a running activity (rate, strictness, threads, pause, resume, stop) goes through
 * the synchronized methods here, whoever asks (console, HTTP control, scenario, signal), and is
 * published as a {@link Change} to the listeners (progress line, .hlog comment, summary). The
 * limiter's schedule, counters and the metrics continue across every change.
 *
 * <p>Thread-safety: control methods are synchronized with each other; workers never take the lock.
 */
public final class Activity {

    final Op op;
    final CycleSource cycles;
    /** The limiter, or null when unpaced. Written under the lock, read by workers once per op. */
    volatile RateLimiter limiter;
    /** False once stopped. Written under the lock, read by workers once per op. */
    volatile boolean running = true;
    /**
     * No op scheduled (or, unpaced, started) at or after this monotonic time starts: a 10 s run at
     * 10 ops/s is 100 ops, not 101. Long.MAX_VALUE when the run has no duration. Set once in start().
     */
    volatile long deadlineNanos = Long.MAX_VALUE;
    /**
     * Set by a worker that stopped because its next op would start at or after the deadline: the run
     * ended by its duration even if every worker got there (woken a little early by the park
     * overshoot) before the reporter saw the clock pass the deadline. Written once per worker at exit.
     */
    volatile boolean deadlineReached;
    /** Unpaced runs only: workers wait while true (paced runs pause their limiter instead). */
    private volatile boolean paused;
    private final Object pauseGate = new Object();

    private final ActivityConfig config;
    private final MetricsRegistry metrics;
    private final List<Worker> workers = new ArrayList<>();
    private final AtomicInteger live = new AtomicInteger();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final CountDownLatch go = new CountDownLatch(1);
    private final CountDownLatch startedLatch = new CountDownLatch(1);
    private final List<Change> changes = new CopyOnWriteArrayList<>();
    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();
    private final TargetLedger target = new TargetLedger();
    private int nextWorkerId;
    private int threadSetting;
    private long startNanos;
    private boolean started;

    public Activity(ActivityConfig config, Op op, MetricsRegistry metrics) {
        this.config = Objects.requireNonNull(config, "config");
        this.op = Objects.requireNonNull(op, "op");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.cycles = new CycleSource(config.cycles());
    }

    /** Starts the workers; the limiter's schedule begins once they are all up. Returns the start time. */
    public synchronized long start() {
        if (started) {
            throw new IllegalStateException("already started");
        }
        started = true;
        threadSetting = config.threads();
        spawn(config.threads());
        // The run's clock starts at the limiter's origin, so slot k is at exactly start + k slices and a
        // 10 s run at 1000 ops/s has 10 000 slots before its deadline. (Taking the start before building
        // the limiter lost the slots of its set-up: the park-cost calibration, ~15 ms once per JVM, and
        // class loading, a few ms.)
        if (config.rate() != null) {
            limiter = RateLimiters.builder(config.rate()).sleeper(ParkingSleeper.calibrated()).build();
            startNanos = limiter.originNanos();
        } else {
            startNanos = System.nanoTime();
        }
        target.start(startNanos, config.rate() == null ? Double.NaN : config.rate().opsPerSecond());
        if (config.duration() != null) {
            deadlineNanos = startNanos + config.duration().toNanos();
        }
        go.countDown();
        startedLatch.countDown();
        return startNanos;
    }

    /**
     * Waits until the workload has started (control commands that arrive earlier wait for it, so
     * they apply to the running limiter and are logged). False on timeout.
     */
    public boolean awaitStarted(long timeout, TimeUnit unit) throws InterruptedException {
        return startedLatch.await(timeout, unit);
    }

    void awaitGo() throws InterruptedException {
        go.await();
    }

    /** True once a worker has stopped at the deadline: the run ended by its duration. */
    public boolean deadlineReached() {
        return deadlineReached;
    }

    /** Monotonic time at which the run ends (no op scheduled then or later starts), or Long.MAX_VALUE. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /** Monotonic time the workload started. */
    public synchronized long startNanos() {
        return startNanos;
    }

    /** What the target asked for over time; the reporter cuts it into intervals. */
    public TargetLedger target() {
        return target;
    }

    public void addChangeListener(Consumer<Change> listener) {
        listeners.add(listener);
    }

    /** Every change so far, in order. */
    public List<Change> changes() {
        return List.copyOf(changes);
    }

    // --------------------------------------------------------------------------------------------
    // Control

    /** Sets the target rate (and strictness, as the spec says); starts pacing an unpaced run. */
    public synchronized Change setRate(RateSpec spec, String source) {
        Objects.requireNonNull(spec, "spec");
        if (limiter == null) {
            RateLimiter l = RateLimiters.create(spec);
            if (paused) {
                l.pause();
            }
            limiter = l;
        } else {
            limiter.reconfigure(spec);
        }
        target.setRate(System.nanoTime(), spec.opsPerSecond());
        return record("rate", spec.toString(), source);
    }

    /**
     * Retunes the rate without recording a change: for continuous ramps, which record one change when
     * they begin rather than one per retune. Needs a rate.
     */
    public synchronized void adjustRate(RateSpec spec) {
        if (limiter == null) {
            throw new IllegalArgumentException("adjustRate needs a target rate");
        }
        limiter.reconfigure(spec);
        target.setRate(System.nanoTime(), spec.opsPerSecond());
    }

    /** Changes the strictness only; needs a rate. */
    public synchronized Change setStrictness(double strictness, String source) {
        RateLimiter l = limiter;
        if (l == null) {
            throw new IllegalArgumentException("strictness needs a target rate: set one first (rate N)");
        }
        l.reconfigure(l.spec().withStrictness(strictness));
        return record("strictness", l.spec().toString(), source);
    }

    /** Adds or retires workers; a retiring worker finishes the op it is on. */
    public synchronized Change setThreads(int threads, String source) {
        ActivityConfig.checkThreads(threads, config.virtualThreads(), "threads");
        threadSetting = threads;
        int current = workers.size();
        if (threads > current) {
            spawn(threads - current);
        } else {
            for (int i = current - 1; i >= threads; i--) {
                workers.remove(i).retire();
            }
        }
        return record("threads", Integer.toString(threads), source);
    }

    /** Stops granting ops until {@link #resume}; the paused time is not released as a burst. */
    public synchronized Change pause(String source) {
        if (limiter != null) {
            limiter.pause();
        }
        paused = true;
        target.setPaused(System.nanoTime(), true);
        return record("pause", "", source);
    }

    public synchronized Change resume(String source) {
        if (limiter != null) {
            limiter.resume();
        }
        paused = false;
        target.setPaused(System.nanoTime(), false);
        synchronized (pauseGate) {
            pauseGate.notifyAll();
        }
        return record("resume", "", source);
    }

    /** Records a marker that is not a setting, such as a scenario phase. */
    public synchronized Change mark(String kind, String value, String source) {
        return record(kind, value, source);
    }

    /**
     * Stops the run: no new ops start; waiting workers are woken; ops in flight finish. Idempotent.
     * Recorded as a change unless it is the planned end ({@code source} "duration").
     */
    public synchronized void stop(String reason, String source) {
        if (!running) {
            return;
        }
        running = false;
        if (!source.equals("duration")) {
            record("stop", reason.equals(source) ? "" : reason, source);
        }
        synchronized (pauseGate) {
            pauseGate.notifyAll();
        }
        for (Worker w : workers) {
            Thread t = w.thread;
            if (t != null && w.isAcquiring()) {
                t.interrupt();
            }
        }
        go.countDown();
    }

    // --------------------------------------------------------------------------------------------
    // State

    public boolean isRunning() {
        return running;
    }

    public synchronized boolean isPaused() {
        return paused;
    }

    /** The target rate, or null when unpaced. */
    public RateSpec rate() {
        RateLimiter l = limiter;
        return l == null ? null : l.spec();
    }

    /** The thread setting: workers started and not retired (they may have exited at the end). */
    public synchronized int threads() {
        return threadSetting;
    }

    public ActivityConfig config() {
        return config;
    }

    /** The limiter's accumulators, or null when unpaced. */
    public LimiterSnapshot limiterSnapshot() {
        RateLimiter l = limiter;
        return l == null ? null : l.snapshot();
    }

    /** True once every worker has exited (stopped, or the cycles ran out). */
    public boolean isDone() {
        return done.isDone();
    }

    /** Waits for every worker to exit; false on timeout. */
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

    /** Completes when every worker has exited. */
    public CompletableFuture<Void> whenDone() {
        return done;
    }

    // --------------------------------------------------------------------------------------------
    // Workers

    private void spawn(int n) {
        boolean shared = config.virtualThreads() || workers.size() + n > 64;
        for (int i = 0; i < n; i++) {
            Worker w = new Worker(this, nextWorkerId++, metrics.attach(shared));
            workers.add(w);
            live.incrementAndGet();
            String name = "pacer-worker-" + w.id;
            if (config.virtualThreads()) {
                Thread.ofVirtual().name(name).start(w);
            } else {
                Thread.ofPlatform().name(name).daemon(true).start(w);
            }
        }
    }

    void workerExited(Worker w) {
        metrics.detach(w.metrics);
        synchronized (this) {
            workers.remove(w);
        }
        if (live.decrementAndGet() == 0) {
            done.complete(null);
        }
    }

    /** Unpaced runs: blocks while paused. Returns true if it waited. */
    boolean awaitUnpaused() throws InterruptedException {
        if (!paused) {
            return false;
        }
        synchronized (pauseGate) {
            while (paused && running) {
                pauseGate.wait();
            }
        }
        return true;
    }

    private Change record(String kind, String value, String source) {
        long now = System.nanoTime();
        double elapsed = started ? (now - startNanos) / 1e9 : 0;
        Change c = new Change(now, elapsed, kind, value, source);
        changes.add(c);
        for (Consumer<Change> l : listeners) {
            l.accept(c);
        }
        return c;
    }
}
