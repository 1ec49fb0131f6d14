package dev.pacer.ratelimit;

import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.ParkingSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import dev.pacer.ratelimit.atomic.LockFreeRateLimiter;
import java.time.Duration;
import java.util.Objects;

/**
 * Creates rate limiters.
 *
 * <pre>{@code
 * RateLimiter limiter = RateLimiters.create(5_000, 0.5);          // 5k ops/s, burst compensation 0.5
 * RateLimiter parsed  = RateLimiters.create(RateSpec.parse("20k,1.1"));
 * RateLimiter test    = RateLimiters.builder(RateSpec.of(1000))    // on a synthetic clock
 *         .clock(clock).sleeper(new ManualSleeper(clock)).build();
 * }</pre>
 */
public final class RateLimiters {

    /** Default bound on how stale the cached clock may be when late callers use it (1 µs). */
    public static final Duration DEFAULT_FAST_PATH_STALENESS = Duration.ofNanos(1_000);

    private RateLimiters() {
    }

    /** A limiter at {@code opsPerSecond} with the given strictness, on the system clock. */
    public static RateLimiter create(double opsPerSecond, double strictness) {
        return create(new RateSpec(opsPerSecond, strictness));
    }

    /** A limiter for {@code spec}, on the system clock. */
    public static RateLimiter create(RateSpec spec) {
        return builder(spec).build();
    }

    public static Builder builder(RateSpec spec) {
        return new Builder(spec);
    }

    /** Options for tests and tuning; the defaults are what {@link #create(RateSpec)} uses. */
    public static final class Builder {
        private final RateSpec spec;
        private NanoClock clock = NanoClock.system();
        private Sleeper sleeper;
        private Duration fastPathStaleness = DEFAULT_FAST_PATH_STALENESS;
        private Arrivals arrivals = Arrivals.UNIFORM;
        private long seed = java.util.concurrent.ThreadLocalRandom.current().nextLong();
        private Long origin;
        private LimiterDesign design = LimiterDesign.ATOMIC;

        private Builder(RateSpec spec) {
            this.spec = Objects.requireNonNull(spec, "spec");
        }

        /** The clock (default {@link System#nanoTime()}). */
        public Builder clock(NanoClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How early callers wait (default {@link ParkingSleeper#calibrated()}). */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /**
         * The staleness target of each grant's cached clock (default 1 µs). Late callers whose slot is
         * behind their grant's clock go without reading the clock; a grant re-reads it every k acquires,
         * k sized from the caller's own pace so that a start is less than twice this old while the pace
         * holds. Their waits are lower bounds off by at most that much. Zero disables the fast path:
         * every acquire reads the clock.
         */
        public Builder fastPathStaleness(Duration staleness) {
            if (staleness.isNegative()) {
                throw new IllegalArgumentException("fast-path staleness must be >= 0, got " + staleness);
            }
            this.fastPathStaleness = staleness;
            return this;
        }

        /** How slots are spaced (default {@link Arrivals#UNIFORM}); kept across reconfigurations. */
        public Builder arrivals(Arrivals arrivals) {
            this.arrivals = Objects.requireNonNull(arrivals, "arrivals");
            return this;
        }

        /**
         * The seed of the {@link Arrivals#POISSON} generators (default: random). Grants created in the
         * same order get the same draws, so a run with one thread replays exactly.
         */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /**
         * The clock reading (on the clock's scale) of slot 0 (default: the clock when built). Ahead of the clock,
         * callers wait for it; behind, they are late by that much and catch up by the strictness rules.
         */
        public Builder origin(long nanoTime) {
            this.origin = nanoTime;
            return this;
        }

        /**
         * The design (default {@link LimiterDesign#ATOMIC}, the lock-free limiter). The others take the
         * clock, sleeper and origin set here; fast-path staleness and seed are the atomic limiter's own,
         * and Poisson arrivals need it.
         */
        public Builder design(LimiterDesign design) {
            this.design = Objects.requireNonNull(design, "design");
            return this;
        }

        public RateLimiter build() {
            Sleeper s = sleeper != null ? sleeper : ParkingSleeper.calibrated();
            if (!design.isAtomic()) {
                if (arrivals != Arrivals.UNIFORM) {
                    throw new IllegalArgumentException(arrivals + " arrivals need the atomic limiter, not "
                            + design.name());
                }
                return design.build(spec, clock, s, origin);
            }
            design.typed().only(java.util.Set.of()); // the atomic limiter takes no options
            long stalenessNanos = Math.min(fastPathStaleness.toNanos(), 1_000_000_000L);
            return new LockFreeRateLimiter(spec, clock, s, stalenessNanos, arrivals, seed, origin);
        }
    }
}
