package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;

/**
 * {@code sliding-window}: the sliding window counter (the classic shapes, as the article "Rate Limiting Part 1"
 * draws them). Windows as the fixed window's (laid end to
 * end from the origin, limit = rate × window, see {@link Windows}), but a request is judged on an estimate of
 * the last window length of time: the previous window's count weighted by the share of it the last window
 * length still overlaps, plus the current window's count. At {@code e} ns into a window of {@code W} ns,
 * overlap = (W − e) / W; a single permit is allowed when
 * <pre>  previous × (W − e) / W + current &lt; limit</pre>
 * as the article's code decides it (its count with the new request, rounded down, at most the limit). The article's
 * example: limit 10 per minute, 9 in the previous minute, 5 in this one, at 15 s in: 9 × 0.75 + 5 = 11.75,
 * refused. A request for {@code n} permits is allowed when the estimate plus {@code n − 1} is below the limit
 * (the same rule with all {@code n} counted).
 *
 * <p>Options: {@code window=DURATION} (default 1s, at least 1ms).
 *
 * <p>Retry: the estimate only falls as the window ages, so a refused caller asks again at the exact first
 * nanosecond it would pass, worked out in integers: within the current window when the current count leaves
 * room, else in the next window, where this window's count becomes the previous one (that time is never
 * later than the next window's end, when the previous count weighs nothing). It is later than the next
 * window's start whenever the current window is full: at the start the previous window still weighs wholly,
 * so after a full window the next permit waits until 1 ns past the boundary.
 *
 * <p>State: a {@link Windows}, the current window's start and the current and previous counts, guarded by
 * the base's lock. A rate change keeps both counts and the window; the new limit applies from the next
 * request: nothing is reset. A pause resets nothing: windows stay aligned to the origin and the paused time
 * passes as idle time (the previous count's weight falls during it; after a pause of a window or more, the
 * counts are 0), as after any idle time.
 */
final class SlidingWindowLimiter extends WindowCountingLimiter {

    SlidingWindowLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("sliding-window", spec, clock, sleeper, origin, options);
    }

    @Override
    protected long reserve(long permits, long now) {
        Windows.checkFits(name(), permits, limit, windows.length);
        long at = windows.roll(now);
        if (earliest(permits, at) > at) {
            return REFUSED;
        }
        windows.add(permits);
        return at;
    }

    /** The first time the estimate lets {@code permits} pass: now, later in this window, or in the next. */
    @Override
    protected long earliest(long permits, long now) {
        if (permits > limit) {
            return Long.MAX_VALUE;
        }
        long at = windows.roll(now);
        long room = limit - windows.current() - permits + 1;
        if (room >= 1) {
            return Math.max(at, windows.start() + firstElapsed(windows.previous(), room, windows.length));
        }
        // the current window is full for these permits: in the next, its count weighs as the previous one
        return windows.next() + firstElapsed(windows.current(), limit - permits + 1, windows.length);
    }

    /**
     * The fewest ns into a window at which {@code previous × (W − e) < room × W} (room ≥ 1), i.e. the estimate
     * leaves room: 0 when {@code previous < room}, else the least integer e above (previous − room) × W / previous.
     * At most W.
     */
    private static long firstElapsed(long previous, long room, long length) {
        return previous < room ? 0 : mulDiv(previous - room, length, previous) + 1;
    }
}
