package dev.pacer.engine.metrics;

import dev.pacer.engine.op.Outcome;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Where ops are recorded: wait, service and response time (ns) and the outcome, all four under one
 * {@link WriterReaderPhaser}, so each op lands whole in one interval (its three times and its outcome
 * together) and a drained interval's counts agree with each other exactly.
 *
 * <p>Each recording goes to the active phase inside a writer critical section (two atomic increments
 * per op, whatever is recorded); the reporter drains by making the other phase active, flipping the
 * phaser (which waits for writers still in the old phase) and reading the old phase at leisure. Which
 * threads may record depends on the subclass: {@link SingleWriterMetrics} belongs to one worker,
 * {@link SharedMetrics} takes many writers (stripes shared by thousands of virtual threads, or the
 * completions of asynchronous ops).
 */
public abstract sealed class WorkerMetrics permits SingleWriterMetrics, SharedMetrics {

    /** Significant digits of every histogram (0.1 % value resolution). */
    public static final int DIGITS = 3;

    /** Guards the swap of phases: writers enter and exit, the reporter flips. */
    final WriterReaderPhaser phaser = new WriterReaderPhaser();
    /** Whose closing flag this set reads (see {@link #complete}). */
    private final MetricsRegistry registry;

    WorkerMetrics(MetricsRegistry registry) {
        this.registry = registry;
    }

    /**
     * Records one op: response = wait + service. Wait-free and allocation-free (but for the first use of
     * an outcome); times are clamped at 0.
     */
    public final void record(long waitNanos, long serviceNanos, Outcome outcome) {
        long enter = phaser.writerCriticalSectionEnter();
        recordInActive(Math.max(0, waitNanos), Math.max(0, serviceNanos), outcome);
        phaser.writerCriticalSectionExit(enter);
    }

    /**
     * Records an op that ended at {@code endNanos}: wait = start − scheduled, service = end − start.
     * Exactly once per op, whatever races: while the run goes the op's owner is the only one who can
     * end it; once the registry is closing, the completion and a cancellation claim the op by CAS and
     * only the winner records. The closing flag is read inside the writer critical section, so once the
     * reporter has set it and flipped the phaser, no completion can still take the uncontended path.
     *
     * @return false when the op had been cancelled already (nothing recorded)
     */
    public final boolean complete(InFlightOp op, long endNanos, Outcome outcome) {
        long enter = phaser.writerCriticalSectionEnter();
        try {
            if (!registry.closing()) {
                op.endUncontended();
            } else if (!op.claim()) {
                return false;
            }
            long start = op.startNanos();
            recordInActive(Math.max(0, start - op.scheduledNanos()), Math.max(0, endNanos - start), outcome);
            return true;
        } finally {
            phaser.writerCriticalSectionExit(enter);
        }
    }

    /** Inside a writer critical section: adds one op to the active phase. */
    abstract void recordInActive(long waitNanos, long serviceNanos, Outcome outcome);

    /** Reporter thread only: moves what was recorded since the last drain into {@code interval}. */
    final void drainInto(IntervalStats interval) {
        phaser.readerLock();
        try {
            swapPhases();
            phaser.flipPhase(); // returns once no writer is left in the phase just retired
        } finally {
            phaser.readerUnlock();
        }
        drainRetired(interval);
    }

    /** Under the reader lock: the retired phase becomes active (cleared first), the active one retires. */
    abstract void swapPhases();

    /** Adds the retired phase's histograms and outcome counts to {@code interval}; no writer touches it now. */
    abstract void drainRetired(IntervalStats interval);
}
