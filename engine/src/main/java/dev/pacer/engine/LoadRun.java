package dev.pacer.engine;

import dev.pacer.engine.metrics.IntervalStats;
import dev.pacer.engine.metrics.LatencySummary;
import dev.pacer.engine.metrics.Metric;
import dev.pacer.engine.metrics.MetricsRegistry;
import dev.pacer.engine.metrics.RunTotals;
import dev.pacer.engine.op.Op;
import dev.pacer.engine.output.HlogSink;
import dev.pacer.engine.output.ProgressLine;
import dev.pacer.engine.output.SummaryJson;
import dev.pacer.engine.output.SummaryText;
import dev.pacer.ratelimit.RateSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One load run from start to summary: starts the {@link Activity}, cuts an interval every
 * {@code interval} (progress line, .hlog, listeners), stops it at the duration, and at the end
 * writes the summary (text, JSON) and judges it (error ratio, thresholds).
 *
 * <p>{@link #run()} runs the reporter loop on the calling thread. {@link #requestStop} may be called
 * from any thread (a signal handler, the control endpoint); the run then records its last partial
 * interval, flushes and closes its files, and {@link #run()} returns. {@link #awaitFinished} lets a
 * shutdown hook wait for that.
 */
public final class LoadRun {

    private final RunOptions options;
    private final Activity activity;
    private final MetricsRegistry metrics = new MetricsRegistry();
    private final PrintStream out;
    private final PrintStream err;
    private final List<Consumer<IntervalReport>> intervalListeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final RunTotals totals = new RunTotals();
    private final Map<String, PhaseState> phases = new LinkedHashMap<>();
    private volatile Thread reporter;
    private volatile boolean wake;
    private volatile String stopReason;
    private volatile PhaseState pendingPhase;
    private PhaseState phase;
    private HlogSink hlog;
    private Summary summary;

    public LoadRun(RunOptions options, Op op, PrintStream out, PrintStream err) {
        this.options = options;
        this.activity = new Activity(options.activity(), op, metrics);
        this.out = out;
        this.err = err;
    }

    /** The running activity: the one place to change rate, threads, pause, stop. */
    public Activity activity() {
        return activity;
    }

    /** Called on the reporter thread after every interval. */
    public void addIntervalListener(Consumer<IntervalReport> listener) {
        intervalListeners.add(listener);
    }

    /** Stops the run from any thread; the summary is still written. Idempotent. */
    public void requestStop(String reason, String source) {
        if (stopReason == null) {
            stopReason = reason;
        }
        activity.stop(reason, source);
        wakeReporter();
    }

    /**
     * Starts a phase (a scenario step): the current interval is cut so intervals do not straddle
     * phases, and what follows is counted under {@code name}. Warm-up phases are left out of totals.
     */
    public void beginPhase(String name, boolean warmup, String source) {
        pendingPhase = new PhaseState(name, warmup);
        activity.mark("phase", name + (warmup ? " (warm-up)" : ""), source);
        wakeReporter();
        // wait (briefly) until the reporter has cut at the boundary, so the phase starts clean
        for (int i = 0; i < 1000 && pendingPhase != null && reporter != null && !activity.isDone(); i++) {
            LockSupport.parkNanos(100_000);
        }
    }

    /**
     * Waits until the summary has been written and files closed; for shutdown hooks. Returns at once
     * when {@link #run()} was never called.
     */
    public boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return reporter == null || finished.await(timeout, unit);
    }

    /** Runs to the end. Returns the summary (also printed and written). */
    public Summary run() throws IOException, InterruptedException {
        reporter = Thread.currentThread();
        try {
            return runReporterLoop();
        } finally {
            if (hlog != null) {
                hlog.close();
            }
            finished.countDown();
        }
    }

    private Summary runReporterLoop() throws IOException {
        ActivityConfig config = options.activity();
        activity.whenDone().thenRun(this::wakeReporter);
        long startEpochMs = System.currentTimeMillis();
        if (options.hlog() != null) {
            hlog = new HlogSink(options.hlog(), startEpochMs, describe(config));
            activity.changes().forEach(hlog::change); // made before the run started (a scenario's first phase)
            activity.addChangeListener(hlog::change);
        }
        if (options.progress()) {
            activity.addChangeListener(c -> err.println("  >> " + c.describe()));
        }
        try {
            activity.op.warmUp();
        } catch (Exception e) {
            throw new IllegalStateException("the op's warm-up failed: " + e.getMessage(), e);
        }
        long t0 = activity.start();
        long intervalNanos = options.interval().toNanos();
        long deadline = activity.deadlineNanos();
        long lastCut = t0;
        long nextTick = t0 + intervalNanos;
        phase = pendingPhase;
        pendingPhase = null;
        while (!activity.isDone()) {
            long now = System.nanoTime();
            if (now >= deadline && activity.isRunning()) {
                requestStop("duration", "duration");
            }
            PhaseState next = pendingPhase;
            // Past the deadline the workers are finishing their last ops: the final cut ends the run
            // at the deadline; a tick cuts only if they take longer than an interval.
            boolean tick = now >= nextTick && (now < deadline || now - deadline >= intervalNanos);
            if (tick || next != null) {
                cut(lastCut, now, t0, startEpochMs);
                lastCut = now;
                if (next != null) {
                    phase = next;
                    pendingPhase = null;
                }
                while (nextTick <= now) {
                    nextTick += intervalNanos;
                }
                continue;
            }
            if (!wake) {
                long wakeAt = now < deadline ? Math.min(nextTick, deadline) : Math.max(nextTick, deadline + intervalNanos);
                LockSupport.parkNanos(this, wakeAt - now); // the workers' end wakes this thread too
            }
            wake = false;
        }
        // No op starts at or after the deadline, so a run that reached it ends there: the moments the
        // workers and this thread took to notice (ms on a loaded machine) are not part of the run, and
        // counting them would understate the achieved rate. Ops in flight at the deadline still land
        // in this last interval. Workers may also all have stopped a little before it (an early
        // wake-up within the park threshold for a slot at the deadline): every slot before the
        // deadline was still issued, so the run's length is its duration then too.
        long end = System.nanoTime();
        boolean byDuration = activity.deadlineReached() && (stopReason == null || stopReason.equals("duration"));
        if ((end > deadline || byDuration) && lastCut < deadline) {
            end = deadline;
        }
        cut(lastCut, end, t0, startEpochMs);
        if (stopReason == null) {
            stopReason = byDuration ? "duration" : config.cycles() > 0 ? "cycles" : "end";
        }
        summary = summarize();
        out.print(SummaryText.format(summary));
        out.flush();
        if (options.summaryJson() != null) {
            SummaryJson.write(summary, options.summaryJson());
        }
        return summary;
    }

    private void cut(long from, long to, long t0, long startEpochMs) {
        IntervalStats stats = metrics.drain(from, to, startEpochMs + (from - t0) / 1_000_000,
                startEpochMs + (to - t0) / 1_000_000);
        RateSpec inForce = activity.rate();
        TargetLedger.Target asked = activity.target().cut(to);
        boolean warmup = phase != null && phase.warmup;
        if (!warmup) {
            totals.add(stats, asked);
        }
        if (phase != null) {
            phase.totals.add(stats, asked);
            phases.putIfAbsent(phase.name, phase);
        }
        IntervalReport report = new IntervalReport(stats, (to - t0) / 1e9, inForce, asked.rate(), activity.threads(),
                phase == null ? null : phase.name, warmup, totals.ops(), totals.seconds(), totals.errors());
        if (hlog != null) {
            hlog.interval(report);
        }
        if (options.progress()) {
            err.println(ProgressLine.format(report));
        }
        for (Consumer<IntervalReport> l : intervalListeners) {
            l.accept(report);
        }
    }

    private Summary summarize() {
        ActivityConfig config = options.activity();
        RateSpec finalRate = activity.rate();
        List<PhaseSummary> phaseSummaries = new ArrayList<>();
        for (PhaseState p : phases.values()) {
            phaseSummaries.add(new PhaseSummary(p.name, p.warmup, p.totals.ops(), p.totals.errors(),
                    p.totals.targetRate(), p.totals.achievedRate(), p.totals.seconds(), latencies(p.totals)));
        }
        Summary draft = new Summary(config.op().toString(), activity.threads(), config.virtualThreads(),
                totals.targetRate(), finalRate == null ? Double.NaN : finalRate.strictness(), totals.achievedRate(),
                totals.ops(), totals.errors(), totals.outcomesByLabel(false), totals.outcomesByLabel(true),
                totals.seconds(), latencies(totals), activity.changes(), phaseSummaries, List.of(),
                options.maxErrorRatio(), stopReason, null);
        List<ThresholdResult> gates = new ArrayList<>();
        for (Threshold t : options.thresholds()) {
            gates.add(t.evaluate(draft));
        }
        String failure = null;
        if (draft.errorRatio() > options.maxErrorRatio()) {
            failure = String.format("error ratio %.4f is over --max-error-ratio %s", draft.errorRatio(),
                    options.maxErrorRatio());
        }
        long failed = gates.stream().filter(g -> !g.passed()).count();
        if (failed > 0) {
            String gateFailure = failed + " threshold" + (failed > 1 ? "s" : "") + " failed";
            failure = failure == null ? gateFailure : failure + "; " + gateFailure;
        }
        return new Summary(draft.op(), draft.threads(), draft.virtualThreads(), draft.targetRate(), draft.strictness(),
                draft.achievedRate(), draft.ops(), draft.errors(), draft.outcomes(), draft.errorsByType(),
                draft.durationSeconds(), draft.latencies(), draft.changes(), draft.phases(), gates,
                draft.maxErrorRatio(), draft.stopReason(), failure);
    }

    private static Map<Metric, LatencySummary> latencies(RunTotals t) {
        Map<Metric, LatencySummary> m = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.values()) {
            m.put(metric, LatencySummary.of(t.histogram(metric)));
        }
        return m;
    }

    private static String describe(ActivityConfig c) {
        return "run --op " + c.op() + " --threads " + c.threads() + (c.virtualThreads() ? " --virtual" : "")
                + (c.rate() == null ? "" : " --rate " + c.rate())
                + (c.duration() == null ? "" : " --duration " + Durations.format(c.duration()))
                + (c.cycles() > 0 ? " --cycles " + c.cycles() : "");
    }

    private void wakeReporter() {
        wake = true;
        Thread t = reporter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** A phase's name, warm-up flag and totals. */
    private static final class PhaseState {
        final String name;
        final boolean warmup;
        final RunTotals totals = new RunTotals();

        PhaseState(String name, boolean warmup) {
            this.name = name;
            this.warmup = warmup;
        }
    }
}
