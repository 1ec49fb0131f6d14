package dev.pacer.ratelimit.api;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as users write them: the one grammar of every pacer setting that takes a duration ({@code --duration},
 * {@code --interval}, a scenario's phases, a limiter's {@code window} or {@code period}, an op's timeouts, a
 * threshold's latency).
 *
 * <h2>Grammar</h2>
 * <pre>
 *   duration = number [ spaces ] unit
 *            | number                       only when it is zero: 0 needs no unit
 *   unit     = "ns" | "us" | "µs" | "ms" | "s" | "m" | "min" | "h"
 * </pre>
 * {@code number} is {@link NumberText}'s, without a suffix: {@code 250ns}, {@code 500us}, {@code 1.5s},
 * {@code 10m}, {@code 2 h}, {@code .5s}, {@code 0}. Units are lower case ({@code M} is mega in a number, not
 * minutes); whitespace around the text is ignored. The value is rounded to the nearest nanosecond and may be
 * at most {@link #MAX} either way; a negative one is read (its sign is the caller's to refuse, in its own
 * words).
 *
 * <p>A refusal is an {@link IllegalArgumentException} whose message is the reason alone ({@link #EXPECTED},
 * {@link #TOO_LONG} or {@link NumberText#NOT_FINITE}), for the caller to put after the name of what it reads
 * and the value: {@code invalid duration '30': expected a number with a unit: ...}.
 */
public final class DurationText {

    /**
     * The longest duration pacer takes: 365 days. A run's schedule spans 417 days at any rate, and a run's
     * deadline (its start plus its duration, in nanoseconds) must not overflow.
     */
    public static final Duration MAX = Duration.ofDays(365);
    /** {@link #MAX} as users write it. */
    public static final String MAX_TEXT = "8760h (365 days)";
    /** The reason a text is not a duration. */
    public static final String EXPECTED = "expected a number with a unit: ns, us, ms, s, m or h (e.g. 500us, 2ms, 30s)";
    /** The reason a duration is longer than {@link #MAX}. */
    public static final String TOO_LONG = "too long: at most " + MAX_TEXT;

    private static final Pattern DURATION =
            Pattern.compile("(" + NumberText.NUMBER + ")(?:\\s*(ns|us|µs|ms|s|min|m|h))?");

    private DurationText() {
    }

    /**
     * Reads a {@code duration}.
     *
     * @throws IllegalArgumentException whose message is the reason alone
     */
    public static Duration parse(String text) {
        String t = text == null ? "" : text.strip();
        Matcher m = DURATION.matcher(t);
        if (!m.matches()) {
            throw NumberText.refused(t, EXPECTED);
        }
        BigDecimal value = new BigDecimal(m.group(1));
        if (m.group(2) == null) {
            if (value.signum() != 0) {
                throw new IllegalArgumentException(EXPECTED);
            }
            return Duration.ZERO;
        }
        long nanosPerUnit = switch (m.group(2)) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m", "min" -> 60_000_000_000L;
            default -> 3_600_000_000_000L;
        };
        BigDecimal nanos = value.multiply(BigDecimal.valueOf(nanosPerUnit)).setScale(0, RoundingMode.HALF_UP);
        if (nanos.abs().compareTo(BigDecimal.valueOf(MAX.toNanos())) > 0) {
            throw new IllegalArgumentException(TOO_LONG);
        }
        return Duration.ofNanos(nanos.longValueExact());
    }
}
