package dev.pacer.engine.metrics;

import dev.pacer.engine.op.Outcome;

/**
 * Where a worker records each op: wait, service and response time (ns) and the outcome.
 *
 * <p>{@link #record} is wait-free and allocation-free. Which threads may call it depends on the
 * implementation: {@link SingleWriterMetrics} belongs to one worker, {@link SharedMetrics} is a
 * stripe shared by many (for thousands of virtual threads). The reporter thread drains either with
 * {@link #drainInto(IntervalStats)}.
 */
public abstract sealed class WorkerMetrics permits SingleWriterMetrics, SharedMetrics {

    /** Significant digits of every histogram (0.1 % value resolution). */
    public static final int DIGITS = 3;

    /** Records one op: response = wait + service. */
    public abstract void record(long waitNanos, long serviceNanos, Outcome outcome);

    /** Reporter thread only: moves what was recorded since the last drain into {@code interval}. */
    abstract void drainInto(IntervalStats interval);
}
