package dev.pacer.ratelimit.api;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Numbers as users write them: the one grammar of every pacer setting that takes a number (a rate, a count, a
 * limiter's size or factor, a threshold's value), and of the number in a duration ({@link DurationText}).
 *
 * <h2>Grammar</h2>
 * <pre>
 *   si       = number [ "k" | "K" | "M" | "G" ]      k and K = 1e3, M = 1e6, G = 1e9
 *   number   = [ "-" ] mantissa [ exponent ]
 *   mantissa = digits [ "." [ digits ] ] | "." digits
 *   exponent = ( "e" | "E" ) [ "+" | "-" ] 1 to 4 digits
 * </pre>
 * Examples: {@code 1000}, {@code 2.5k}, {@code 1.5M}, {@code 1e6}, {@code .5}, {@code 20K}. Whitespace around
 * the text is ignored; none may stand inside it ({@code 10 k} is refused). A plus sign, NaN, infinities, hex,
 * underscores and Java's {@code d}, {@code f} or {@code L} suffixes are refused. The value is exact (a
 * {@link BigDecimal}); whether it is in range (positive, whole, at most some bound) is the caller's to judge, in
 * its own words.
 *
 * <p>A refusal is an {@link IllegalArgumentException} whose message is the reason alone ({@link #EXPECTED},
 * {@link #EXPECTED_PLAIN} or {@link #NOT_FINITE}), for the caller to put after the name of what it reads and
 * the value: {@code invalid rate 'abc': expected a number such as 1000, 2.5k, 1.5M or 1e6}.
 */
public final class NumberText {

    /** The reason a text is not a number with an optional suffix. */
    public static final String EXPECTED = "expected a number such as 1000, 2.5k, 1.5M or 1e6";
    /** The reason a text is not a number without a suffix. */
    public static final String EXPECTED_PLAIN = "expected a number such as 0.5, 10 or 1e3";
    /** The reason for NaN and infinities. */
    public static final String NOT_FINITE = "not a finite number";

    /** The {@code number} production, for grammars built on it. */
    static final String NUMBER = "-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d{1,4})?";

    private static final Pattern PLAIN = Pattern.compile(NUMBER);

    private NumberText() {
    }

    /**
     * Reads an {@code si} number.
     *
     * @throws IllegalArgumentException whose message is the reason alone
     */
    public static BigDecimal parse(String text) {
        String t = text == null ? "" : text.strip();
        int scale = switch (t.isEmpty() ? ' ' : t.charAt(t.length() - 1)) {
            case 'k', 'K' -> 3;
            case 'M' -> 6;
            case 'G' -> 9;
            default -> 0;
        };
        String number = scale == 0 ? t : t.substring(0, t.length() - 1);
        if (!PLAIN.matcher(number).matches()) {
            throw refused(t, EXPECTED);
        }
        return new BigDecimal(number).scaleByPowerOfTen(scale);
    }

    /**
     * Reads a {@code number}: no suffix.
     *
     * @throws IllegalArgumentException whose message is the reason alone
     */
    public static BigDecimal parsePlain(String text) {
        String t = text == null ? "" : text.strip();
        if (!PLAIN.matcher(t).matches()) {
            throw refused(t, EXPECTED_PLAIN);
        }
        return new BigDecimal(t);
    }

    /** The refusal of {@code text}: {@link #NOT_FINITE} for NaN or an infinity, else {@code expected}. */
    static IllegalArgumentException refused(String text, String expected) {
        String lower = text.toLowerCase(Locale.ROOT);
        return new IllegalArgumentException(lower.contains("nan") || lower.contains("inf") ? NOT_FINITE : expected);
    }
}
