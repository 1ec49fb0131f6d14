package dev.pacer.engine.metrics;

import dev.pacer.engine.api.IntervalStats;

import dev.pacer.engine.api.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every recorder of a run, for the reporter to drain.
 *
 * <p>Workers {@link #attach(boolean)} when they start and {@link #detach(WorkerMetrics)} when they
 * exit; a detached single-writer set is drained once more and then dropped, so nothing a retiring
 * worker recorded is lost. {@link #drain} is called by one thread, the reporter.
 *
 * <h2>Closing</h2>
 * When the run's schedule ends the reporter calls {@link #close()}, then drains (which flips every
 * set's phaser): from then on every completion claims its op by CAS (see
 * {@link WorkerMetrics#complete}), so {@link #cancel} may race completions and each op is still
 * recorded once. {@code closing}: written once by the reporter (volatile), read by writers inside
 * their critical section.
 */
public final class MetricsRegistry {

    /** Stripes shared by workers when there are many of them (virtual threads). */
    static final int STRIPES = 8;

    private final List<SingleWriterMetrics> exclusive = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<SingleWriterMetrics> detached = new ConcurrentLinkedQueue<>();
    private final List<SharedMetrics> stripes = new ArrayList<>();
    /** The run's named ops (an op mix's), whose figures are kept beside the totals; empty for a plain op. */
    private final List<String> opNames;
    /** Each named op's steps whose service times are kept (0: an op of one step), in {@link #opNames} order. */
    private final int[] steps;
    /** Where cancellations are recorded. */
    private final SharedMetrics cancellations;
    private int nextStripe;
    private volatile boolean closing;

    /** The recorders of a run with no named ops. */
    public MetricsRegistry() {
        this(List.of());
    }

    /**
     * The recorders of a run whose op mix names {@code opNames}: ops recorded with an index into them are counted
     * under that op as well as in the totals.
     */
    public MetricsRegistry(List<String> opNames) {
        this(opNames, new int[opNames.size()]);
    }

    /**
     * As {@link #MetricsRegistry(List)}, keeping the service time of each of {@code steps[i]} steps of named op
     * {@code i} too (0 or 1: none; at most {@link dev.pacer.engine.op.OpMix#MAX_STEPS}; see
     * {@link dev.pacer.engine.op.OpMix#stepsOf}).
     */
    public MetricsRegistry(List<String> opNames, int[] steps) {
        if (steps.length != opNames.size()) {
            throw new IllegalArgumentException(steps.length + " step counts for " + opNames.size() + " ops");
        }
        this.opNames = List.copyOf(opNames);
        this.steps = steps.clone();
        for (int i = 0; i < this.steps.length; i++) {
            this.steps[i] = this.steps[i] > 1 ? Math.min(this.steps[i], dev.pacer.engine.op.OpMix.MAX_STEPS) : 0;
        }
        this.cancellations = new SharedMetrics(this, this.steps);
        for (int i = 0; i < STRIPES; i++) {
            stripes.add(new SharedMetrics(this, this.steps));
        }
    }

    /** The run's named ops, in their order (the index ops are recorded under). */
    public List<String> opNames() {
        return opNames;
    }

    /**
     * Metrics for a new worker: its own single-writer set, or (when {@code shared}: many workers, or
     * completions on other threads) one of a few stripes shared round-robin.
     */
    public synchronized WorkerMetrics attach(boolean shared) {
        if (shared) {
            return stripes.get(nextStripe++ % STRIPES);
        }
        SingleWriterMetrics m = new SingleWriterMetrics(this, steps);
        exclusive.add(m);
        return m;
    }

    /**
     * Called by a worker after its last {@code record}: its metrics are drained once more, then dropped.
     *
     * <p>A drain may run meanwhile (a worker leaves while the reporter cuts an interval, as at a run's deadline). The
     * set joins {@link #detached} before it leaves {@link #exclusive}, so that drain finds it in one or both and what
     * it recorded lands in the interval being cut: leaving first, a drain between the two steps would miss it, and its
     * ops would be counted one interval late. Found in both, it is drained twice; the second drain finds only what
     * was recorded between the two (nothing, after the last record).
     */
    public void detach(WorkerMetrics metrics) {
        if (metrics instanceof SingleWriterMetrics m && exclusive.contains(m)) {
            detached.add(m);
            exclusive.remove(m);
        }
    }

    /** Reporter thread: the run's schedule has ended; drain next, then {@link #cancel} is safe. */
    public void close() {
        closing = true;
    }

    boolean closing() {
        return closing;
    }

    /**
     * Reporter thread, after {@link #close()} and a drain: records {@code op} as {@link Outcome#CANCELLED}
     * at {@code nowNanos} unless it completed first. True if it was cancelled here.
     */
    public boolean cancel(InFlightOp op, long nowNanos) {
        if (!closing) {
            throw new IllegalStateException("cancel before close");
        }
        return cancellations.complete(op, nowNanos, Outcome.CANCELLED);
    }

    /**
     * Reporter thread only: everything recorded since the previous drain, merged: the totals and each named op's.
     *
     * @param startNanos   monotonic time the interval began
     * @param endNanos     monotonic time it ended (now)
     * @param startEpochMs the same bounds in epoch milliseconds, for the .hlog
     */
    public IntervalStats drain(long startNanos, long endNanos, long startEpochMs, long endEpochMs) {
        IntervalStats interval = new IntervalStats(opNames);
        for (SingleWriterMetrics m : exclusive) {
            m.drainInto(interval);
        }
        for (SingleWriterMetrics m; (m = detached.poll()) != null; ) {
            m.drainInto(interval);
        }
        for (SharedMetrics m : stripes) {
            m.drainInto(interval);
        }
        cancellations.drainInto(interval);
        interval.bounds(startNanos, endNanos, startEpochMs, endEpochMs);
        return interval;
    }
}
