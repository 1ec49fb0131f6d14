package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * Builds the family's designs by name: the one way in from the factories above this package
 * ({@code LimiterDesign}, {@code RateLimiters}), so the designs themselves stay package-private.
 */
public final class Designs {

    private Designs() {
    }

    /**
     * The design {@code options} are for ({@code tokenpool}, {@code bucket}, ... as {@code LimiterDesign.NAMES}
     * lists them, all but {@code atomic}) at {@code spec} on {@code clock}, waiting with {@code sleeper},
     * opening at {@code origin} (null: now).
     */
    public static LockingLimiter build(DesignOptions options, RateSpec spec, NanoClock clock, Sleeper sleeper,
                                       Long origin) {
        return switch (options.design()) {
            case "tokenpool" -> new TokenPoolLimiter(spec, clock, sleeper, origin, options);
            case "bucket" -> new TokenBucketLimiter(spec, clock, sleeper, origin, options);
            case "warmup" -> new WarmingUpLimiter(spec, clock, sleeper, origin, options);
            case "bursty" -> new BurstyLimiter(spec, clock, sleeper, origin, options);
            case "bandwidths" -> new BandwidthsLimiter(spec, clock, sleeper, origin, options);
            case "leaky" -> new LeakyBucketLimiter(spec, clock, sleeper, origin, options);
            case "fixed-window" -> new FixedWindowLimiter(spec, clock, sleeper, origin, options);
            case "sliding-log" -> new SlidingLogLimiter(spec, clock, sleeper, origin, options);
            case "sliding-window" -> new SlidingWindowLimiter(spec, clock, sleeper, origin, options);
            default -> throw new IllegalArgumentException("no design of the family is named " + options.design());
        };
    }

    /**
     * What the design {@code options} are for does to {@code spec}'s rate that the run's reader should know,
     * or "": a window design lets a whole number of permits through per window (rate × window rounded, at
     * least 1). Says by how much, and a window that holds the rate; {@code shown} is the design as written.
     */
    public static String rateCaveat(DesignOptions options, RateSpec spec, String shown) {
        String name = options.design();
        if (!name.equals("fixed-window") && !name.equals("sliding-log") && !name.equals("sliding-window")) {
            return "";
        }
        long window = Windows.lengthOption(options);
        double rate = spec.opsPerSecond();
        double exact = rate * window / 1e9;
        long limit = Windows.limit(spec, window);
        if (Math.abs(limit - exact) <= 0.01 * exact) {
            return "";
        }
        String holds = "";
        for (int n = 1; n <= 1000 && holds.isEmpty(); n++) {
            double ms = n / rate * 1e3;
            if (ms >= 1 && Math.abs(ms - Math.rint(ms)) < 1e-6 && ms <= 3.6e6) {
                holds = "; window=" + Windows.text(Math.round(ms) * 1_000_000) + " holds it (" + n + " per window)";
            }
        }
        return String.format(Locale.ROOT, "%s lets %d per %s window where %s ops/s is %s: %.0f %% of the rate%s",
                shown, limit, Windows.text(window), sixDigits(rate), sixDigits(exact), 100 * limit / exact, holds);
    }

    private static String sixDigits(double v) {
        return BigDecimal.valueOf(v).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
