package dev.pacer.ratelimit.api;

/**
 * The limiter's fixed-point time scale: 1 unit = 2<sup>-8</sup> ns.
 *
 * <p>Slices are kept in units so high rates do not drift: 7 M ops/s is 142.857 ns a slice, which in
 * whole nanoseconds would run 0.6 % fast; in units it is 36 571 (error 1.2e-5, i.e. 12 ppm), and 1e9
 * ops/s is exactly 256. The slice is rounded to the nearest unit, so a rate's relative error is at
 * most half a unit over the slice: {@code rate / 5.12e11}, i.e. 20 ppm at 1e7 ops/s, 0.02 % at 1e8 and
 * 0.2 % at the 1e9 ceiling. Low rates stay exact: 0.001 ops/s is 2.56e14 units, well inside a double's
 * 53-bit integer range.
 *
 * <p>Positions are counted from the limiter's origin (its creation), so a signed 64-bit position
 * covers 2<sup>63</sup>/256 ns = 417 days of schedule, at any rate up to 1e9 ops/s.
 *
 * <p>Public so that the grants' results ({@link Grant}), the rate's effective slice ({@link RateSpec}) and both
 * implementation packages keep time on this one scale; it is no part of what a caller of the limiters needs.
 */
public final class ScheduleUnits {

    public static final int FRACTION_BITS = 8;
    /** One nanosecond in units. */
    public static final long NANO = 1L << FRACTION_BITS;
    /** The largest schedule a single acquire may reserve: 2^50 ns, about 13 days. */
    public static final long MAX_COST = 1L << 58;

    private ScheduleUnits() {
    }

    /** Units per op at this rate (≥ 256, since rates are capped at 1e9 ops/s). */
    public static long slice(double opsPerSecond) {
        return Math.max(1, Math.round(1e9 * NANO / opsPerSecond));
    }

    /** Whole nanoseconds in {@code units}, rounded down. */
    public static long toNanos(long units) {
        return units >> FRACTION_BITS;
    }

    /** {@code nanos} in units; callers keep {@code |nanos| < 2^55}. */
    public static long fromNanos(long nanos) {
        return nanos << FRACTION_BITS;
    }

    /** {@code permits × slice}, refusing reservations that could overflow the schedule. */
    public static long cost(long permits, long sliceUnits) {
        if (permits < 1) {
            throw new IllegalArgumentException("permits must be at least 1, got " + permits);
        }
        if (permits > MAX_COST / sliceUnits) {
            throw new IllegalArgumentException("acquiring " + permits + " permits at once would reserve more than "
                    + (MAX_COST >> FRACTION_BITS) / 1_000_000_000L + " s of schedule");
        }
        return permits * sliceUnits;
    }
}
