package dev.pacer.engine.metrics;

import dev.pacer.engine.api.IntervalStats;

import dev.pacer.engine.api.Outcome;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Metrics any number of threads record into at once: concurrent histograms and an adder per outcome
 * per tally (the totals' and each named op's, in each phase). Used for runs with so many workers (virtual threads)
 * that a set each would cost too much memory ({@link MetricsRegistry} spreads them over a few stripes), and for the
 * completions of asynchronous ops, which arrive on I/O threads. A phase's histograms and counters take concurrent
 * writes while it is active; the reporter reads a phase only after the flip, when no writer is left in it (see
 * {@link WorkerMetrics}).
 */
public final class SharedMetrics extends WorkerMetrics {

    /**
     * One tally of many writers: an adder per outcome, indexed by the outcome's {@link Outcome#id()}, created on its
     * first use and kept. {@code adders}: copy-on-write; a writer that finds no adder makes one under this tally's
     * monitor and publishes a new array (the old adders in it) by the volatile write, so a reader of the field sees
     * every adder made before it. An array, not a map: the lookup was most of a completion's cost in the metrics
     * (a {@code ConcurrentHashMap.get} per op, 2.4 % of the http op's event loop at 40 000 req/s, async-profiler).
     */
    private static final class CountingTally extends Tally {
        private volatile LongAdder[] adders = new LongAdder[8];

        CountingTally(int steps) {
            super(SharedMetrics::concurrentHistogram, steps);
        }

        @Override
        void count(Outcome outcome) {
            int id = outcome.id();
            LongAdder[] a = adders;
            LongAdder adder = id < a.length ? a[id] : null;
            if (adder == null) {
                adder = adderFor(id);
            }
            adder.increment();
        }

        private synchronized LongAdder adderFor(int id) {
            LongAdder[] a = adders;
            if (id < a.length && a[id] != null) {
                return a[id];
            }
            LongAdder[] grown = Arrays.copyOf(a, Math.max(a.length, Integer.highestOneBit(id) << 1));
            grown[id] = new LongAdder();
            adders = grown;
            return grown[id];
        }

        @Override
        void drainCounts(IntervalStats interval) {
            LongAdder[] a = adders;
            for (int id = 0; id < a.length; id++) {
                long n = a[id] == null ? 0 : a[id].sum();
                if (n != 0) {
                    interval.addOutcome(id, n);
                }
            }
        }

        @Override
        void clearCounts() {
            for (LongAdder adder : adders) { // keeps the adders: no allocation per interval
                if (adder != null) {
                    adder.reset();
                }
            }
        }
    }

    private static Histogram concurrentHistogram() {
        ConcurrentHistogram h = new ConcurrentHistogram(DIGITS);
        h.setAutoResize(true);
        return h;
    }

    SharedMetrics(MetricsRegistry registry, int[] steps) {
        super(registry, CountingTally::new, steps);
    }
}
