package dev.pacer.engine.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Metric;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
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
