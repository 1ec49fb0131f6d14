package dev.pacer.engine.metrics;

import dev.pacer.engine.op.Outcome;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A stripe of metrics shared by many workers: three multi-writer {@link Recorder}s and a
 * concurrent map of outcome counters. Used when a run has so many workers (virtual threads) that a
 * recorder each would cost too much memory; {@link MetricsRegistry} spreads workers over a few
 * stripes so each stripe sees little contention.
 */
public final class SharedMetrics extends WorkerMetrics {

    private final Recorder wait = new Recorder(DIGITS);
    private final Recorder service = new Recorder(DIGITS);
    private final Recorder response = new Recorder(DIGITS);
    private final ConcurrentHashMap<Outcome, LongAdder> counts = new ConcurrentHashMap<>();

    // reporter-only state
    private final ConcurrentHashMap<Outcome, Long> reported = new ConcurrentHashMap<>();
    private Histogram recycleWait;
    private Histogram recycleService;
    private Histogram recycleResponse;

    @Override
    public void record(long waitNanos, long serviceNanos, Outcome outcome) {
        wait.recordValue(waitNanos);
        service.recordValue(serviceNanos);
        response.recordValue(waitNanos + serviceNanos);
        LongAdder adder = counts.get(outcome);
        if (adder == null) {
            adder = counts.computeIfAbsent(outcome, o -> new LongAdder());
        }
        adder.increment();
    }

    @Override
    void drainInto(IntervalStats interval) {
        recycleWait = wait.getIntervalHistogram(recycleWait);
        recycleService = service.getIntervalHistogram(recycleService);
        recycleResponse = response.getIntervalHistogram(recycleResponse);
        interval.add(recycleWait, recycleService, recycleResponse);
        counts.forEach((outcome, adder) -> {
            long now = adder.sum();
            long before = reported.getOrDefault(outcome, 0L);
            if (now != before) {
                interval.addOutcome(outcome.id(), now - before);
                reported.put(outcome, now);
            }
        });
    }
}
