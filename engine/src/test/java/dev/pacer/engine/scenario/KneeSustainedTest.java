package dev.pacer.engine.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.api.Arrivals;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The knee search's "sustained" verdict, fed counts: a system that keeps up with Poisson arrivals is judged
 * sustained (the count's own noise is not a shortfall), one that falls well short is not, and uniform arrivals keep
 * the exact allowance.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KneeSustainedTest {

    static final double PRECISION = 0.04;

    /** Ops a Poisson process of {@code rate} delivers in {@code seconds}: its exponential gaps, counted. */
    static long poissonCount(SplittableRandom random, double rate, double seconds) {
        long n = 0;
        double t = -Math.log(1 - random.nextDouble()) / rate;
        while (t < seconds) {
            n++;
            t += -Math.log(1 - random.nextDouble()) / rate;
        }
        return n;
    }

    @Test
    void poissonCountsOfASystemThatKeepsUpAreJudgedSustained() {
        SplittableRandom random = new SplittableRandom(29);
        double seconds = 4;
        int broken = 0;
        int probes = 2_000;
        for (int i = 0; i < probes; i++) {
            double rate = 200 * (1 + i % 8); // the search: 200 to 1 600
            double achieved = poissonCount(random, rate, seconds) / seconds;
            if (achieved < KneeSearch.sustainedFloor(rate, seconds, PRECISION, Arrivals.POISSON)) {
                broken++;
            }
        }
        // three standard deviations one-sided: about 0.13 % of probes; the old 98 % floor broke about a quarter
        assertTrue(broken <= probes / 200,
                broken + " of " + probes + " probes of a system that keeps up were judged broken");
    }

    @Test
    void aRealShortfallIsStillBrokenUnderPoissonArrivals() {
        SplittableRandom random = new SplittableRandom(30);
        double seconds = 4;
        for (int i = 0; i < 500; i++) {
            double rate = 200 * (1 + i % 8);
            double achieved = 0.75 * poissonCount(random, rate, seconds) / seconds; // a quarter of the asked ops lost
            assertTrue(achieved < KneeSearch.sustainedFloor(rate, seconds, PRECISION, Arrivals.POISSON),
                    "a 25 % shortfall at " + rate + "/s passed: " + achieved);
        }
    }

    @Test
    void uniformArrivalsKeepTheExactAllowance() {
        assertEquals(200 * 0.98, KneeSearch.sustainedFloor(200, 4, PRECISION, Arrivals.UNIFORM), 1e-9);
        assertEquals(200 * 0.99, KneeSearch.sustainedFloor(200, 4, 0.01, Arrivals.UNIFORM), 1e-9);
        // Poisson: 3 × sqrt(800) ops over 4 s below the same floor
        assertEquals(200 * 0.98 - 3 * Math.sqrt(800) / 4,
                KneeSearch.sustainedFloor(200, 4, PRECISION, Arrivals.POISSON), 1e-9);
    }
}
