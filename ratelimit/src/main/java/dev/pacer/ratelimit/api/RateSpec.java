package dev.pacer.ratelimit.api;

import java.math.BigDecimal;

/**
 * A target rate and its strictness, as users write it.
 *
 * <h2>Grammar</h2>
 * <pre>
 *   spec       = rate [ "," strictness ]
 *   rate       = si                                   ops per second
 *   strictness = number                               0 ≤ strictness ≤ 100, default 0
 * </pre>
 * {@code si} and {@code number} are {@link NumberText}'s: {@code 2.5k} is 2500, {@code 1.5M} 1.5 million.
 * Examples: {@code 1000}, {@code 2.5k}, {@code 1.5M}, {@code 1e6}, {@code 1000,0.5}, {@code 20k,1.1}.
 * Whitespace around the parts is ignored. The rate must lie in [{@value #MIN_RATE}, {@value #MAX_RATE}]
 * ops/s; NaN, infinities, signs, hex floats and anything else are rejected with a message naming the
 * bad value.
 *
 * <h2>Strictness</h2>
 * 0 = average rate only; between 0 and 1 = burst compensation (that fraction of the open gap is
 * closed each time the limiter reads the clock while behind); 1 = strict (no two grants closer than one
 * slice); above 1 = burst allowance (1.1 lets a backlog run at up to 110 % of the rate). See
 * {@link StrictnessMode}.
 *
 * @param opsPerSecond the target rate, in [{@value #MIN_RATE}, {@value #MAX_RATE}]
 * @param strictness   the strictness dial, in [0, {@value #MAX_STRICTNESS}]
 */
public record RateSpec(double opsPerSecond, double strictness) {

    /** The slowest rate: one op every 11.6 days. */
    public static final double MIN_RATE = 1e-6;
    /** The fastest rate: one op per nanosecond. */
    public static final double MAX_RATE = 1e9;
    /** Highest strictness: a backlog may run at up to 100 × the rate. */
    public static final double MAX_STRICTNESS = 100;
    /** Strictness when the text gives none: average rate, every scheduled op is issued (as wrk2 does). */
    public static final double DEFAULT_STRICTNESS = 0.0;

    /** Validates; throws {@link IllegalArgumentException} naming the bad value. */
    public RateSpec {
        if (!Double.isFinite(opsPerSecond)) {
            throw new IllegalArgumentException("invalid rate " + opsPerSecond + ": not a finite number");
        }
        if (opsPerSecond <= 0) {
            throw new IllegalArgumentException("invalid rate " + plain(opsPerSecond) + ": must be greater than 0");
        }
        if (opsPerSecond < MIN_RATE) {
            throw new IllegalArgumentException("invalid rate " + plain(opsPerSecond)
                    + ": below the minimum of " + plain(MIN_RATE) + " ops/s");
        }
        if (opsPerSecond > MAX_RATE) {
            throw new IllegalArgumentException("invalid rate " + plain(opsPerSecond)
                    + ": over the maximum of 1e9 ops/s");
        }
        if (!Double.isFinite(strictness) || strictness < 0 || strictness > MAX_STRICTNESS) {
            throw new IllegalArgumentException("invalid strictness " + strictness
                    + ": must be between 0 and " + plain(MAX_STRICTNESS)
                    + " (0 average, 0..1 burst compensation, 1 strict, >1 burst allowance)");
        }
    }

    /** A spec at the default strictness ({@value #DEFAULT_STRICTNESS}). */
    public static RateSpec of(double opsPerSecond) {
        return new RateSpec(opsPerSecond, DEFAULT_STRICTNESS);
    }

    /**
     * Parses the grammar above.
     *
     * @throws IllegalArgumentException with a one-line message naming the bad text
     */
    public static RateSpec parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("invalid rate '': expected ops per second such as 1000, 2.5k or 1.5M");
        }
        String[] parts = text.split(",", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("invalid rate '" + text + "': expected RATE or RATE,STRICTNESS");
        }
        double rate = parseRate(parts[0].trim(), text);
        double strictness = parts.length == 2 ? parseStrictness(parts[1].trim(), text) : DEFAULT_STRICTNESS;
        return new RateSpec(rate, strictness);
    }

    /** This spec with another rate (same strictness). */
    public RateSpec withRate(double newOpsPerSecond) {
        return new RateSpec(newOpsPerSecond, strictness);
    }

    /** This spec with another strictness (same rate). */
    public RateSpec withStrictness(double newStrictness) {
        return new RateSpec(opsPerSecond, newStrictness);
    }

    /** The mode the strictness selects. */
    public StrictnessMode mode() {
        return StrictnessMode.of(strictness);
    }

    /** Nanoseconds per op: 1e9 / rate (not rounded). */
    public double sliceNanos() {
        return 1e9 / opsPerSecond;
    }

    /**
     * Nanoseconds per op as the limiter schedules them: {@link #sliceNanos()} rounded to its time unit
     * (2<sup>-8</sup> ns). Slot k of a schedule at this rate is k of these after its start; to ask
     * whether slot k is ideally before some instant, scale that instant by
     * {@code scheduledSliceNanos() / sliceNanos()}.
     */
    public double scheduledSliceNanos() {
        return (double) ScheduleUnits.slice(opsPerSecond) / ScheduleUnits.NANO;
    }

    /** The text form, which {@link #parse(String)} reads back to an equal spec: {@code RATE,STRICTNESS}. */
    @Override
    public String toString() {
        return plain(opsPerSecond) + "," + plain(strictness);
    }

    private static double parseRate(String part, String whole) {
        String named = whole.equals(part) ? part : part + "' in '" + whole;
        BigDecimal value;
        try {
            value = NumberText.parse(part);
        } catch (IllegalArgumentException e) {
            String why = e.getMessage().equals(NumberText.EXPECTED)
                    ? NumberText.EXPECTED + " (ops per second), optionally followed by ,STRICTNESS" : e.getMessage();
            throw new IllegalArgumentException("invalid rate '" + named + "': " + why);
        }
        if (value.signum() <= 0) {
            throw new IllegalArgumentException("invalid rate '" + named + "': must be greater than 0");
        }
        if (value.compareTo(BigDecimal.valueOf(MAX_RATE)) > 0) {
            throw new IllegalArgumentException("invalid rate '" + part + "': over the maximum of 1e9 ops/s");
        }
        if (value.compareTo(BigDecimal.valueOf(MIN_RATE)) < 0) {
            throw new IllegalArgumentException("invalid rate '" + part + "': below the minimum of "
                    + plain(MIN_RATE) + " ops/s");
        }
        return value.doubleValue();
    }

    private static double parseStrictness(String part, String whole) {
        if (part.matches("0[0-9]+")) { // 10,000: a thousands separator read as a rate of 10 at strictness 0
            String rate = whole.substring(0, whole.indexOf(',')).trim();
            throw new IllegalArgumentException("invalid strictness '" + part + "' in '" + whole + "': the comma"
                    + " separates a strictness, not thousands"
                    + (rate.matches("[0-9]+") ? ": write " + rate + part + " for that many ops/s" : "")
                    + " (or " + rate + ",0 for strictness 0)");
        }
        BigDecimal value;
        try {
            value = NumberText.parsePlain(part);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid strictness '" + part + "' in '" + whole
                    + "': expected a number between 0 and " + plain(MAX_STRICTNESS)
                    + " (0 average, 0..1 burst compensation, 1 strict, >1 burst allowance)");
        }
        if (value.signum() < 0 || value.compareTo(BigDecimal.valueOf(MAX_STRICTNESS)) > 0) {
            throw new IllegalArgumentException("invalid strictness '" + part + "' in '" + whole
                    + "': must be between 0 and " + plain(MAX_STRICTNESS));
        }
        return value.doubleValue();
    }

    private static String plain(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
