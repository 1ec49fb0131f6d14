package dev.pacer.engine.api;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Rates and small figures as pacer writes them for people: in the progress line, the status block, the summary. */
public final class RateText {

    private RateText() {
    }

    /** A rate for humans: 950, 12.3k, 1.50M; under 0.01 with three significant digits (0.000001). */
    public static String format(double opsPerSecond) {
        if (opsPerSecond > 0 && opsPerSecond < 0.01) {
            return significant(opsPerSecond);
        }
        if (opsPerSecond >= 10_000_000) {
            return String.format(Locale.ROOT, "%.1fM", opsPerSecond / 1e6);
        }
        if (opsPerSecond >= 1_000_000) {
            return String.format(Locale.ROOT, "%.2fM", opsPerSecond / 1e6);
        }
        if (opsPerSecond >= 100_000) {
            return String.format(Locale.ROOT, "%.0fk", opsPerSecond / 1e3);
        }
        if (opsPerSecond >= 10_000) {
            return String.format(Locale.ROOT, "%.1fk", opsPerSecond / 1e3);
        }
        return opsPerSecond >= 100 ? String.format(Locale.ROOT, "%.0f", opsPerSecond)
                : String.format(Locale.ROOT, "%.2f", opsPerSecond);
    }

    /** {@code v} to three significant digits, written out: 0.000001, 0.0123. */
    public static String significant(double v) {
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }
}
