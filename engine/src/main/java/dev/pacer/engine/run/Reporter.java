package dev.pacer.engine.run;

import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.metrics.InFlightOp;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.OpSummary;
import dev.pacer.engine.api.PhaseSummary;
import dev.pacer.engine.api.RunFigures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import dev.pacer.engine.api.RunClock;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import dev.pacer.ratelimit.api.RateLimiter;

/**
 * Cuts a running {@link Activity} into intervals, on the thread that calls {@link #run()}.
 *
 * <p>Every interval, at every phase boundary and at the end it drains what the workers recorded into an
 * {@link IntervalReport}, adds it to the run's and the phase's totals and hands it to the listeners
 * (progress line, .hlog, control status). A run has three stages:
 * <ol>
 *   <li><b>The schedule</b>, until the deadline (where the reporter stops the activity), a stop, or the
 *       workers' own end (the cycle limit). The run's length is this stage's: its end is the deadline,
 *       the stop, or the last worker's exit.</li>
 *   <li><b>The drain</b>: ops in flight at that end finish, for up to the grace period after the stop.
 *       They count (every op that started counts once), in drain intervals whose time is not part of
 *       the run's length, so a run of slow ops is not stretched and its achieved rate is what it
 *       started over what it was asked to.</li>
 *   <li><b>Cancellation</b>, when the grace period ends (or a second stop cuts it short): ops still in
 *       flight are recorded as cancelled, with the time they had run, and workers are interrupted.</li>
 * </ol>
 *
 * <p>Threads: {@link #run()} on one thread, the reporter; {@link #beginPhase} and {@link #beginPhaseAt}
 * from any (a scenario); listeners are called on the reporter thread.
 */
public final class Reporter {

    /**
     * What a whole run measured: the totals without warm-up phases (figures, outcome counts, the three
     * histograms), each phase's own figures, and each named op's (an op mix's; empty for a plain op).
     */
    public record Measurement(RunFigures figures, Map<String, Long> outcomes, Map<String, Long> errorsByType,
                              Map<Metric, Histogram> histograms, List<PhaseSummary> phases, List<OpSummary> perOp) {
    }

    /** Told when the run's clock starts: monotonic nanos and the same instant in epoch millis. */
    @FunctionalInterface
    public interface StartListener {
        void started(long startNanos, long startEpochMs);
    }

    /** A phase's name, warm-up flag and totals. */
    private record PhaseTotals(String name, boolean warmup, RunTotals totals) {
    }

    /**
     * A phase a scenario announced: it begins at {@code atNanos}, or at the reporter's next look when
     * {@code atOnce}; marked with {@code label} by {@code source}; {@code cut} completes once the reporter
     * has cut the interval there.
     */
    private record PendingPhase(PhaseTotals phase, String label, String source, boolean atOnce, long atNanos,
                                CompletableFuture<Void> cut) {

        boolean due(long now) {
            return atOnce || now - atNanos >= 0;
        }
    }

    /** How long {@link #beginPhase} waits for the reporter to cut at the boundary. */
    private static final long PHASE_HANDSHAKE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * How long, on real time, the last interval waits for the workers to leave once the ops in flight are cancelled:
     * a worker records what it owed on its way out; one held past this (an op that ignores interrupts) records late.
     */
    private static final long WORKERS_LEAVING_NANOS = 2_000_000_000L;

    private final Activity activity;
    /** The activity's clock. */
    private final RunClock clock;
    private final long intervalNanos;
    private final long graceNanos;
    private final List<Consumer<IntervalReport>> listeners = new CopyOnWriteArrayList<>();
    private final List<StartListener> startListeners = new CopyOnWriteArrayList<>();
    private final RunTotals totals;
    private final Map<String, PhaseTotals> phases = new LinkedHashMap<>();
    private final AtomicReference<PendingPhase> pending = new AtomicReference<>();
    /** The reporter thread, set when {@link #run()} begins. */
    private volatile Thread thread;
    /** Set by whoever needs the reporter to look now (a phase, a stop, the workers' end); cleared by it. */
    private volatile boolean wake;
    // reporter thread only
    private PhaseTotals phase;
    private long startNanos;
    private long startEpochMs;

    /**
     * @param interval how often to cut an interval
     * @param grace    how long ops in flight at a stop may take to finish before they are cancelled
     */
    public Reporter(Activity activity, Duration interval, Duration grace) {
        this.activity = Objects.requireNonNull(activity, "activity");
        this.clock = activity.clock();
        this.intervalNanos = interval.toNanos();
        this.graceNanos = grace.toNanos();
        this.totals = new RunTotals(activity.opNames());
    }

    /** Called on the reporter thread after every interval. */
    public void addListener(Consumer<IntervalReport> listener) {
        listeners.add(listener);
    }

    /** Called on the reporter thread when the run's clock starts, before the first interval. */
    public void addStartListener(StartListener listener) {
        startListeners.add(listener);
    }

    /**
     * Starts a phase (a scenario step) now: what follows is counted under {@code name}, and the current
     * interval is cut here so intervals do not straddle phases. Warm-up phases are left out of the
     * run's totals. Before the run starts this names the phase it starts in. Returns at once; the returned
     * future completes when the reporter has cut there (see {@link #awaitCut}).
     */
    public CompletableFuture<Void> beginPhase(String name, boolean warmup, String source) {
        return announce(name, warmup, source, true, 0);
    }

    /**
     * Announces the phase that begins at {@code atNanos} (monotonic clock) and returns at once; the returned
     * future completes when the reporter has cut there. The reporter cuts at that instant itself, in the
     * same cut as an interval's end that falls there, and marks the phase then: a boundary does not wait
     * for whoever announced it to wake up, nor for the reporter to finish the interval before it (which
     * cut a phase 11 ms late, with an 11 ms interval of its own, where phase and interval ended together).
     * One phase is pending at a time: announce the next once this one has begun ({@link #awaitCut}), or it
     * replaces this one.
     */
    public CompletableFuture<Void> beginPhaseAt(String name, boolean warmup, String source, long atNanos) {
        return announce(name, warmup, source, false, atNanos);
    }

    private CompletableFuture<Void> announce(String name, boolean warmup, String source, boolean atOnce, long atNanos) {
        PendingPhase p = new PendingPhase(new PhaseTotals(name, warmup, new RunTotals()), name + (warmup ? " (warm-up)"
                : ""),
                source, atOnce, atNanos, new CompletableFuture<>());
        pending.set(p);
        if (thread != null) {
            wake(); // to wait for this boundary rather than its next tick; before run() starts, run() takes it
        }
        return p.cut();
    }

    /**
     * Waits up to a second for a phase's cut, once the run has started (the reporter stalled or done: the
     * phase begins at its next cut).
     */
    public void awaitCut(CompletableFuture<Void> cut) {
        // on the run's clock: a manual clock must see this thread parked to let the reporter reach the cut
        Thread me = Thread.currentThread();
        cut.whenComplete((v, e) -> clock.unpark(me));
        long until = clock.nanoTime() + PHASE_HANDSHAKE_NANOS;
        for (long left = PHASE_HANDSHAKE_NANOS; !cut.isDone() && left > 0; left = until - clock.nanoTime()) {
            if (me.isInterrupted()) {
                return;
            }
            clock.park(left);
        }
        // not cut in time: the phase begins at the reporter's next cut
    }

    /**
     * Starts the activity and reports it through its three stages (see the class doc). Returns what was
     * measured; the activity's stop reason is set when this returns.
     */
    public Measurement run() {
        thread = Thread.currentThread();
        activity.whenDone().thenRun(this::wake);
        activity.addStopListener(this::wake);
        startNanos = activity.start();
        // the wall-clock time of startNanos, which lies in the past for a shard that started after its --start-at:
        // its log then starts at the test's instant like every other shard's, so merged logs line up
        startEpochMs = clock.instant().toEpochMilli() - (clock.nanoTime() - startNanos) / 1_000_000;
        for (StartListener l : startListeners) {
            l.started(startNanos, startEpochMs);
        }
        takePendingPhase(startNanos);
        long lastCut = reportSchedule();
        long end = Math.max(lastCut, scheduleEnd());
        activity.metrics().close(); // from here every completion claims its op: cancelling is safe after the next cut
        cut(lastCut, end, false);
        drain(end);
        List<PhaseSummary> phaseSummaries = new ArrayList<>();
        for (PhaseTotals p : phases.values()) {
            phaseSummaries.add(new PhaseSummary(p.name(), p.warmup(), p.totals().figures()));
        }
        return new Measurement(totals.figures(), totals.outcomesByLabel(false), totals.outcomesByLabel(true),
                totals.histograms(), phaseSummaries, totals.perOp());
    }

    /**
     * How long past its deadline a run waits for a worker still behind on slots due before the deadline, which the
     * limiter has not handed out yet (after a GC pause or a stall of the loaded machine at the end: a run stopped at
     * the deadline itself never sent them, nor counted them). A ticked run waits two ticks more, whatever the limiter
     * owes, for a worker parked for a tick across the deadline (with 2 ticks alone, 1 in a few CI runs lost the last
     * slot). Workers on time leave by themselves at the deadline and the run ends then; workers parked for slots
     * after it (a low rate) do not hold the run up.
     */
    static final long END_SLACK_NANOS = 20_000_000;
    /** How often the reporter looks again, past the deadline, whether the limiter still owes slots due before it. */
    private static final long END_POLL_NANOS = 1_000_000;

    /**
     * Stage 1: intervals until the schedule ends; stops the activity at its deadline, or up to {@link #END_SLACK_NANOS}
     * (and two ticks, with a pacing tick) after it while a late worker still takes the slots due before it, then
     * leaves by itself, and the run ends then. Returns the last cut.
     */
    private long reportSchedule() {
        long lastCut = startNanos;
        long nextTick = startNanos + intervalNanos;
        Duration tick = activity.config().pacingTick();
        long slack = END_SLACK_NANOS + (tick == null ? 0 : 2 * tick.toNanos());
        // the limiter's snapshot loads classes of its own the first time: here, not at the end, where an op may hold
        // every file descriptor and a class read from a directory cannot be opened (RunEndsWritingItsFilesTest)
        owesSlots();
        while (activity.isRunning() && !activity.workersGone()) {
            long now = clock.nanoTime();
            long nominal = activity.deadlineNanos(); // none: Long.MAX_VALUE
            boolean late = now >= nominal; // past the deadline: only late workers are waited for
            if (late && (now - nominal >= slack || tick == null && !owesSlots())) {
                activity.stop(StopReason.DURATION, StopReason.DURATION.label());
                break;
            }
            PendingPhase next = pending.get();
            boolean boundary = next != null && next.due(now);
            // past the deadline no interval is cut: the late slots go into the run's last interval, not a new one
            if (!late && (now >= nextTick || boundary)) {
                cut(lastCut, now, false);
                lastCut = now;
                if (boundary) {
                    takePendingPhase(now);
                }
                while (nextTick <= now) {
                    nextTick += intervalNanos;
                }
                continue;
            }
            if (!wake) {
                long until;
                if (late) { // the workers' end unparks it; without a tick, the limiter is looked at again
                    until = tick != null ? nominal + slack : Math.min(now + END_POLL_NANOS, nominal + slack);
                } else {
                    until = Math.min(nextTick, nominal);
                    if (next != null && !next.atOnce() && next.atNanos() - until < 0) {
                        until = next.atNanos();
                    }
                }
                clock.park(until - now); // a stop, a phase or the workers' end unparks it too
            }
            wake = false;
        }
        if (activity.isRunning()) { // every worker left by itself: the cycles ran out, or all reached the deadline
            StopReason planned = activity.deadlineReached() ? StopReason.DURATION
                    : activity.config().cycles() > 0 ? StopReason.CYCLES : StopReason.END;
            activity.stop(planned, planned.label());
        }
        return lastCut;
    }

    /** Whether the limiter has slots due by now that no worker took yet (false for an unpaced run). */
    private boolean owesSlots() {
        RateLimiter limiter = activity.control.limiter;
        if (limiter == null) {
            return false;
        }
        LimiterSnapshot s = limiter.snapshot();
        return s.lagNanos() + s.reservedNanos() > 0;
    }

    /**
     * Where the run's length ends: the nominal deadline for a run that ended by its duration (workers may
     * have stopped a hair before it, woken early within the park threshold for the last slot; the
     * reporter notices a little after it), else the moment it was stopped or its last worker left.
     */
    private long scheduleEnd() {
        if (activity.stopReason() == StopReason.DURATION && activity.config().duration() != null) {
            return startNanos + activity.config().duration().toNanos();
        }
        return activity.stopNanos();
    }

    /**
     * Stages 2 and 3: ops in flight finish, in drain intervals, until none is left or the grace period
     * after the schedule's end ends (its deadline when it ended by its duration, however late the stop came within
     * the end slack; else the stop), or a second stop cuts it short; what is left then is cancelled.
     */
    private void drain(long from) {
        long lastCut = from;
        long graceEnd = scheduleEnd() + graceNanos;
        long nextTick = from + intervalNanos;
        while (!activity.isDone() && !activity.hurried()) {
            long now = clock.nanoTime();
            if (now - graceEnd >= 0) {
                break;
            }
            if (now >= nextTick) {
                cut(lastCut, now, true);
                lastCut = now;
                nextTick = now + intervalNanos;
                continue;
            }
            if (!wake) {
                clock.park(Math.min(nextTick, graceEnd) - now); // the last completion unparks it
            }
            wake = false;
        }
        long now = clock.nanoTime();
        if (!activity.isDone()) {
            activity.abandonUnsent();
            for (InFlightOp op : activity.outstanding()) {
                activity.metrics().cancel(op, now);
            }
            activity.interruptWorkers();
        }
        if (!activity.workersGone()) { // their not-sent records go into the last interval, not after it
            try {
                activity.awaitWorkersGone(WORKERS_LEAVING_NANOS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        cut(lastCut, now, true);
        PendingPhase late = pending.getAndSet(null);
        if (late != null) {
            late.cut().complete(null);
        }
    }

    /**
     * Begins the pending phase if it is due at the cut {@code cutNanos}: marks it there and counts from there under it.
     */
    private void takePendingPhase(long cutNanos) {
        PendingPhase p = pending.get();
        if (p != null && p.due(cutNanos) && pending.compareAndSet(p, null)) {
            activity.markPhase(p.label(), p.source(), cutNanos);
            phase = p.phase();
            p.cut().complete(null);
        }
    }

    /**
     * Drains the interval {@code from .. to} and reports it. A drain interval (after the schedule's end)
     * adds its ops but not its time, asks the target for nothing, and is reported only if it has ops.
     */
    private void cut(long from, long to, boolean drain) {
        IntervalStats stats = activity.metrics().drain(from, to, epochMs(from), epochMs(to));
        TargetLedger.Target asked = drain ? TargetLedger.Target.NONE : activity.target().cut(to);
        boolean warmup = phase != null && phase.warmup();
        if (!warmup) {
            totals.add(stats, asked, !drain);
        }
        if (phase != null) {
            phase.totals().add(stats, asked, !drain);
            phases.putIfAbsent(phase.name(), phase);
        }
        if (drain && stats.ops() == 0) {
            return;
        }
        IntervalReport report = new IntervalReport(stats, (to - startNanos) / 1e9, activity.rate(), asked.rate(),
                activity.threads(), phase == null ? null : phase.name(), warmup, drain, activity.inFlight(),
                totals.ops(), totals.seconds(), totals.errors());
        for (Consumer<IntervalReport> l : listeners) {
            l.accept(report);
        }
    }

    private long epochMs(long nanos) {
        return startEpochMs + (nanos - startNanos) / 1_000_000;
    }

    private void wake() {
        wake = true;
        Thread t = thread;
        if (t != null) {
            clock.unpark(t);
        }
    }
}
