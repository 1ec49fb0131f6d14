package dev.pacer.engine.metrics;

import dev.pacer.engine.api.IntervalStats;

import dev.pacer.engine.api.Outcome;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Metrics any number of threads record into at once: concurrent histograms and a concurrent map of outcome counters
 * per tally (the totals' and each named op's, in each phase). Used for runs with so many workers (virtual threads)
 * that a set each would cost too much memory ({@link MetricsRegistry} spreads them over a few stripes), and for the
 * completions of asynchronous ops, which arrive on I/O threads. A phase's histograms and counters take concurrent
 * writes while it is active; the reporter reads a phase only after the flip, when no writer is left in it (see
 * {@link WorkerMetrics}).
 */
public final class SharedMetrics extends WorkerMetrics {

    /** One tally of many writers: an adder per outcome, created on its first use and kept. */
    private static final class CountingTally extends Tally {
        final ConcurrentHashMap<Outcome, LongAdder> counts = new ConcurrentHashMap<>();

        CountingTally() {
            super(SharedMetrics::concurrentHistogram);
        }

        @Override
        void count(Outcome outcome) {
            LongAdder adder = counts.get(outcome);
            if (adder == null) {
                adder = counts.computeIfAbsent(outcome, o -> new LongAdder());
            }
            adder.increment();
        }

        @Override
        void drainCounts(IntervalStats interval) {
            counts.forEach((outcome, adder) -> {
                long n = adder.sum();
                if (n != 0) {
                    interval.addOutcome(outcome.id(), n);
                }
            });
        }

        @Override
        void clearCounts() {
            counts.values().forEach(LongAdder::reset); // keeps the adders: no allocation per interval
        }
    }

    private static Histogram concurrentHistogram() {
        ConcurrentHistogram h = new ConcurrentHistogram(DIGITS);
        h.setAutoResize(true);
        return h;
    }

    SharedMetrics(MetricsRegistry registry, int opCount) {
        super(registry, CountingTally::new, opCount);
    }
}
