package dev.pacer.engine.api;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The figures users read off one latency histogram, in nanoseconds.
 *
 * @param count       values recorded
 * @param mean        mean
 * @param min         smallest value
 * @param max         largest value
 * @param percentiles value at each of {@link #PERCENTILES}, keyed by its text ({@code "99.9"})
 */
public record LatencySummary(long count, double mean, long min, long max, Map<String, Long> percentiles) {

    /** The percentiles every table shows (max is shown too). */
    public static final double[] PERCENTILES = {50, 75, 90, 99, 99.9, 99.99};

    public static LatencySummary of(Histogram h) {
        Map<String, Long> p = new LinkedHashMap<>();
        for (double q : PERCENTILES) {
            p.put(label(q), h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(q));
        }
        if (h.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, p);
        }
        return new LatencySummary(h.getTotalCount(), h.getMean(), h.getMinValue(), h.getMaxValue(), p);
    }

    /** {@code 50}, {@code 99.9}, ... */
    public static String label(double percentile) {
        return percentile == Math.rint(percentile) ? Long.toString((long) percentile) : Double.toString(percentile);
    }

    /** The value at a percentile label such as {@code "99"}, or max for {@code "100"}. */
    public Long at(String label) {
        return "100".equals(label) ? max : percentiles.get(label);
    }
}
