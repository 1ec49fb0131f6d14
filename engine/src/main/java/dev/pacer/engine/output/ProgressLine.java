package dev.pacer.engine.output;

import dev.pacer.engine.Durations;
import dev.pacer.engine.IntervalReport;
import dev.pacer.engine.metrics.Metric;
import dev.pacer.engine.op.Outcome;
import org.HdrHistogram.Histogram;

/**
 * The live progress line, one per interval:
 * <pre>
 * [   5.0s] ops 10000  rate 2000/s (overall 1999/s, target 2000)  wait p50 12us p99 81us max 1.2ms  response p50 2.1ms p99 2.3ms max 3.4ms  errors 0
 * </pre>
 * followed by the interval's outcomes other than {@code ok} (e.g. {@code 2xx 1990 5xx 10 timeout 2}).
 */
public final class ProgressLine {

    private ProgressLine() {
    }

    public static String format(IntervalReport r) {
        StringBuilder b = new StringBuilder(200);
        b.append(String.format("[%7.1fs]", r.elapsedSec()));
        if (r.phase() != null) {
            b.append(' ').append(r.phase()).append(r.warmup() ? " (warm-up)" : "");
        }
        b.append(String.format(" ops %d  rate %s/s (overall %s/s", r.stats().ops(), rate(r.rate()), rate(r.overallRate())));
        if (!Double.isNaN(r.targetRate())) {
            b.append(", target ").append(rate(r.targetRate()));
        }
        b.append(')');
        appendLatency(b, "wait", r.stats().histogram(Metric.WAIT));
        appendLatency(b, "response", r.stats().histogram(Metric.RESPONSE));
        b.append("  errors ").append(r.stats().errors());
        r.stats().outcomes().forEach((outcome, n) -> {
            if (outcome != Outcome.OK) {
                b.append(' ').append(outcome.label()).append(' ').append(n);
            }
        });
        return b.toString();
    }

    private static void appendLatency(StringBuilder b, String name, Histogram h) {
        b.append("  ").append(name);
        if (h.getTotalCount() == 0) {
            b.append(" -");
            return;
        }
        b.append(" p50 ").append(Durations.format((double) h.getValueAtPercentile(50)))
                .append(" p99 ").append(Durations.format((double) h.getValueAtPercentile(99)))
                .append(" max ").append(Durations.format((double) h.getMaxValue()));
    }

    /** A rate for humans: 950, 12.3k, 1.50M. */
    public static String rate(double opsPerSecond) {
        if (opsPerSecond >= 10_000_000) {
            return String.format("%.1fM", opsPerSecond / 1e6);
        }
        if (opsPerSecond >= 1_000_000) {
            return String.format("%.2fM", opsPerSecond / 1e6);
        }
        if (opsPerSecond >= 100_000) {
            return String.format("%.0fk", opsPerSecond / 1e3);
        }
        if (opsPerSecond >= 10_000) {
            return String.format("%.1fk", opsPerSecond / 1e3);
        }
        return opsPerSecond >= 100 ? String.format("%.0f", opsPerSecond) : String.format("%.2f", opsPerSecond);
    }
}
