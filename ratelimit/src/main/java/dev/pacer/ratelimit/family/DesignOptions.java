package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.DurationText;
import dev.pacer.ratelimit.api.NumberText;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Typed access to a design's options ({@code key=value}, as {@code LimiterDesign} parsed them): each getter
 * names the design, the key and the value it cannot read. The designs read their options through it when
 * they are built. Public for the factories above this package, which make it ({@code LimiterDesign}) and
 * refuse options the atomic limiter does not take ({@link #only}); the getters are the designs' own.
 */
public final class DesignOptions {

    private final String design;
    private final Map<String, String> values;

    /** {@code design}'s options, as written ({@code values} is kept, not copied). */
    public DesignOptions(String design, Map<String, String> values) {
        this.design = design;
        this.values = values;
    }

    /** Refuses any option not in {@code known}. */
    public DesignOptions only(Set<String> known) {
        for (String k : values.keySet()) {
            if (!known.contains(k)) {
                throw new IllegalArgumentException("the " + design + " limiter has no option '" + k + "'"
                        + (known.isEmpty() ? ": it takes none"
                                : ": it takes " + String.join(", ", known.stream().sorted().toList())));
            }
        }
        return this;
    }

    boolean has(String key) {
        return values.containsKey(key);
    }

    String text(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    /** A whole number ≥ {@code min}, as {@link NumberText} reads it: {@code 10k}, {@code 1.5M} allowed. */
    long count(String key, long fallback, long min) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        String expected = "a whole number >= " + min;
        BigDecimal n = number(key, v, expected);
        if (n.compareTo(BigDecimal.valueOf(min)) < 0 || n.stripTrailingZeros().scale() > 0
                || n.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0) {
            throw bad(key, v, expected);
        }
        return n.longValueExact();
    }

    /** A number ≥ {@code min} (exclusive when {@code open}), as {@link NumberText} reads it. */
    double number(String key, double fallback, double min, boolean open) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        String expected = "a number " + (open ? "> " : ">= ") + plain(min);
        double d = number(key, v, expected).doubleValue();
        if (!(open ? d > min : d >= min) || Double.isInfinite(d)) {
            throw bad(key, v, expected);
        }
        return d;
    }

    private BigDecimal number(String key, String v, String expected) {
        try {
            return NumberText.parse(v);
        } catch (IllegalArgumentException e) {
            throw refusal(key, expected + ", got '" + v + "': " + e.getMessage());
        }
    }

    /** A duration ≥ {@code min}, as {@link DurationText} reads it: {@code 250ms}, {@code 10s}, {@code 0}. */
    Duration duration(String key, Duration fallback, Duration min) {
        String v = values.get(key);
        if (v == null) {
            return fallback;
        }
        String expected = "a duration >= " + (min.isZero() ? "0" : Windows.text(min.toNanos()));
        Duration d;
        try {
            d = DurationText.parse(v);
        } catch (IllegalArgumentException e) {
            throw refusal(key, expected + ", got '" + v + "': " + e.getMessage());
        }
        if (d.compareTo(min) < 0) {
            throw bad(key, v, expected + ", e.g. 500ms or 10s");
        }
        return d;
    }

    /** {@code the bucket limiter's size must be EXPECTED, got 'VALUE'}. */
    IllegalArgumentException bad(String key, String value, String expected) {
        return refusal(key, expected + ", got '" + value + "'");
    }

    private IllegalArgumentException refusal(String key, String mustBe) {
        return new IllegalArgumentException("the " + design + " limiter's " + key + " must be " + mustBe);
    }

    /** The design these options are for. */
    String design() {
        return design;
    }

    private static String plain(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
