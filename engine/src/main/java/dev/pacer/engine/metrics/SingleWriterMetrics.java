package dev.pacer.engine.metrics;

import dev.pacer.engine.op.Outcome;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * One worker's metrics: plain histograms and a plain array of outcome counts per phase, written by the
 * owning worker only (about 7 ns a value for a histogram, and one phaser enter/exit per op).
 *
 * <h2>Shared fields</h2>
 * {@code active}: written by the reporter under the phaser's reader lock (volatile store), read by the
 * writer once per op inside its critical section; the phaser's flip guarantees the writer has left a
 * phase before the reporter reads or clears it. A phase's contents are written only by the worker while
 * it is active and read only by the reporter once it has retired.
 */
public final class SingleWriterMetrics extends WorkerMetrics {

    /** One phase: what a worker recorded while it was active. */
    private static final class Phase {
        final Histogram wait = IntervalStats.newHistogram();
        final Histogram service = IntervalStats.newHistogram();
        final Histogram response = IntervalStats.newHistogram();
        long[] counts = new long[8];

        void clear() {
            wait.reset();
            service.reset();
            response.reset();
            Arrays.fill(counts, 0);
        }
    }

    private volatile Phase active = new Phase();
    /** Reporter thread only: the phase not in use. */
    private Phase retired = new Phase();

    SingleWriterMetrics(MetricsRegistry registry) {
        super(registry);
    }

    @Override
    void recordInActive(long w, long s, Outcome outcome) {
        Phase p = active;
        p.wait.recordValue(w);
        p.service.recordValue(s);
        p.response.recordValue(w + s);
        int id = outcome.id();
        if (id >= p.counts.length) {
            p.counts = Arrays.copyOf(p.counts, Math.max(id + 1, p.counts.length * 2));
        }
        p.counts[id]++;
    }

    @Override
    void swapPhases() {
        Phase next = retired;
        next.clear();
        retired = active;
        active = next;
    }

    @Override
    void drainRetired(IntervalStats interval) {
        Phase p = retired;
        interval.add(p.wait, p.service, p.response);
        for (int id = 0; id < p.counts.length; id++) {
            if (p.counts[id] != 0) {
                interval.addOutcome(id, p.counts[id]);
            }
        }
    }
}
