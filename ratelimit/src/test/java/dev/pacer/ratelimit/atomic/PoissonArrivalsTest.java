package dev.pacer.ratelimit.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Poisson arrivals on the synthetic clock: the gaps between scheduled slots are exponential with the
 * slice as their mean (Kolmogorov–Smirnov), the rate holds, and reconfiguration and strictness work as
 * they do for uniform arrivals. Seeds are fixed, so every figure here replays exactly.
 */
class PoissonArrivalsTest {

    static final long T0 = 1_000_000_000L;
    static final int N = 100_000;
    /** KS critical value at alpha = 0.01 for large n: 1.628 / sqrt(n). */
    static final double KS_CRITICAL = 1.628 / Math.sqrt(N);

    final ManualNanoClock clock = new ManualNanoClock(T0);

    RateLimiter limiter(String spec, Arrivals arrivals, long seed) {
        return RateLimiters.builder(RateSpec.parse(spec)).clock(clock).sleeper(new ManualSleeper(clock))
                .fastPathStaleness(Duration.ofNanos(1_000)).arrivals(arrivals).seed(seed).build();
    }

    /** Scheduled times of n grants taken one after another by one caller on time. */
    static long[] schedule(RateLimiter l, Grant g, int n) {
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            l.acquire(g);
            s[i] = g.scheduledNanos();
        }
        return s;
    }

    static double[] gaps(long[] scheduled) {
        double[] g = new double[scheduled.length - 1];
        for (int i = 1; i < scheduled.length; i++) {
            g[i - 1] = scheduled[i] - scheduled[i - 1];
        }
        return g;
    }

    /** The Kolmogorov–Smirnov distance between the gaps and the exponential distribution with this mean. */
    static double ksExponential(double[] gaps, double mean) {
        double[] x = gaps.clone();
        Arrays.sort(x);
        double d = 0;
        int n = x.length;
        for (int i = 0; i < n; i++) {
            double cdf = 1 - Math.exp(-x[i] / mean);
            d = Math.max(d, Math.max((i + 1.0) / n - cdf, cdf - (double) i / n));
        }
        return d;
    }

    /**
     * A ramp made of small rises every millisecond, 100 to 500 ops/s over 4 s (1 200 ops asked for), with one caller
     * waiting on its slot through each: Poisson delivers what the rate asks, as uniform arrivals do. Each rise rewinds
     * the schedule ahead of the clock; cut to one mean at each, long gaps were shortened and short ones never
     * lengthened, and the ramp delivered about 1 900.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 42, 20261123})
    void aRampOfSmallRisesDeliversTheOpsItsRateAsksFor(long seed) {
        ManualSleeper sleeper = new ManualSleeper(clock);
        RateLimiter limiter = RateLimiters.builder(RateSpec.of(100)).clock(clock).sleeper(sleeper)
                .fastPathStaleness(Duration.ofNanos(1_000)).arrivals(Arrivals.POISSON).seed(seed).build();
        for (int k = 1; k <= 4_000; k++) {
            double rate = 100 + 0.1 * k;
            sleeper.at(T0 + k * 1_000_000L, () -> limiter.reconfigure(RateSpec.of(rate)));
        }
        Grant g = limiter.newGrant();
        int ops = 0;
        while (true) {
            limiter.acquire(g);
            if (g.scheduledNanos() >= T0 + 4_000_000_000L) {
                break;
            }
            ops++;
        }
        assertEquals(1_200, ops, 120, "ops over the ramp (seed " + seed + ")");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 42, 20261123})
    void gapsAreExponentialWithTheSliceAsMeanAndTheRateHolds(long seed) {
        RateLimiter l = limiter("10000", Arrivals.POISSON, seed);
        long[] s = schedule(l, l.newGrant(), N + 1);
        double[] gaps = gaps(s);
        double mean = 100_000; // ns at 10 000/s

        double d = ksExponential(gaps, mean);
        assertTrue(d < KS_CRITICAL, "KS distance " + d + " against the exponential exceeds " + KS_CRITICAL);
        double achieved = N / ((s[N] - s[0]) / 1e9);
        assertEquals(10_000, achieved, 100, "the rate holds within 1 % over 100 000 gaps");
        assertEquals(Arrivals.POISSON, l.arrivals());
    }

    @Test
    void uniformArrivalsFailTheSameTest() {
        RateLimiter l = limiter("10000", Arrivals.UNIFORM, 1);
        double d = ksExponential(gaps(schedule(l, l.newGrant(), 10_001)), 100_000);
        assertTrue(d > 0.3, "a metronome is far from exponential (the test can tell them apart): " + d);
    }

    @Test
    void aRateChangeKeepsPoissonAtTheNewMean() {
        RateLimiter l = limiter("10000", Arrivals.POISSON, 7);
        Grant g = l.newGrant();
        schedule(l, g, 1000);
        l.reconfigure(RateSpec.parse("20000"));
        long[] s = schedule(l, g, N + 1);
        double d = ksExponential(gaps(s), 50_000);
        assertTrue(d < KS_CRITICAL, "after the change the gaps are exponential with the new mean: " + d);
        assertEquals(Arrivals.POISSON, l.arrivals(), "kept across reconfiguration");
    }

    @Test
    void theSameSeedReplaysTheSameSchedule() {
        RateLimiter l1 = limiter("1000", Arrivals.POISSON, 99);
        long[] first = schedule(l1, l1.newGrant(), 1000);
        long origin1 = l1.originNanos();
        RateLimiter l2 = limiter("1000", Arrivals.POISSON, 99);
        long[] second = schedule(l2, l2.newGrant(), 1000);
        long origin2 = l2.originNanos();
        for (int i = 0; i < first.length; i++) {
            assertEquals(first[i] - origin1, second[i] - origin2, "slot " + i);
        }
    }

    @Test
    void aLateCallerCatchesUpAtStrictnessZeroButNotAtOne() {
        for (String spec : new String[] {"1000,0", "1000,1"}) {
            RateLimiter l = limiter(spec, Arrivals.POISSON, 3);
            Grant g = l.newGrant();
            clock.advance(1_000_000_000L); // the caller comes 1 s late: 1 000 slots are owed
            long end = clock.nanoTime() + 100_000_000L;
            int started = 0;
            // every grant starts at once or after a park; count those that start within the next 100 ms
            while (true) {
                l.acquire(g);
                if (g.startNanos() >= end) {
                    break;
                }
                started++;
            }
            if (spec.endsWith(",0")) {
                assertTrue(started > 1000, "at strictness 0 the backlog drains at once: " + started);
            } else {
                // the drawn gaps are the minimum spacing: ~100 in 100 ms at 1 000/s (Poisson, sd 10)
                assertTrue(started >= 60 && started <= 140, "at strictness 1 nothing is caught up: " + started);
            }
        }
    }

    @Test
    void parsesItsName() {
        assertEquals(Arrivals.POISSON, Arrivals.parse(" Poisson"));
        assertEquals(Arrivals.UNIFORM, Arrivals.parse("uniform"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Arrivals.parse("gauss"));
        assertTrue(e.getMessage().contains("'gauss'"), e.getMessage());
    }
}
