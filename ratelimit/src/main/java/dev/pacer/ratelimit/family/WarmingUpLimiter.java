package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Duration;
import java.util.Set;

/**
 * {@code warmup}: Guava's {@code SmoothWarmingUp} (its {@code RateLimiter}). A limiter left idle goes cold, and a cold
 * limiter lets requests through slowly at first: the spacing starts at {@code cold-factor} × 1/rate and
 * falls back to 1/rate over the warm-up period. See {@link StoredPermitsLimiter} for the model, the state
 * and the resolution.
 *
 * <h2>The warm-up</h2>
 * Idle time stores permits, one per {@code period / maxPermits}, so a limiter idle for a whole period
 * is fully cold. Spending a stored permit costs the height of this function at that many stored permits:
 * <pre>
 *   cost per permit
 *   cold-factor/rate +              /
 *                    |            /
 *          1/rate    +----------/
 *                    +----------+--+-----→ stored permits
 *                    0   threshold  maxPermits
 * </pre>
 * with {@code threshold = period / 2 × rate} and {@code maxPermits = threshold + 2 × period × rate /
 * (1 + cold-factor)}, so that going from {@code maxPermits} down to {@code threshold} takes exactly the
 * warm-up period and from there to 0 takes half of it (Guava's choice). Example: at 2 ops/s (0.5 s
 * stable spacing) with a 4 s period and cold factor 3, the threshold is 4 permits, the maximum 8 and the
 * slope 0.25 s per permit. A fully cold limiter charges the area under the slope for each permit:
 * 1.375 s for the first (from 8 stored down to 7), then 1.125 s, 0.875 s and 0.625 s (4 s in all, the
 * period), then 0.5 s each. Since the next caller pays, greedy callers on a cold limiter wait 0, 1.375,
 * 1.125, 0.875, 0.625, 0.5, 0.5... seconds.
 *
 * <p>Options: {@code period=DURATION}, the warm-up period (default {@code 5s}, at least 1 ms);
 * {@code cold-factor=N}, the cold spacing as a multiple of the stable one (default 3, Guava's; 1 to
 * 1 000 000); {@code start=warm|cold}, how the limiter starts (default {@code warm}: it paces at the rate from
 * the first request and goes cold only when left idle; {@code cold} is Guava's start: the rate climbs
 * over the first warm-up period); {@code resolution=1us} (Guava's; {@code 1ns} for rates over 1M ops/s).
 *
 * <p>A rate change keeps the stored permits' share of the maximum (Guava's {@code setRate}): a limiter
 * half cold stays half cold; nothing is reset.
 *
 * <p>State: the final options, and {@code thresholdPermits} and {@code slope} (set by {@link #applyRate}
 * with the base's fields), all guarded by the base's lock.
 */
final class WarmingUpLimiter extends StoredPermitsLimiter {

    /** The warm-up period in ticks; final. */
    private final long warmupPeriod;
    /** Cold spacing / stable spacing; final. */
    /** The coldest spacing a warm-up may start at, as a multiple of the stable one. */
    static final double MAX_COLD_FACTOR = 1_000_000;

    private final double coldFactor;
    /** Under the lock: stored permits below which a permit costs the stable interval. */
    private double thresholdPermits;
    /** Under the lock: the cost's rise per stored permit above the threshold, ticks. */
    private double slope;

    WarmingUpLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("warmup", spec, clock, sleeper, origin,
                resolution(options.only(Set.of("period", "cold-factor", "start", "resolution"))));
        this.warmupPeriod = options.duration("period", Duration.ofSeconds(5),
                Duration.ofMillis(1)).toNanos() / tickNanos();
        this.coldFactor = options.number("cold-factor", 3, 1, false);
        if (coldFactor > MAX_COLD_FACTOR) { // beyond, the stored permits' arithmetic loses the warm-up (1e18 ran warm)
            throw options.bad("cold-factor", options.text("cold-factor", ""), "a number from 1 to 1000000");
        }
        String start = options.text("start", "warm");
        if (!start.equals("warm") && !start.equals("cold")) {
            throw options.bad("start", start, "warm or cold");
        }
        applyRate(spec.opsPerSecond(), stableInterval);
        storedPermits = start.equals("cold") ? maxPermits : 0;
    }

    @Override
    protected void applyRate(double permitsPerSecond, double stableInterval) {
        double coldInterval = stableInterval * coldFactor;
        thresholdPermits = 0.5 * warmupPeriod / stableInterval;
        maxPermits = thresholdPermits + 2.0 * warmupPeriod / (stableInterval + coldInterval);
        slope = (coldInterval - stableInterval) / (maxPermits - thresholdPermits);
    }

    /** The area under the cost function between {@code stored - take} and {@code stored}, in ticks. */
    @Override
    protected long storedCost(double stored, double take) {
        double aboveThreshold = stored - thresholdPermits;
        long ticks = 0;
        if (aboveThreshold > 0.0) {
            double onSlope = Math.min(aboveThreshold, take);
            // a trapezoid: the cost at its two ends, times its width, halved
            double ends = costAt(aboveThreshold) + costAt(aboveThreshold - onSlope);
            ticks = (long) (onSlope * ends / 2.0);
            take -= onSlope;
        }
        return ticks + (long) (stableInterval * take);
    }

    /** The cost of one permit with {@code aboveThreshold} permits stored above the threshold. */
    private double costAt(double aboveThreshold) {
        return stableInterval + aboveThreshold * slope;
    }

    @Override
    protected double coolDownInterval() {
        return warmupPeriod / maxPermits;
    }
}
