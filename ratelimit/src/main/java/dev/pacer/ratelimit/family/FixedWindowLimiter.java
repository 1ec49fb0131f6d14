package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;

/**
 * {@code fixed-window}: the fixed window counter (the classic shapes, as the article "Rate Limiting Part 1" draws
 * them). Time is cut into windows of one length laid end
 * to end from the limiter's origin; each window lets through up to its limit, rate × window (see
 * {@link Windows}), as fast as callers ask, and refuses the rest: a refused caller asks again when the next
 * window opens ({@link #retryAt}), which lets a full window's limit through at once.
 *
 * <p>Options: {@code window=DURATION} (default 1s, at least 1ms).
 *
 * <p>The design's known flaw, kept on purpose: the limit holds per window, not per any window's length of
 * time. Callers that fill the end of one window and the start of the next get up to 2 × the limit within one
 * window length across the boundary.
 *
 * <p>State: a {@link Windows}, the current window's start and count, guarded by the base's lock. A rate
 * change keeps the window and its count; the new limit applies to the rest of it (a window already over the
 * new limit refuses until the next opens): nothing is reset. A pause resets nothing either: windows stay
 * aligned to the origin, the paused time passes as idle time, and a window that opens during it starts
 * with a count of 0, as after any idle time.
 */
final class FixedWindowLimiter extends WindowCountingLimiter {

    FixedWindowLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("fixed-window", spec, clock, sleeper, origin, options);
    }

    @Override
    protected long reserve(long permits, long now) {
        Windows.checkFits(name(), permits, limit, windows.length);
        long at = windows.roll(now);
        if (windows.current() + permits > limit) {
            return REFUSED;
        }
        windows.add(permits);
        return at;
    }

    @Override
    protected long earliest(long permits, long now) {
        if (permits > limit) {
            return Long.MAX_VALUE;
        }
        long at = windows.roll(now);
        return windows.current() + permits <= limit ? at : windows.next();
    }

    /** A full window stays full: ask again when the next one opens. */
    @Override
    protected long retryAt(long permits, long now) {
        return windows.next();
    }
}
