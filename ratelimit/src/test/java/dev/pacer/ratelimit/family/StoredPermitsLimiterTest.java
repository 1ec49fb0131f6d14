package dev.pacer.ratelimit.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.DesignOnManualClock;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code warmup} and {@code bursty} on the manual clock with numbers worked by hand from Guava's {@code RateLimiter}'s
 * formulas: stored permits, the next caller pays, the warm-up trapezoid, rate changes, the resolution,
 * and the options' messages. {@link GuavaParityTest} holds them to Guava's own answers.
 */
class StoredPermitsLimiterTest extends DesignOnManualClock {

    // ------------------------------------------------------------------------------------------------
    // bursty

    @Test
    void burstyStartsWithNothingStoredAndSpacesGreedyCallersAtTheRate() {
        RateLimiter l = limiter("bursty", 100); // 10 ms
        assertEquals(0, l.acquire());
        assertEquals(10 * MS, l.acquire());
        assertEquals(10 * MS, l.acquire());
    }

    @Test
    void burstyStoresASecondOfIdleTimeAndLetsItThroughAtOnce() {
        RateLimiter l = limiter("bursty", 100);
        l.acquire(); // next free at 10 ms
        clock.advance(1_010 * MS); // 1000 ms idle past it: 100 permits, the maximum
        for (int i = 0; i < 100; i++) {
            assertEquals(0, l.acquire(), "stored permit " + i + " costs nothing");
        }
        assertEquals(0, l.acquire(), "the 101st finds the limiter free and pays nothing itself");
        assertEquals(10 * MS, l.acquire(), "the 102nd pays for the 101st");
    }

    @Test
    void burstyNextCallerPaysForABigRequest() {
        RateLimiter l = limiter("bursty", 10); // 100 ms
        Grant g = l.newGrant();
        assertEquals(0, l.acquire(50, g), "a free limiter grants 50 at once");
        assertEquals(5 * S, l.acquire(g), "the next caller waits 50 × 100 ms");
        assertFalse(l.tryAcquire(1, Duration.ofMillis(99)));
        assertTrue(l.tryAcquire(1, Duration.ofMillis(100)));
    }

    @Test
    void burstyMaxBurstBoundsWhatIsStored() {
        RateLimiter l = limiter("bursty:max-burst=250ms", 100);
        l.acquire();
        clock.advance(10 * S);
        for (int i = 0; i < 26; i++) {
            assertEquals(0, l.acquire(), "25 stored + one free");
        }
        assertEquals(10 * MS, l.acquire());
        RateLimiter none = limiter("bursty:max-burst=0", 100);
        none.acquire();
        clock.advance(10 * S);
        assertEquals(0, none.acquire());
        assertEquals(10 * MS, none.acquire(), "max-burst=0 stores nothing: a leaky bucket");
    }

    @Test
    void burstyRateChangeKeepsTheStoredShare() {
        RateLimiter l = limiter("bursty", 100);
        l.acquire();
        clock.advance(510 * MS); // 50 of 100 stored
        l.reconfigure(RateSpec.of(200)); // 100 of 200
        assertEquals("", l.rateChangeNote());
        for (int i = 0; i < 101; i++) {
            assertEquals(0, l.acquire(), "permit " + i);
        }
        assertEquals(5 * MS, l.acquire(), "then 200/s");
    }

    // ------------------------------------------------------------------------------------------------
    // warmup

    @Test
    void warmupColdStartFollowsTheTrapezoid() {
        // 2/s, period 4 s, cold factor 3: threshold 4, max 8, slope 0.25 s/permit (the class javadoc's example)
        RateLimiter l = limiter("warmup:period=4s,start=cold", 2);
        long[] waits = {0, 1_375 * MS, 1_125 * MS, 875 * MS, 625 * MS, 500 * MS, 500 * MS, 500 * MS, 500 * MS,
                500 * MS};
        for (int i = 0; i < waits.length; i++) {
            assertEquals(waits[i], l.acquire(), "caller " + i);
        }
    }

    @Test
    void warmupStartsWarmByDefaultAndGoesColdWhenIdle() {
        RateLimiter l = limiter("warmup:period=4s", 2);
        assertEquals(0, l.acquire());
        assertEquals(500 * MS, l.acquire(), "warm: the stable spacing from the start");
        // next free at T0 + 1 s; a permit is stored every period / max = 0.5 s: 4 s idle past it stores all 8
        clock.advance(500 * MS + 4 * S);
        assertEquals(0, l.acquire());
        assertEquals(1_375 * MS, l.acquire(), "cold again: the first stored permit costs the slope's top");
        assertEquals(1_125 * MS, l.acquire());
    }

    @Test
    void warmupHalfColdAfterHalfThePeriodIdle() {
        RateLimiter l = limiter("warmup:period=4s", 2);
        l.acquire(); // next free at T0 + 0.5 s
        clock.advance(500 * MS + 2_500 * MS); // 5 stored: one above the threshold
        assertEquals(0, l.acquire());
        // the one above the threshold cost (0.75 + 0.5) / 2 = 0.625 s
        assertEquals(625 * MS, l.acquire());
        assertEquals(500 * MS, l.acquire(), "below the threshold: the stable spacing");
    }

    @Test
    void warmupRateChangeKeepsTheStoredShare() {
        RateLimiter l = limiter("warmup:period=4s,start=cold", 2); // 8 of 8 stored
        l.reconfigure(RateSpec.of(4)); // threshold 8, max 16, slope (0.75 - 0.25) / 8 = 0.0625 s: 16 of 16 stored
        assertEquals(0, l.acquire());
        // from 16 down to 15: (0.75 + 0.6875) / 2 = 0.71875 s
        assertEquals(718_750 * US, l.acquire());
    }

    @Test
    void warmupColdFactorOneHasNoSlope() {
        RateLimiter l = limiter("warmup:period=4s,cold-factor=1,start=cold", 2);
        for (int i = 0; i < 5; i++) {
            assertEquals(i == 0 ? 0 : 500 * MS, l.acquire());
        }
    }

    // ------------------------------------------------------------------------------------------------
    // resolution and options

    @Test
    void microsecondTicksRoundEachCostDownAsGuavaDoesAndNanosecondTicksDoNot() {
        RateLimiter us = limiter("bursty", 300_000); // 3.33 µs: Guava charges 3
        us.acquire();
        assertEquals(3 * US, us.acquire());
        RateLimiter ns = limiter("bursty:resolution=1ns", 300_000);
        ns.acquire();
        assertEquals(3_333, ns.acquire());
    }

    @Test
    void aCallerAskingBetweenTicksWaitsWholeTicksFromWhenItAsked() {
        RateLimiter l = limiter("bursty", 1_000); // 1 ms
        l.acquire(); // next free at 1 ms
        clock.advance(250_400); // reads as 250 µs
        Grant g = l.newGrant();
        assertEquals(750 * US, l.acquire(g));
        assertEquals(T0 + 1_000_400, g.startNanos());
    }

    @Test
    void aRateFasterThanOnePermitATickIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> limiter("bursty", 2e6));
        assertTrue(e.getMessage().contains("at most 1000000 ops/s") && e.getMessage().contains("resolution=1ns"),
                e.getMessage());
        RateLimiter l = limiter("warmup:resolution=1ns", 2e6);
        l.acquire();
        assertEquals(500, l.acquire());
        RateLimiter slow = limiter("warmup", 1_000);
        assertThrows(IllegalArgumentException.class, () -> slow.reconfigure(RateSpec.of(5e6)));
        assertEquals(1_000, slow.spec().opsPerSecond(), "a refused change leaves the rate");
    }

    @Test
    void badOptionsSayWhich() {
        String[][] bad = {
                {"warmup:start=hot", "the warmup limiter's start must be warm or cold, got 'hot'"},
                {"warmup:cold-factor=0.5", "the warmup limiter's cold-factor must be a number >= 1, got '0.5'"},
                {"warmup:cold-factor=1e18", "the warmup limiter's cold-factor must be a number from 1 to 1000000, got "
                        + "'1e18'"},
                {"warmup:period=0", "the warmup limiter's period must be a duration >= 1ms, e.g. 500ms or 10s, got "
                        + "'0'"},
                {"warmup:max-burst=1s", "the warmup limiter has no option 'max-burst'"},
                // what DurationText refuses, with its words after the value
                {"bursty:max-burst=soon", "the bursty limiter's max-burst must be a duration >= 0, got 'soon': "
                        + "expected a number with a unit: ns, us, ms, s, m or h (e.g. 500us, 2ms, 30s)"},
                {"bursty:max-burst=0.5", "got '0.5': expected a number with a unit"},
                {"bursty:max-burst=9000h", "got '9000h': too long: at most 8760h (365 days)"},
                {"bursty:max-burst=-1s", "the bursty limiter's max-burst must be a duration >= 0, e.g. 500ms or 10s, "
                        + "got '-1s'"},
                {"bursty:resolution=0", "the bursty limiter's resolution must be a duration >= 1ns, e.g. 500ms or 10s, "
                        + "got '0'"},
                {"bursty:max-burst=1e15", "got '1e15': expected a number with a unit"},
                {"bursty:period=1s", "the bursty limiter has no option 'period': it takes max-burst, resolution"},
                {"bursty:resolution=3ns", "the bursty limiter's resolution must be a duration of at most 1ms that "
                        + "divides one second"},
                {"bursty:resolution=1s", "got '1s'"},
        };
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> limiter(b[0], 10), b[0]);
            assertTrue(e.getMessage().contains(b[1]), b[0] + " -> " + e.getMessage());
        }
    }
}
