package dev.pacer.engine.api;

import dev.pacer.ratelimit.api.DurationText;
import java.time.Duration;

/**
 * Durations as users write them ({@code 250ns}, {@code 500us}, {@code 2ms}, {@code 1.5s}, {@code 10m},
 * {@code 1h}, {@code 0}: {@link DurationText}'s grammar, the one every setting reads) and as pacer prints them
 * (the largest unit that keeps the number readable).
 */
public final class Durations {

    /** The longest duration pacer takes: {@link DurationText#MAX}, 365 days. */
    public static final Duration MAX = DurationText.MAX;
    /** {@link #MAX} as users write it. */
    public static final String MAX_TEXT = DurationText.MAX_TEXT;

    private Durations() {
    }

    /**
     * Parses a non-negative duration, at most {@link #MAX}: a number with a unit, or 0.
     *
     * @param setting the setting it is for, e.g. {@code duration}
     * @throws SettingException naming the setting and the bad text, with {@link DurationText}'s reason
     */
    public static Duration parse(String text, String setting) {
        Duration d;
        try {
            d = DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            throw new SettingException(setting, text, e.getMessage());
        }
        if (d.isNegative()) {
            throw new SettingException(setting, text, "must not be negative");
        }
        return d;
    }

    /** Like {@link #parse} but rejects zero. */
    public static Duration parsePositive(String text, String setting) {
        Duration d = parse(text, setting);
        if (d.isZero()) {
            throw new SettingException(setting, text, "must be greater than 0");
        }
        return d;
    }

    /** A nanosecond figure in a readable unit: {@code 950ns}, {@code 12.3us}, {@code 4.56ms}, {@code 1.23s}. */
    public static String format(double nanos) {
        double abs = Math.abs(nanos);
        if (abs < 1_000) {
            return String.format("%.0fns", nanos);
        }
        if (abs < 1_000_000) {
            return trim(nanos / 1_000) + "us";
        }
        if (abs < 1_000_000_000) {
            return trim(nanos / 1_000_000) + "ms";
        }
        return trim(nanos / 1_000_000_000) + "s";
    }

    /** A duration for humans: {@code 950ns}, {@code 2.00ms}, {@code 30.0s}, {@code 1m50s}, {@code 1h01m}. */
    public static String format(Duration d) {
        long s = d.toSeconds();
        if (s >= 3600) {
            return String.format("%dh%02dm", s / 3600, (s % 3600) / 60);
        }
        if (s >= 60) {
            return String.format("%dm%02ds", s / 60, s % 60);
        }
        return format((double) d.toNanos());
    }

    private static String trim(double v) {
        if (Math.abs(v) >= 100) {
            return String.format("%.0f", v);
        }
        return Math.abs(v) >= 10 ? String.format("%.1f", v) : String.format("%.2f", v);
    }
}
