package dev.pacer.engine.metrics;

import dev.pacer.engine.op.Outcome;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Metrics any number of threads record into at once: concurrent histograms and a concurrent map of
 * outcome counters per phase. Used for runs with so many workers (virtual threads) that a set each
 * would cost too much memory ({@link MetricsRegistry} spreads them over a few stripes), and for the
 * completions of asynchronous ops, which arrive on I/O threads.
 *
 * <h2>Shared fields</h2>
 * {@code active}: written by the reporter under the phaser's reader lock (volatile store), read by
 * writers once per op inside their critical section. A phase's histograms and counters take concurrent
 * writes while it is active; the reporter reads a phase only after the flip, when no writer is left in
 * it.
 */
public final class SharedMetrics extends WorkerMetrics {

    /** One phase: what the writers recorded while it was active. */
    private static final class Phase {
        final Histogram wait = concurrentHistogram();
        final Histogram service = concurrentHistogram();
        final Histogram response = concurrentHistogram();
        final ConcurrentHashMap<Outcome, LongAdder> counts = new ConcurrentHashMap<>();

        void clear() {
            wait.reset();
            service.reset();
            response.reset();
            counts.values().forEach(LongAdder::reset); // keeps the adders: no allocation per interval
        }
    }

    private volatile Phase active = new Phase();
    /** Reporter thread only: the phase not in use. */
    private Phase retired = new Phase();

    private static Histogram concurrentHistogram() {
        ConcurrentHistogram h = new ConcurrentHistogram(DIGITS);
        h.setAutoResize(true);
        return h;
    }

    SharedMetrics(MetricsRegistry registry) {
        super(registry);
    }

    @Override
    void recordInActive(long w, long s, Outcome outcome) {
        Phase p = active;
        p.wait.recordValue(w);
        p.service.recordValue(s);
        p.response.recordValue(w + s);
        LongAdder adder = p.counts.get(outcome);
        if (adder == null) {
            adder = p.counts.computeIfAbsent(outcome, o -> new LongAdder());
        }
        adder.increment();
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
        p.counts.forEach((outcome, adder) -> {
            long n = adder.sum();
            if (n != 0) {
                interval.addOutcome(outcome.id(), n);
            }
        });
    }
}
