package dev.pacer.stress;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.RateSpec;

/**
 * A limiter on a synthetic clock for the stress tests: created at {@link #ORIGIN}, its clock then set
 * {@code lateByNanos} ahead, so every slot near the start of the schedule is late and no caller parks
 * unless its mode makes it (a park advances the shared clock by exactly its length). Two grants, one
 * per actor.
 */
final class SyntheticLimiter {

    static final long ORIGIN = 1_000_000_000L;
    /** 1000 ops/s: one slice is one millisecond. */
    static final long SLICE = 1_000_000L;
    static final long TEN_SECONDS = 10_000_000_000L;

    final ManualNanoClock clock = new ManualNanoClock(ORIGIN);
    final RateLimiter limiter;
    final Grant first;
    final Grant second;

    SyntheticLimiter(String spec, long lateByNanos) {
        limiter = RateLimiters.builder(RateSpec.parse(spec)).clock(clock).sleeper(new ManualSleeper(clock)).build();
        clock.set(ORIGIN + lateByNanos);
        first = limiter.newGrant();
        second = limiter.newGrant();
    }

    /** Schedule time handed out to permits: allocated minus what was given away and what runs hold unused. */
    long accountedNanos() {
        LimiterSnapshot s = limiter.snapshot();
        return s.allocatedNanos() - s.idleNanos() - s.reservedNanos();
    }

    static long offset(long nanos) {
        return nanos - ORIGIN;
    }
}
