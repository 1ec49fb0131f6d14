package dev.pacer.ratelimit.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.GuavaLimiters.FakeStopwatch;
import com.google.common.util.concurrent.GuavaLimiters;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code warmup} and {@code bursty} against Guava's own {@code SmoothWarmingUp} and {@code SmoothBursty}:
 * the same calls (acquires of any size, tryAcquires with timeouts, idle gaps, rate changes) on two clocks
 * that start together, and the same waits, to the nanosecond. Guava's wait is what its stopwatch was
 * asked to sleep (whole microseconds); pacer's is start − asked. Gaps of odd nanoseconds are included:
 * both read the clock as whole microseconds and wait whole microseconds from when they asked, so the
 * two clocks never part.
 */
class GuavaParityTest {

    static final long T0 = 1_000_000_000L;
    static final long US = 1_000L;
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    /** Pacer's limiter and Guava's, driven in step; every call asserts the same outcome. */
    static final class Twin {
        final ManualNanoClock clock = new ManualNanoClock(T0);
        final FakeStopwatch watch;
        final RateLimiter pacer;
        final com.google.common.util.concurrent.RateLimiter guava;
        final StringBuilder log = new StringBuilder();
        int calls;

        static Twin bursty(double rate, double maxBurstSeconds) {
            FakeStopwatch w = new FakeStopwatch();
            return new Twin(String.format(Locale.ROOT, "bursty:max-burst=%dns", Math.round(maxBurstSeconds * 1e9)),
                    rate,
                    GuavaLimiters.bursty(rate, maxBurstSeconds, w), w);
        }

        static Twin warmup(double rate, long periodNanos, double coldFactor) {
            FakeStopwatch w = new FakeStopwatch();
            return new Twin(String.format(Locale.ROOT, "warmup:start=cold,period=%dns,cold-factor=%s", periodNanos,
                    coldFactor),
                    rate, GuavaLimiters.warmingUp(rate, periodNanos, coldFactor, w), w);
        }

        /** The rate before the latest change, exactly as given (Guava's getRate() is a round trip through micros). */
        private double previousRate;

        private Twin(String design, double rate, com.google.common.util.concurrent.RateLimiter guava,
                FakeStopwatch watch) {
            this.pacer = RateLimiters.builder(RateSpec.of(rate)).design(LimiterDesign.parse(design))
                    .clock(clock).sleeper(new ManualSleeper(clock)).build();
            this.guava = guava;
            this.watch = watch;
            this.previousRate = rate;
            this.log.append(design).append(" at ").append(rate).append('\n');
        }

        Twin idle(long nanos) {
            log.append("idle ").append(nanos).append('\n');
            clock.advance(nanos);
            watch.advanceNanos(nanos);
            return this;
        }

        /** Acquires on both; returns pacer's wait (ns). */
        long acquire(int permits) {
            long slept = watch.sleptMicros();
            long waited = pacer.acquire(permits);
            double seconds = guava.acquire(permits);
            long guavaWait = (watch.sleptMicros() - slept) * US;
            assertEquals(guavaWait / 1e9, seconds, 1e-9, "Guava's own answer is what it slept");
            check("acquire(" + permits + ")", waited, guavaWait);
            return waited;
        }

        /** tryAcquire on both; returns whether pacer's succeeded. */
        boolean tryAcquire(int permits, long timeoutMicros) {
            long slept = watch.sleptMicros();
            long before = clock.nanoTime();
            boolean p = pacer.tryAcquire(permits, Duration.ofNanos(timeoutMicros * US));
            boolean g = guava.tryAcquire(permits, timeoutMicros, TimeUnit.MICROSECONDS);
            String what = "tryAcquire(" + permits + ", " + timeoutMicros + "us)";
            log.append(what).append(" -> ").append(p).append('\n');
            assertEquals(g, p, () -> what + " succeeded differently\n" + log);
            check(what, clock.nanoTime() - before, (watch.sleptMicros() - slept) * US);
            return p;
        }

        void setRate(double rate) {
            log.append("setRate ").append(rate).append('\n');
            pacer.reconfigure(RateSpec.of(rate));
            GuavaLimiters.setRateMovingPricedAhead(guava, previousRate, rate, watch);
            previousRate = rate;
        }

        private void check(String what, long pacerWait, long guavaWait) {
            calls++;
            log.append(what).append(": pacer ").append(pacerWait).append(" guava ").append(guavaWait).append('\n');
            assertEquals(guavaWait, pacerWait, () -> what + ": waits differ\n" + log);
            assertEquals(watch.nanos(), clock.nanoTime() - T0, () -> what + ": the clocks parted\n" + log);
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Fixed sequences

    @Test
    void burstyGreedyCallersAtFivePerSecond() {
        Twin t = Twin.bursty(5, 1.0);
        for (int i = 0; i < 6; i++) {
            assertEquals(i == 0 ? 0 : 200 * MS, t.acquire(1));
        }
    }

    @Test
    void burstyStoresIdleTimeUpToMaxBurstAndSpendsItFree() {
        Twin t = Twin.bursty(5, 1.0);
        t.acquire(1);
        t.idle(3 * S); // stores 5 at most
        for (int i = 0; i < 6; i++) {
            assertEquals(0, t.acquire(1), "5 stored + the one that finds the limiter free");
        }
        assertEquals(200 * MS, t.acquire(1));
        t.idle(500 * MS);
        t.acquire(3);
        t.acquire(10); // the next caller pays
        assertEquals(2 * S, t.acquire(1));
    }

    @Test
    void burstyWithALongerBurstAndRateChanges() {
        Twin t = Twin.bursty(10, 2.5);
        t.idle(S);
        t.acquire(1);
        t.idle(1_700 * MS);
        t.setRate(40); // 17 stored of 25 become 68 of 100
        t.acquire(50);
        t.acquire(20);
        t.acquire(1);
        t.setRate(4);
        t.acquire(2);
        t.acquire(1);
        t.idle(10 * S);
        t.setRate(1000);
        for (int i = 0; i < 30; i++) {
            t.acquire(100);
        }
        t.tryAcquire(1, 0);
        t.tryAcquire(1, 99_999);
        t.tryAcquire(1, 100_000);
    }

    @Test
    void burstyWithNoBurstIsALeakyBucket() {
        Twin t = Twin.bursty(100, 0);
        t.acquire(1);
        t.idle(5 * S);
        assertEquals(0, t.acquire(1));
        assertEquals(10 * MS, t.acquire(1));
    }

    @Test
    void warmupFromColdAtTwoPerSecondOverFourSeconds() {
        Twin t = Twin.warmup(2, 4 * S, 3);
        long[] expected = {0, 1_375 * MS, 1_125 * MS, 875 * MS, 625 * MS, 500 * MS, 500 * MS, 500 * MS, 500 * MS,
                500 * MS};
        for (long e : expected) {
            assertEquals(e, t.acquire(1));
        }
        t.idle(10 * S); // cold again
        t.acquire(1);
        assertEquals(1_375 * MS, t.acquire(1));
    }

    @Test
    void warmupWithManyPermitsPartIdleAndRateChanges() {
        Twin t = Twin.warmup(100, 2 * S, 3);
        t.acquire(50);
        t.acquire(200);
        t.acquire(1);
        t.idle(700 * MS);
        t.acquire(7);
        t.setRate(250); // half-cold stays half-cold
        for (int i = 0; i < 20; i++) {
            t.acquire(1 + i % 4);
        }
        t.idle(333 * MS);
        t.setRate(33.3);
        t.acquire(1);
        t.tryAcquire(1, 10_000);
        t.tryAcquire(5, 1_000_000);
        t.acquire(40);
        t.tryAcquire(1, 0);
    }

    @ParameterizedTest
    @ValueSource(doubles = {1, 1.5, 2, 5, 10})
    void warmupWithOtherColdFactors(double coldFactor) {
        Twin t = Twin.warmup(7, 3 * S, coldFactor);
        for (int i = 0; i < 40; i++) {
            t.acquire(1);
        }
        t.idle(1_500 * MS);
        for (int i = 0; i < 20; i++) {
            t.acquire(2);
        }
    }

    // ------------------------------------------------------------------------------------------------
    // Seeded random sequences

    static final double[] RATES = {0.5, 2, 5, 7, 100, 333.3, 1000, 12_345, 100_000};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void randomSequencesGiveGuavasWaits(long seed) {
        Random r = new Random(seed);
        double rate = RATES[r.nextInt(RATES.length)];
        boolean warm = r.nextBoolean();
        boolean oddNanos = seed % 3 == 0; // every third sequence idles for odd nanoseconds too
        double interval = 1e9 / rate;
        Twin t = warm
                ? Twin.warmup(rate, (1 + r.nextInt(10)) * 500 * MS, new double[] {1, 2, 3, 4.5}[r.nextInt(4)])
                : Twin.bursty(rate, new double[] {0, 0.25, 1, 2.5}[r.nextInt(4)]);
        for (int i = 0; i < 400; i++) {
            int k = r.nextInt(100);
            if (k < 50) {
                t.acquire(r.nextInt(10) < 8 ? 1 : 1 + r.nextInt(Math.max(1, (int) Math.min(rate, 50))));
            } else if (k < 70) {
                long gap = (long) (r.nextDouble() * interval * (r.nextBoolean() ? 3 : 30));
                t.idle(oddNanos ? gap : gap / US * US);
            } else if (k < 90) {
                t.tryAcquire(1 + r.nextInt(3), (long) (r.nextDouble() * interval * 3 / US));
            } else if (k < 93) {
                rate = RATES[r.nextInt(RATES.length)];
                interval = 1e9 / rate;
                t.setRate(rate);
            }
        }
        assertTrue(t.calls > 250, "the sequence made its calls");
    }
}
