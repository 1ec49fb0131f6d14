package dev.pacer.engine.metrics;

import dev.pacer.engine.api.IntervalStats;

import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Where ops are recorded: wait, service and response time (ns) and the outcome, in the run's totals and, for an op
 * of a mix ({@link OpMix}), under its named op too, all under one {@link WriterReaderPhaser}, so each op lands whole
 * in one interval (its three times and its outcome, in the totals and in its op's figures) and a drained interval's
 * counts agree with each other exactly: each op's add up to the totals'.
 *
 * <p>Each recording goes to the active phase inside a writer critical section (two atomic increments per op,
 * whatever is recorded; an op of a mix records its values twice, in the totals and in its op's tally); the reporter
 * drains by making the other phase active, flipping the phaser (which waits for writers still in the old phase) and
 * reading the old phase at leisure. Which threads may record depends on the subclass: {@link SingleWriterMetrics}
 * belongs to one worker, {@link SharedMetrics} takes many writers (stripes shared by thousands of virtual threads,
 * or the completions of asynchronous ops).
 */
public abstract sealed class WorkerMetrics permits SingleWriterMetrics, SharedMetrics {

    /** Significant digits of every histogram (0.1 % value resolution). */
    public static final int DIGITS = IntervalStats.DIGITS;

    /** Guards the swap of phases: writers enter and exit, the reporter flips. */
    final WriterReaderPhaser phaser = new WriterReaderPhaser();
    /** Whose closing flag this set reads (see {@link #complete}). */
    private final MetricsRegistry registry;

    /**
     * Records one op of no named op: response = wait + service. Wait-free and allocation-free (but for the first
     * use of an outcome); times are clamped at 0.
     */
    public final void record(long waitNanos, long serviceNanos, Outcome outcome) {
        record(waitNanos, serviceNanos, outcome, OpMix.NO_OP);
    }

    /**
     * Records one op in the totals and under the run's named op {@code opIndex} (an index into the registry's op
     * names; any other value records in the totals only): response = wait + service. Wait-free and allocation-free
     * (but for the first use of an outcome, and of a named op in each of the two phases); times are clamped at 0.
     */
    public final void record(long waitNanos, long serviceNanos, Outcome outcome, int opIndex) {
        long enter = phaser.writerCriticalSectionEnter();
        recordInActive(Math.max(0, waitNanos), Math.max(0, serviceNanos), outcome, opIndex);
        phaser.writerCriticalSectionExit(enter);
    }

    /**
     * Records an op that ended at {@code endNanos}: wait = start − scheduled, service = end − start, under the named
     * op it began with ({@link InFlightOp#opIndex()}) as well as in the totals.
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
            // an op that was never sent (it waited in its client's queue to the end) waited all along: no service
            long start = outcome == Outcome.NOT_SENT ? Math.max(op.startNanos(), endNanos) : op.startNanos();
            Tally named = recordInActive(Math.max(0, start - op.scheduledNanos()), Math.max(0, endNanos - start),
                    outcome, op.opIndex());
            // a canceller does not read the op's steps (its thread may still be writing them)
            if (named != null && named.steps.length > 0 && outcome != Outcome.CANCELLED
                    && outcome != Outcome.NOT_SENT) {
                named.recordSteps(op, endNanos);
            }
            return true;
        } finally {
            phaser.writerCriticalSectionExit(enter);
        }
    }

    /**
     * What ops recorded while a phase was active: the three histograms and the outcome counts, of the subclass's
     * kind (plain for one writer, concurrent for many). A phase has one for the totals and one per named op.
     */
    abstract static class Tally {
        final Histogram wait;
        final Histogram service;
        final Histogram response;
        /** A multi-step named op's service time per step (none for the totals and an op of one step). */
        final Histogram[] steps;

        Tally(Supplier<Histogram> histogram, int steps) {
            wait = histogram.get();
            service = histogram.get();
            response = histogram.get();
            this.steps = new Histogram[steps];
            for (int i = 0; i < steps; i++) {
                this.steps[i] = histogram.get();
            }
        }

        /**
         * Inside a writer critical section: each step the op ran, up to the one that ended it at {@code endNanos}:
         * from the previous step's end (the op's start) to its own.
         */
        final void recordSteps(InFlightOp op, long endNanos) {
            long from = op.startNanos();
            int ran = Math.min(op.stepsEnded() + 1, steps.length);
            for (int i = 0; i < ran; i++) {
                long to = i < op.stepsEnded() ? op.stepEnd(i) : endNanos;
                steps[i].recordValue(Math.max(0, to - from));
                from = to;
            }
        }

        /** Inside a writer critical section: one more op with this outcome. */
        abstract void count(Outcome outcome);

        /** Reporter only, on a retired phase: adds the outcome counts to {@code interval}. */
        abstract void drainCounts(IntervalStats interval);

        /** Reporter only, on a retired phase: zeroes the counters, keeping what they allocated. */
        abstract void clearCounts();

        /** Inside a writer critical section: one op, its times clamped already. */
        final void record(long waitNanos, long serviceNanos, Outcome outcome) {
            wait.recordValue(waitNanos);
            if (outcome != Outcome.NOT_SENT) { // never started: it has a wait and a response, no service time
                service.recordValue(serviceNanos);
            }
            response.recordValue(waitNanos + serviceNanos);
            count(outcome);
        }

        /** Reporter only, on a retired phase: adds what it holds to {@code interval}. */
        final void drainInto(IntervalStats interval) {
            interval.add(wait, service, response);
            for (int i = 0; i < steps.length; i++) {
                interval.addStep(i, steps[i]);
            }
            drainCounts(interval);
        }

        final void clear() {
            wait.reset();
            service.reset();
            response.reset();
            for (Histogram h : steps) {
                h.reset();
            }
            clearCounts();
        }
    }

    /**
     * One phase: the totals' tally and each named op's. An op's tally is made when the phase first records one of its
     * ops (a CAS into its slot: writers may race to make it, one wins and every writer uses the winner's) and is kept
     * for the rest of the run; the reporter reads the slots only once the phase has retired.
     */
    static final class Phase {
        final Tally total;
        private final AtomicReferenceArray<Tally> ops;
        /** Makes a tally with this many steps' histograms. */
        private final IntFunction<Tally> tally;
        /** Each named op's steps kept (0: one step). */
        private final int[] steps;

        Phase(IntFunction<Tally> tally, int[] steps) {
            this.tally = tally;
            this.steps = steps;
            this.total = tally.apply(0);
            this.ops = new AtomicReferenceArray<>(steps.length);
        }

        /** Inside a writer critical section: named op {@code opIndex}'s tally, or null when there is no such op. */
        Tally op(int opIndex) {
            if (opIndex < 0 || opIndex >= ops.length()) {
                return null;
            }
            Tally t = ops.getAcquire(opIndex);
            return t != null ? t : make(opIndex);
        }

        /** The op's first record in this phase: its tally, made here unless another writer made it first. */
        private Tally make(int opIndex) {
            Tally made = tally.apply(steps[opIndex]);
            Tally first = ops.compareAndExchange(opIndex, null, made);
            return first == null ? made : first;
        }

        /** Reporter only, on a retired phase: adds the totals and each op's figures to {@code interval}. */
        void drainInto(IntervalStats interval) {
            total.drainInto(interval);
            for (int i = 0; i < ops.length(); i++) {
                Tally t = ops.getAcquire(i);
                if (t != null) {
                    t.drainInto(interval.op(i));
                }
            }
        }

        /** Reporter only, on a retired phase: empties it, keeping what it allocated. */
        void clear() {
            total.clear();
            for (int i = 0; i < ops.length(); i++) {
                Tally t = ops.getAcquire(i);
                if (t != null) {
                    t.clear();
                }
            }
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

    /**
     * @param tally makes one tally of the subclass's kind, with a number of steps' histograms
     * @param steps the steps kept of each named op the run has (each op gets its own tally in each phase)
     */
    WorkerMetrics(MetricsRegistry registry, IntFunction<Tally> tally, int[] steps) {
        this.registry = registry;
        this.active = new Phase(tally, steps);
        this.retired = new Phase(tally, steps);
    }

    /**
     * Inside a writer critical section: adds one op to the active phase's totals and to its named op's; returns the
     * named op's tally, or null.
     */
    private Tally recordInActive(long waitNanos, long serviceNanos, Outcome outcome, int opIndex) {
        Phase p = active;
        p.total.record(waitNanos, serviceNanos, outcome);
        Tally op = p.op(opIndex);
        if (op != null) {
            op.record(waitNanos, serviceNanos, outcome);
        }
        return op;
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
        retired.drainInto(interval);
    }
}
