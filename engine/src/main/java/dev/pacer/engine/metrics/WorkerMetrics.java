package dev.pacer.engine.metrics;

import dev.pacer.engine.op.Outcome;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
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

    /**
     * One phase: what was recorded while it was active. The histograms are the subclass's kind (plain for one
     * writer, concurrent for many); so are the outcome counters.
     */
    abstract static class Phase {
        final Histogram wait;
        final Histogram service;
        final Histogram response;

        Phase(Supplier<Histogram> histogram) {
            wait = histogram.get();
            service = histogram.get();
            response = histogram.get();
        }

        /** Inside a writer critical section: one more op with this outcome. */
        abstract void count(Outcome outcome);

        /** Reporter only, on a retired phase: adds the outcome counts to {@code interval}. */
        abstract void drainCounts(IntervalStats interval);

        /** Reporter only, on a retired phase: zeroes the counters, keeping what they allocated. */
        abstract void clearCounts();

        final void clear() {
            wait.reset();
            service.reset();
            response.reset();
            clearCounts();
        }
    }

    /**
     * The phase writers record into: written by the reporter under the phaser's reader lock (volatile store),
     * read by writers once per op inside their critical section; the phaser's flip guarantees every writer has
     * left a phase before the reporter reads or clears it.
     */
    private volatile Phase active;
    /** Reporter thread only: the phase not in use. */
    private Phase retired;

    WorkerMetrics(MetricsRegistry registry, Supplier<Phase> phase) {
        this.registry = registry;
        this.active = phase.get();
        this.retired = phase.get();
    }

    /** Inside a writer critical section: adds one op to the active phase. */
    private void recordInActive(long waitNanos, long serviceNanos, Outcome outcome) {
        Phase p = active;
        p.wait.recordValue(waitNanos);
        if (outcome != Outcome.NOT_SENT) { // never started: it has a wait and a response, no service time
            p.service.recordValue(serviceNanos);
        }
        p.response.recordValue(waitNanos + serviceNanos);
        p.count(outcome);
    }

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
    private void swapPhases() {
        Phase next = retired;
        next.clear();
        retired = active;
        active = next;
    }

    /** Adds the retired phase's histograms and outcome counts to {@code interval}; no writer touches it now. */
    private void drainRetired(IntervalStats interval) {
        Phase p = retired;
        interval.add(p.wait, p.service, p.response);
        p.drainCounts(interval);
    }
}
