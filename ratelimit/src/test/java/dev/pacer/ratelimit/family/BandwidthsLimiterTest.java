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
 * {@code bandwidths} on the manual clock with numbers worked by hand: every limit must allow an op, greedy
 * and interval refill, capacities, requests larger than a limit, the first limit's rescale on a rate
 * change, the {@code also} syntax and its messages. {@link Bucket4jParityTest} holds it to Bucket4j.
 */
class BandwidthsLimiterTest extends DesignOnManualClock {

    @Test
    void theAlsoSyntaxAddsLimitsAfterTheRate() {
        BandwidthsLimiter l = (BandwidthsLimiter) limiter("bandwidths:also=20000/min+500k/h+7/250ms+3/10s", 1000);
        assertEquals("1000/1000000000ns cap 1000 + 20000/60000000000ns cap 20000 + 500000/3600000000000ns cap 500000"
                + " + 7/250000000ns cap 7 + 3/10000000000ns cap 3", l.describe());
        assertEquals("1/400000000ns cap 3", ((BandwidthsLimiter) limiter("bandwidths", 2.5)).describe(),
                "a fractional rate refills one op every 1/rate; capacity a second's worth, rounded");
        assertEquals("1000/1000000000ns cap 5", ((BandwidthsLimiter) limiter("bandwidths:capacity=5",
                1000)).describe());
    }

    @Test
    void aFullBucketLetsASecondsWorthThroughThenSpacesAtTheRate() {
        RateLimiter l = limiter("bandwidths", 100);
        for (int i = 0; i < 100; i++) {
            assertEquals(0, l.acquire());
        }
        assertEquals(10 * MS, l.acquire());
        clock.advance(35 * MS); // 3.5 tokens
        assertEquals(0, l.acquire(3));
        assertEquals(5 * MS, l.acquire(), "half a token was left: half a spacing");
    }

    @Test
    void anOpWaitsForTheTightestLimit() {
        RateLimiter l = limiter("bandwidths:also=5/s", 1000);
        for (int i = 0; i < 5; i++) {
            assertEquals(0, l.acquire());
        }
        assertEquals(200 * MS, l.acquire(), "1000/s has tokens; 5/s refills one in 200 ms");
        assertEquals(200 * MS, l.acquire());
        assertFalse(l.tryAcquire(1, Duration.ofMillis(199)));
        assertTrue(l.tryAcquire(1, Duration.ofMillis(200)));
    }

    @Test
    void intervalRefillAddsAWholePeriodsTokensAtItsEnd() {
        RateLimiter l = limiter("bandwidths:refill=interval", 10);
        for (int i = 0; i < 10; i++) {
            assertEquals(0, l.acquire());
        }
        Grant g = l.newGrant();
        assertEquals(1 * S, l.acquire(g), "nothing until the first second ends");
        for (int i = 0; i < 9; i++) {
            assertEquals(0, l.acquire(), "the rest of that second's ten");
        }
        clock.advance(1_500 * MS); // at 2.5 s: one more period ended at 2 s
        for (int i = 0; i < 10; i++) {
            assertEquals(0, l.acquire());
        }
        assertEquals(500 * MS, l.acquire(), "the next period ends at 3 s");
    }

    @Test
    void aSmallCapacityBoundsTheBurstAndALargerRequestLeavesDebt() {
        RateLimiter l = limiter("bandwidths:capacity=5", 1000);
        LockingLimiter locking = (LockingLimiter) l;
        assertEquals(T0 + 7 * MS, locking.reserve(12, T0), "5 held, 7 more refill in 7 ms: the caller pays for its "
                + "own");
        assertEquals(T0 + 8 * MS, locking.reserve(1, T0), "the next, asking at once, waits for the debt and its own");
        assertEquals(9 * MS, l.acquire(), "an acquire behind them waits for both and its own");
        clock.advance(10 * S);
        for (int i = 0; i < 5; i++) {
            assertEquals(0, l.acquire(), "idle stores at most the capacity");
        }
        assertEquals(1 * MS, l.acquire());
    }

    @Test
    void aRateChangeRescalesTheFirstLimitOnly() {
        RateLimiter l = limiter("bandwidths", 100);
        l.acquire(60); // 40 of 100 left
        l.reconfigure(RateSpec.of(200)); // 80 of 200
        assertEquals("", l.rateChangeNote());
        for (int i = 0; i < 80; i++) {
            assertEquals(0, l.acquire(), "permit " + i);
        }
        assertEquals(5 * MS, l.acquire(), "then 200/s");

        RateLimiter fixed = limiter("bandwidths:capacity=50", 100);
        fixed.acquire(30); // 20 of 50 left
        fixed.reconfigure(RateSpec.of(200)); // the capacity was given: 20 of 50 still
        for (int i = 0; i < 20; i++) {
            assertEquals(0, fixed.acquire());
        }
        assertEquals(5 * MS, fixed.acquire());

        RateLimiter also = limiter("bandwidths:also=50/s", 100);
        also.reconfigure(RateSpec.of(1000));
        for (int i = 0; i < 50; i++) {
            assertEquals(0, also.acquire());
        }
        assertEquals(20 * MS, also.acquire(), "the also limit is kept and holds a faster rate to 50/s");
    }

    @Test
    void badOptionsSayWhich() {
        String[][] bad = {
                {"bandwidths:refill=sometimes", "the bandwidths limiter's refill must be greedy or interval, got "
                        + "'sometimes'"},
                {"bandwidths:also=20000", "the bandwidths limiter's also must be limits joined by '+', each "
                        + "COUNT/PERIOD such as 20000/min or 500k/h, got '20000'"},
                {"bandwidths:also=20000/fortnight", "got '20000/fortnight'"},
                {"bandwidths:also=10/s+1.5/s", "got '10/s+1.5/s'"},
                {"bandwidths:also=0/s", "got '0/s'"},
                {"bandwidths:also=5/0s", "got '5/0s'"},
                {"bandwidths:capacity=0", "the bandwidths limiter's capacity must be a whole number >= 1, got '0'"},
                {"bandwidths:burst=3", "the bandwidths limiter has no option 'burst': it takes also, capacity, refill"},
        };
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> limiter(b[0], 10), b[0]);
            assertTrue(e.getMessage().contains(b[1]), b[0] + " -> " + e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> limiter("bandwidths:capacity=100M", 0.001));
        assertTrue(e.getMessage().contains("cannot count the limit") && e.getMessage().contains("capacity 100000000"),
                e.getMessage());
    }
}
