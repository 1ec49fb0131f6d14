package dev.pacer.ratelimit;

import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;

/**
 * What the tests of the limiter family share: a manual clock at {@link #T0}, designs built on it with a
 * {@link ManualSleeper} (a park advances the clock exactly), and the time units the expected numbers are
 * written in. Public, its members protected, for the tests in the sub-packages.
 */
public abstract class DesignOnManualClock {

    protected static final long T0 = 1_000_000_000L;
    protected static final long US = 1_000L;
    protected static final long MS = 1_000_000L;
    protected static final long S = 1_000_000_000L;

    protected final ManualNanoClock clock = new ManualNanoClock(T0);

    /** {@code design} ({@code NAME[:options]}) at {@code rate} ops/s on this test's clock. */
    protected RateLimiter limiter(String design, double rate) {
        return RateLimiters.builder(RateSpec.of(rate)).design(LimiterDesign.parse(design))
                .clock(clock).sleeper(new ManualSleeper(clock)).build();
    }

    /** Acquires one permit with the clock set to {@code at}, returning the wait. */
    protected long acquireAt(RateLimiter l, long at) {
        clock.set(at);
        return l.acquire();
    }
}
