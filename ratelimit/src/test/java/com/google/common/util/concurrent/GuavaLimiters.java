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

    /** Guava's {@code SmoothBursty} storing {@code maxBurstSeconds} of idle time (its public factory fixes 1.0). */
    public static RateLimiter bursty(double permitsPerSecond, double maxBurstSeconds, FakeStopwatch stopwatch) {
        RateLimiter limiter = new SmoothRateLimiter.SmoothBursty(stopwatch, maxBurstSeconds);
        limiter.setRate(permitsPerSecond);
        return limiter;
    }

    /** Guava's {@code SmoothWarmingUp}, cold at the start as Guava's always is. */
    public static RateLimiter warmingUp(double permitsPerSecond, long warmupNanos, double coldFactor, FakeStopwatch stopwatch) {
        return RateLimiter.create(permitsPerSecond, warmupNanos, TimeUnit.NANOSECONDS, coldFactor, stopwatch);
    }
}
