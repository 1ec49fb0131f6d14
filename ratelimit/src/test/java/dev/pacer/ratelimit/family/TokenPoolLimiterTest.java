package dev.pacer.ratelimit.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.DesignOnManualClock;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code tokenpool} design (the EngineBlock rate limiter design notes' token pool with backfill) on the manual
 * clock, numbers worked by hand.
 */
class TokenPoolLimiterTest extends DesignOnManualClock {

    TokenPoolLimiter pool(String design, double rate) {
        return (TokenPoolLimiter) RateLimiters.builder(RateSpec.of(rate)).design(LimiterDesign.parse(design))
                .clock(clock).sleeper(new ManualSleeper(clock)).build();
    }

    /** The design notes' worked example: pool 1000, burst ratio 1.25, refills of 500. */
    @Test
    void theSeedsWorkedExample() {
        TokenPool p = new TokenPool(1000, 1.25);
        assertEquals(250, p.burstPool(), "the active pool may grow to 1000 x 1.25 = 1250");
        assertEquals(1000, p.active(), "opens full");

        // at or above 1000 the refill goes to the waiting pool; 500/1000 of the 250, i.e. 125, comes back
        p.refill(500);
        assertEquals(1125, p.active());
        assertEquals(375, p.waiting());
        p.refill(500);
        assertEquals(1250, p.active(), "the second 125: the ceiling");
        assertEquals(750, p.waiting());
        p.refill(500);
        assertEquals(1250, p.active(), "no room: no backfill");
        assertEquals(1250, p.waiting(), "and no token is lost");

        // a consumer fell behind: below 1000 the refill tops the active pool up directly, plus its backfill
        p.take(1000);
        assertEquals(250, p.active());
        p.refill(500);
        assertEquals(250 + 500 + 125, p.active());
        assertEquals(1250 - 125, p.waiting());
        p.refill(500);
        assertEquals(1000 + 125, p.active(), "125 direct to reach 1000, 375 waiting, 125 back");
        assertEquals(1125 + 375 - 125, p.waiting());
        // two refills of 500, one pool's worth, moved 250 forward: the full 25 % of bursting
    }

    @Test
    void aRefillLongerThanThePoolBackfillsTheBurstPoolAtMost() {
        TokenPool p = new TokenPool(1000, 1.25);
        p.take(1000);
        p.refill(5000);
        assertEquals(1000 + 250, p.active(), "1000 direct, then 250 of the 4000 waiting");
        assertEquals(3750, p.waiting());
    }

    @Test
    void aGreedyCallerGetsThePoolAtOnceThenOneIntervalApart() {
        TokenPoolLimiter l = pool("tokenpool", 1000); // pool 1 s = 1000 ops, burst 1.1
        Grant g = l.newGrant();
        for (int i = 0; i < 1000; i++) {
            assertEquals(0, l.acquire(g));
        }
        assertEquals(T0, clock.nanoTime());
        for (int i = 1; i <= 50; i++) {
            l.acquire(g);
            assertEquals(T0 + i * MS, g.startNanos(), "nothing waiting: one interval apart");
        }
        assertEquals(0, l.pool().waiting());
    }

    @Test
    void aBacklogIsRepaidAtTheBurstRatioThenTheRateResumes() {
        TokenPoolLimiter l = pool("tokenpool:pool=1s,burst=1.25", 1000);
        clock.advance(10 * S); // the pool sat full for 10 s: 10 s of tokens, all kept
        Grant g = l.newGrant();
        l.acquire(g);
        // one refill of 10 s: none fits below 1000 ms, so all of it waits; 250 ms of it comes back
        assertEquals(1249 * MS, l.pool().active());
        assertEquals(9_750 * MS, l.pool().waiting());
        for (int i = 1; i < 1250; i++) {
            assertEquals(0, l.acquire(g), "the active pool's 1250 ops at once");
        }
        long t = clock.nanoTime();
        assertEquals(T0 + 10 * S, t);
        // then each 1 ms op is repaid by 0.8 ms of time plus 0.2 ms of backfill: 1250 ops/s
        for (int i = 1; i <= 48_750; i++) {
            l.acquire(g);
            assertEquals(t + i * 800_000L, g.startNanos());
        }
        t = g.startNanos();
        l.acquire(g);
        assertEquals(0, l.pool().waiting(), "9750 ms drained, 0.2 ms per op");
        assertEquals(t + MS, g.startNanos(), "backlog repaid: back to the rate");
    }

    @Test
    void idleTimeBelowThePoolRefillsItDirectlyAsABucketWould() {
        TokenPoolLimiter l = pool("tokenpool:pool=1s,burst=1.25", 1000);
        assertEquals(T0, l.reserve(1000, T0));
        clock.advance(300 * MS);
        long now = clock.nanoTime();
        assertEquals(now, l.reserve(300, now), "300 ms of tokens, straight to the active pool");
        assertEquals(now + MS, l.reserve(1, now));
        assertEquals(0, l.pool().waiting());
    }

    @Test
    void withBurstOneNothingComesBackFromTheWaitingPool() {
        TokenPoolLimiter l = pool("tokenpool:burst=1", 1000);
        long later = T0 + 10 * S;
        assertEquals(later, l.reserve(1000, later));
        assertEquals(10 * S, l.pool().waiting(), "the 10 s, kept but never moved forward");
        assertEquals(later + MS, l.reserve(1, later));
        assertEquals(later + 2 * MS, l.reserve(1, later));
    }

    @Test
    void aRequestLargerThanThePoolWaitsForItsTokens() {
        TokenPoolLimiter l = pool("tokenpool:pool=100ms", 1000);
        assertEquals(T0 + 400 * MS, l.reserve(500, T0), "100 ms in the pool, 400 ms owed");
        assertEquals(-400 * MS, l.pool().active());
        assertEquals(T0 + 401 * MS, l.reserve(1, T0 + 10 * MS), "a later caller goes after it");
    }

    @Test
    void tryAcquireTakesNothingWhenItCannotStart() {
        TokenPoolLimiter l = pool("tokenpool:pool=10ms", 1000);
        assertTrue(l.tryAcquire(10, Duration.ZERO));
        assertFalse(l.tryAcquire(), "the pool is empty; the next token in 1 ms");
        assertEquals(0, l.pool().active(), "nothing taken");
        assertTrue(l.tryAcquire(1, Duration.ofMillis(1)));
        assertEquals(T0 + MS, clock.nanoTime());
    }

    @Test
    void aPauseIsNotABacklog() {
        TokenPoolLimiter l = pool("tokenpool", 1000);
        l.reserve(1000, T0);
        clock.advance(200 * MS);
        l.pause();
        clock.advance(60 * S);
        l.resume();
        long now = clock.nanoTime();
        assertEquals(now, l.reserve(200, now), "the 200 ms before the pause count");
        assertEquals(now + MS, l.reserve(1, now), "the paused minute does not");
        assertEquals(0, l.pool().waiting());
    }

    @Test
    void aRateChangeKeepsThePoolsAndNewOpsCostTheNewInterval() {
        TokenPoolLimiter l = pool("tokenpool", 1000);
        assertEquals(T0, l.reserve(1000, T0));
        assertEquals(T0 + 2 * MS, l.reserve(2, T0), "2 ms owed");
        l.reconfigure(RateSpec.of(100));
        assertEquals(-2 * MS, l.pool().active(), "what is owed is kept");
        assertEquals(T0 + 12 * MS, l.reserve(1, T0), "after the 2 ms owed, one op of 10 ms");
        assertEquals("", l.rateChangeNote());
    }

    @Test
    void badOptionsSayWhich() {
        List<String[]> bad = List.of(
                new String[] {"tokenpool:pool=0", "the tokenpool limiter's pool must be a duration > 0, e.g. 100ms or "
                        + "1s, got '0'"},
                new String[] {"tokenpool:pool=lots", "the tokenpool limiter's pool must be a duration"},
                new String[] {"tokenpool:burst=0.9", "the tokenpool limiter's burst must be a number >= 1, got '0.9'"},
                new String[] {"tokenpool:burst=1e9,pool=1h", "the tokenpool limiter's burst must be small enough"},
                new String[] {"tokenpool:size=1", "the tokenpool limiter has no option 'size': it takes burst, pool"});
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool(b[0], 1000), b[0]);
            assertTrue(e.getMessage().contains(b[1]), b[0] + " -> " + e.getMessage());
        }
    }
}
