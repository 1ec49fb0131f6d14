package dev.pacer.engine.text;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as users write them ({@code 250ns}, {@code 500us}, {@code 2ms}, {@code 1.5s}, {@code 10m},
 * {@code 1h}) and as pacer prints them (the largest unit that keeps the number readable).
 */
public final class Durations {

    /**
     * The longest duration pacer takes: 365 days. A run's schedule spans 417 days at any rate, and a
     * run's deadline (its start plus its duration, in nanoseconds) must not overflow.
     */
    public static final Duration MAX = Duration.ofDays(365);
    /** {@link #MAX} as users write it. */
    public static final String MAX_TEXT = "8760h (365 days)";

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|min|h)");

    private Durations() {
    }

    /**
     * Parses a non-negative duration with a unit, at most {@link #MAX}.
     *
     * @param setting the setting it is for, e.g. {@code duration}
     * @throws SettingException naming the setting and the bad text
     */
    public static Duration parse(String text, String setting) {
        String t = text == null ? "" : text.trim();
        Matcher m = DURATION.matcher(t);
        if (!m.matches()) {
            String why = t.startsWith("-") ? "must not be negative"
                    : "expected a number with a unit: ns, us, ms, s, m or h (e.g. 500us, 2ms, 30s)";
            throw new SettingException(setting, text, why);
        }
        BigDecimal value = new BigDecimal(m.group(1));
        long nanosPerUnit = switch (m.group(2)) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m", "min" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
        BigDecimal nanos = value.multiply(BigDecimal.valueOf(nanosPerUnit));
        if (nanos.compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0) {
            throw new SettingException(setting, text, "too long: at most " + MAX_TEXT);
        }
        return Duration.ofNanos(nanos.longValue());
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
