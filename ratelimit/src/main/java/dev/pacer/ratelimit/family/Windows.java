package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.Set;

/**
 * What the window designs ({@code fixed-window}, {@code sliding-log}, {@code sliding-window}) share: the
 * {@code window} option, the limit per window, and, for the two counters, windows of one length laid end to
 * end from the limiter's origin with the permits counted in the current window and in the one before it.
 *
 * <h2>Window and limit</h2>
 * {@code window=DURATION} (default 1s, at least 1ms). The limit per window is rate × window, rounded, at
 * least 1: at 1000/s and 1s, 1000. Below half a permit per window the limit is still 1, so the designs let
 * one permit through per window, faster than the spec: lengthen the window for such rates. A request for
 * more permits than the limit could never pass; {@code acquire} refuses it with an
 * {@link IllegalArgumentException} (see {@link #checkFits}), {@code tryAcquire} returns false.
 *
 * <h2>Counting</h2>
 * Window k is [origin + k × window, origin + (k + 1) × window). {@link #roll} moves the counts to the window
 * holding {@code now}: the count of the window just ended becomes {@link #previous()} if it is the window
 * right before, else the previous count is 0 (a whole window went by empty). A reading before the current
 * window's start (a thread that read the clock before another rolled the window) is counted in the current
 * window: counts never move back.
 *
 * <p>Not thread-safe: {@code start}, {@code current} and {@code previous} are guarded by the owning
 * limiter's lock (read and written only from its design methods).
 */
final class Windows {

    /** The option every window design takes. */
    static final String WINDOW = "window";
    static final Duration DEFAULT_WINDOW = Duration.ofSeconds(1);

    /** Window length, ns; fixed when the limiter is built. */
    final long length;
    /** Under the owner's lock: when the current window opened. */
    private long start;
    /** Under the owner's lock: permits counted in the current window. */
    private long current;
    /** Under the owner's lock: permits counted in the window right before the current one. */
    private long previous;

    Windows(long length, long origin) {
        this.length = length;
        this.start = origin;
    }

    /** The {@code window} option in ns: default 1s, at least 1ms. */
    static long lengthOption(DesignOptions options) {
        return options.duration(WINDOW, DEFAULT_WINDOW, Duration.ofMillis(1)).toNanos();
    }

    /** The options a design with only a window takes. */
    static Set<String> options() {
        return Set.of(WINDOW);
    }

    /** Permits per window at {@code spec}'s rate: rate × window, rounded, at least 1. */
    static long limit(RateSpec spec, long lengthNanos) {
        return Math.max(1, Math.round(spec.opsPerSecond() * (lengthNanos / 1e9)));
    }

    /** Refuses a request that could never pass: more permits at once than a window lets through. */
    static void checkFits(String design, long permits, long limit, long lengthNanos) {
        if (permits > limit) {
            throw new IllegalArgumentException("the " + design + " limiter lets at most " + limit + " permits through "
                    + "per "
                    + text(lengthNanos) + " window: " + permits + " at once can never pass; ask for fewer or lengthen "
                            + "the window");
        }
    }

    /** A window length as the option is written: {@code 1s}, {@code 250ms}, else ns. */
    static String text(long nanos) {
        if (nanos % LockingLimiter.SECOND == 0) {
            return nanos / LockingLimiter.SECOND + "s";
        }
        return nanos % 1_000_000 == 0 ? nanos / 1_000_000 + "ms" : nanos + "ns";
    }

    /**
     * Moves the counts to the window holding {@code now}; returns the time to judge the request at: {@code now},
     * or the current window's start for a reading before it.
     */
    long roll(long now) {
        long ahead = now - start;
        if (ahead < 0) {
            return start;
        }
        if (ahead >= length) {
            long opened = start + ahead / length * length;
            previous = opened - start == length ? current : 0;
            current = 0;
            start = opened;
        }
        return now;
    }

    /** Counts {@code permits} in the current window. */
    void add(long permits) {
        current += permits;
    }

    /** When the current window opened (after the last {@link #roll}). */
    long start() {
        return start;
    }

    /** When the next window opens. */
    long next() {
        return start + length;
    }

    long current() {
        return current;
    }

    long previous() {
        return previous;
    }
}
