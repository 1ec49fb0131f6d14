package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Duration;
import java.util.Set;

/**
 * {@code bursty}: Guava's {@code SmoothBursty}, behind its {@code RateLimiter}. Idle time is stored as permits, up to
 * {@code max-burst} seconds' worth at the rate, and stored permits cost nothing: after a second idle at
 * 100 ops/s the next 100 requests start at once, then requests are spaced at 1/rate again. The next
 * caller pays: a request for many permits on a free limiter starts at once and the one after it waits
 * for them. See {@link StoredPermitsLimiter} for the model, the state and the resolution.
 *
 * <p>Options: {@code max-burst=DURATION}, how much idle time is stored (default {@code 1s}, Guava's
 * fixed value; {@code 0} stores none); {@code resolution=1us} (Guava's; {@code 1ns} for rates over
 * 1M ops/s).
 *
 * <p>The limiter starts with nothing stored, as Guava's does. A rate change keeps the stored permits'
 * share of the maximum (Guava's {@code setRate}): nothing is reset.
 *
 * <p>State: {@code maxBurstSeconds} (final) and the base's fields, guarded by the base's lock.
 */
final class BurstyLimiter extends StoredPermitsLimiter {

    /** Seconds of idle time stored at most; final. */
    private final double maxBurstSeconds;

    BurstyLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("bursty", spec, clock, sleeper, origin, resolution(options.only(Set.of("max-burst", "resolution"))));
        Duration burst = options.duration("max-burst", Duration.ofSeconds(1), Duration.ZERO);
        this.maxBurstSeconds = burst.toNanos() / 1e9;
        applyRate(spec.opsPerSecond(), stableInterval);
        storedPermits = 0; // Guava's initial state: nothing stored
    }

    @Override
    protected void applyRate(double permitsPerSecond, double stableInterval) {
        maxPermits = maxBurstSeconds * permitsPerSecond;
    }

    @Override
    protected long storedCost(double stored, double take) {
        return 0;
    }

    @Override
    protected double coolDownInterval() {
        return stableInterval;
    }
}
