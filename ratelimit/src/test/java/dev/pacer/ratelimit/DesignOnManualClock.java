package dev.pacer.ratelimit;

/**
 * What the tests of the limiter family share: a manual clock at {@link #T0}, designs built on it with a
 * {@link ManualSleeper} (a park advances the clock exactly), and the time units the expected numbers are
 * written in.
 */
abstract class DesignOnManualClock {

    static final long T0 = 1_000_000_000L;
    static final long US = 1_000L;
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    final ManualNanoClock clock = new ManualNanoClock(T0);

    /** {@code design} ({@code NAME[:options]}) at {@code rate} ops/s on this test's clock. */
    RateLimiter limiter(String design, double rate) {
        return RateLimiters.builder(RateSpec.of(rate)).design(LimiterDesign.parse(design))
                .clock(clock).sleeper(new ManualSleeper(clock)).build();
    }

    /** Acquires one permit with the clock set to {@code at}, returning the wait. */
    long acquireAt(RateLimiter l, long at) {
        clock.set(at);
        return l.acquire();
    }
}
