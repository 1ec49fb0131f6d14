package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;

/**
 * The base of the two designs that count permits per window ({@code fixed-window}, {@code sliding-window}):
 * their {@link Windows}, and the limit per window at the rate in force, which a rate change recomputes
 * keeping the windows and their counts (nothing is reset).
 */
abstract class WindowCountingLimiter extends LockingLimiter {

    /** Under the base's lock: the windows and their counts. */
    final Windows windows;
    /** Under the base's lock: permits per window at the rate in force. */
    long limit;

    WindowCountingLimiter(String name, RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin,
            DesignOptions options) {
        super(name, spec, clock, sleeper, origin);
        options.only(Windows.options());
        this.windows = new Windows(Windows.lengthOption(options), originNanos());
        this.limit = Windows.limit(spec, windows.length);
    }

    @Override
    protected String retune(RateSpec old, RateSpec spec, long now) {
        limit = Windows.limit(spec, windows.length);
        return "";
    }
}
