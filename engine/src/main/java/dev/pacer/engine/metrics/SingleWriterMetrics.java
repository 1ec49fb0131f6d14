package dev.pacer.engine.metrics;

import dev.pacer.engine.api.IntervalStats;

import dev.pacer.engine.api.Outcome;
import java.util.Arrays;

/**
 * One worker's metrics: plain histograms and a plain array of outcome counts per tally (the totals' and each named
 * op's, in each phase), written by the owning worker only (about 7 ns a value for a histogram, and one phaser
 * enter/exit per op). A phase's contents are written only by the worker while it is active and read only by the
 * reporter once it has retired (see {@link WorkerMetrics} for the phase swap).
 */
public final class SingleWriterMetrics extends WorkerMetrics {

    /** One tally of one writer: outcome counts indexed by {@link Outcome#id()}, grown on first use of an id. */
    private static final class CountingTally extends Tally {
        long[] counts = new long[8];

        CountingTally(int steps) {
            super(IntervalStats::newHistogram, steps);
        }

        @Override
        void count(Outcome outcome) {
            int id = outcome.id();
            if (id >= counts.length) {
                counts = Arrays.copyOf(counts, Math.max(id + 1, counts.length * 2));
            }
            counts[id]++;
        }

        @Override
        void drainCounts(IntervalStats interval) {
            for (int id = 0; id < counts.length; id++) {
                if (counts[id] != 0) {
                    interval.addOutcome(id, counts[id]);
                }
            }
        }

        @Override
        void clearCounts() {
            Arrays.fill(counts, 0);
        }
    }

    SingleWriterMetrics(MetricsRegistry registry, int[] steps) {
        super(registry, CountingTally::new, steps);
    }
}
