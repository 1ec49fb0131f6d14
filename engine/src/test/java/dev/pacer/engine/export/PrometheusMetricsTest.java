package dev.pacer.engine.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Outcome;
import dev.pacer.ratelimit.api.RateSpec;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** pacer's HdrHistograms as Prometheus buckets: nothing lost, every value in the right bucket. */
class PrometheusMetricsTest {

    @Test
    void nativeBucketsHoldTheirValuesBetweenTheirBounds() {
        double base = Math.pow(2, Math.pow(2, -PrometheusMetrics.NATIVE_SCHEMA));
        for (double x : new double[] {1e-6, 0.000123, 0.0005, 0.002, 0.0314, 1, 1.5, 7.77}) {
            int i = PrometheusMetrics.nativeIndex(x);
            assertTrue(x > Math.pow(base, i - 1) && x <= Math.pow(base, i) * (1 + 1e-12), x + " in bucket " + i);
        }
    }

    /** A workload's ops and their steps, each in series of its own, added over intervals; the totals stay whole. */
    @Test
    void eachOpAndEachStepIsASeriesOfItsOwn() {
        PrometheusMetrics metrics = new PrometheusMetrics(null); // accept and collectOps only: no activity read
        Outcome failed = Outcome.of("check-status", true);
        for (int interval = 0; interval < 2; interval++) {
            IntervalStats stats = new IntervalStats(List.of("browse", "checkout"));
            stats.op(0).add(ms(1, 3), ms(1, 3), ms(2, 3));
            stats.op(0).addOutcome(Outcome.OK.id(), 3);
            stats.op(1).add(ms(4, 1), ms(4, 1), ms(5, 1));
            stats.op(1).addOutcome(failed.id(), 1);
            stats.op(1).addStep(0, ms(1, 1));
            stats.op(1).addStep(1, ms(3, 1));
            stats.add(ms(1, 4), ms(1, 4), ms(2, 4));
            metrics.accept(new IntervalReport(stats, interval + 1, RateSpec.of(4), 4, 1, null, false, false, 0, 4,
                    interval + 1, 1));
        }
        MetricSnapshots.Builder b = MetricSnapshots.builder();
        metrics.collectOps(b);
        Map<String, MetricSnapshot> byName = new java.util.HashMap<>();
        b.build().forEach(m -> byName.put(m.getMetadata().getName(), m));
        assertEquals(java.util.Set.of("pacer_op_ops", "pacer_op_wait_seconds", "pacer_op_service_seconds",
                "pacer_op_response_seconds", "pacer_op_step_service_seconds"), byName.keySet());
        Map<String, Long> counts = new java.util.TreeMap<>();
        for (var p : ((CounterSnapshot) byName.get("pacer_op_ops")).getDataPoints()) {
            counts.put(p.getLabels().get("op") + " " + p.getLabels().get("outcome") + " " + p.getLabels().get("error"),
                    (long) p.getValue());
        }
        assertEquals(Map.of("browse ok false", 6L, "checkout check-status true", 2L), counts);
        Map<String, String> response = new java.util.TreeMap<>();
        for (var p : ((HistogramSnapshot) byName.get("pacer_op_response_seconds")).getDataPoints()) {
            response.put(p.getLabels().get("op"), p.getCount() + " " + Math.round(p.getSum() * 1000));
        }
        assertEquals(Map.of("browse", "6 12", "checkout", "2 10"), response, "count and sum (ms) of each op's");
        Map<String, String> steps = new java.util.TreeMap<>();
        for (var p : ((HistogramSnapshot) byName.get("pacer_op_step_service_seconds")).getDataPoints()) {
            steps.put(p.getLabels().get("op") + "#" + p.getLabels().get("step"), p.getCount() + " "
                    + Math.round(p.getSum() * 1000));
        }
        assertEquals(Map.of("checkout#1", "2 2", "checkout#2", "2 6"), steps, "only the op with steps has them");
    }

    /** {@code n} values of {@code ms} milliseconds. */
    private static Histogram ms(long ms, long n) {
        Histogram h = IntervalStats.newHistogram();
        h.recordValueWithCount(ms * 1_000_000, n);
        return h;
    }

    @Test
    void everyValueIsCountedOnceInBothKindsOfBuckets() {
        Histogram h = IntervalStats.newHistogram();
        h.recordValueWithCount(0, 5);             // 0 ns: the zero bucket
        h.recordValueWithCount(40_000, 10);       // 40 us: classic bucket <= 50 us
        h.recordValueWithCount(3_000_000, 100);   // 3 ms: classic bucket <= 5 ms
        h.recordValueWithCount(20_000_000_000L, 1); // 20 s: classic bucket +Inf
        HistogramSnapshot.HistogramDataPointSnapshot p =
                PrometheusMetrics.histogram(Metric.RESPONSE, h).getDataPoints().get(0);
        assertEquals(116, p.getCount());
        ClassicHistogramBuckets classic = p.getClassicBuckets();
        long total = 0;
        for (int i = 0; i < classic.size(); i++) {
            total += classic.getCount(i);
            if (classic.getUpperBound(i) == 0.00001) {
                assertEquals(5, classic.getCount(i), "0 is in the first bucket");
            }
            if (classic.getUpperBound(i) == 0.00005) {
                assertEquals(10, classic.getCount(i), "40 us");
            }
            if (classic.getUpperBound(i) == 0.005) {
                assertEquals(100, classic.getCount(i));
            }
        }
        assertEquals(116, total);
        assertEquals(Double.POSITIVE_INFINITY, classic.getUpperBound(classic.size() - 1));
        assertEquals(1, classic.getCount(classic.size() - 1), "20 s is beyond the last bound");
        assertEquals(5, p.getNativeZeroCount());
        NativeHistogramBuckets positive = p.getNativeBucketsForPositiveValues();
        long nativeTotal = 0;
        for (int i = 0; i < positive.size(); i++) {
            nativeTotal += positive.getCount(i);
        }
        assertEquals(111, nativeTotal);
        assertEquals(0.0004 + 0.3 + 20 + 0, p.getSum(), 0.02, "the sum, to HdrHistogram's 0.1 %");
    }
}
