package com.google.common.util.concurrent;

import java.util.concurrent.TimeUnit;

/**
 * Test access to Guava's own smooth limiters on a fake stopwatch, for pacer's parity tests. Guava's
 * {@code SleepingStopwatch}, {@code SmoothBursty} and the factories that take a stopwatch are
 * package-private, so this class sits in Guava's package (test classpath only, no modules), as Guava's
 * own tests do.
 */
public final class GuavaLimiters {

    private GuavaLimiters() {
    }

    /** A stopwatch that moves only when slept on or told to: nanoseconds since it started, read as micros. */
    public static final class FakeStopwatch extends RateLimiter.SleepingStopwatch {
        private long nanos;
        private long sleptMicros;

        /** Nanoseconds since the stopwatch started. */
        public long nanos() {
            return nanos;
        }

        /** Microseconds slept so far, in total. */
        public long sleptMicros() {
            return sleptMicros;
        }

        public void advanceNanos(long n) {
            nanos += n;
        }

        @Override
        protected long readMicros() {
            return nanos / 1_000;
        }

        @Override
        protected void sleepMicrosUninterruptibly(long micros) {
            if (micros > 0) {
                nanos += micros * 1_000;
                sleptMicros += micros;
            }
        }
    }

    /**
     * Guava's {@code setRate}, then pacer's one deviation from it: on a rate increase the time priced ahead of now
     * ({@code nextFreeTicketMicros} in the future) shrinks by the ratio of the rates, so a request priced at a slow
     * rate does not hold the limiter at that rate's spacing after the change (pacer's StoredPermitsLimiter.retune,
     * in whole microseconds, rounded down as there). {@code old} is the rate before, as given.
     */
    public static void setRateMovingPricedAhead(RateLimiter limiter, double old, double permitsPerSecond,
                                                FakeStopwatch stopwatch) {
        limiter.setRate(permitsPerSecond);
        double factor = old / permitsPerSecond;
        if (factor < 1) {
            try {
                java.lang.reflect.Field f = SmoothRateLimiter.class.getDeclaredField("nextFreeTicketMicros");
                f.setAccessible(true);
                long next = f.getLong(limiter);
                long now = stopwatch.readMicros();
                if (next > now) {
                    f.setLong(limiter, now + (long) ((next - now) * factor));
                }
            } catch (ReflectiveOperationException e) {
                throw new AssertionError("Guava's SmoothRateLimiter has no nextFreeTicketMicros any more", e);
            }
        }
    }

    /** Guava's {@code SmoothBursty} storing {@code maxBurstSeconds} of idle time (its public factory fixes 1.0). */
    public static RateLimiter bursty(double permitsPerSecond, double maxBurstSeconds, FakeStopwatch stopwatch) {
        RateLimiter limiter = new SmoothRateLimiter.SmoothBursty(stopwatch, maxBurstSeconds);
        limiter.setRate(permitsPerSecond);
        return limiter;
    }

    /** Guava's {@code SmoothWarmingUp}, cold at the start as Guava's always is. */
    public static RateLimiter warmingUp(double permitsPerSecond, long warmupNanos, double coldFactor,
            FakeStopwatch stopwatch) {
        return RateLimiter.create(permitsPerSecond, warmupNanos, TimeUnit.NANOSECONDS, coldFactor, stopwatch);
    }
}
