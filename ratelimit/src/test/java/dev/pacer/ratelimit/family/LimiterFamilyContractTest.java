package dev.pacer.ratelimit.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.DesignOnManualClock;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateOutOfReachException;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every design of the family owes a run, whatever its shape, on the manual clock: the long-run rate
 * is the spec's, waits are start − asked, a rate change takes effect, pause holds callers and resume
 * lets them go, grants are checked, strictness is refused. Runs over {@link LimiterDesign#NAMES}, so a
 * design added there is held to it.
 */
class LimiterFamilyContractTest extends DesignOnManualClock {

    static Stream<String> family() {
        return LimiterDesign.NAMES.stream().filter(n -> !n.equals("atomic"));
    }

    @ParameterizedTest
    @MethodSource("family")
    void aGreedyCallerIsHeldToTheRateOverTenSeconds(String design) {
        RateLimiter l = limiter(design, 1000);
        Grant g = l.newGrant();
        long ops = 0;
        while (clock.nanoTime() - T0 < 10_000 * MS) {
            long before = clock.nanoTime();
            long wait = l.acquire(g);
            assertEquals(g.startNanos() - g.scheduledNanos(), wait, "wait = start - asked");
            assertTrue(g.scheduledNanos() >= before && g.startNanos() >= g.scheduledNanos());
            ops++;
        }
        // designs may let a first burst through (a full bucket, a window's count): 10 s at 1000/s plus at most
        // one second's worth
        assertTrue(ops >= 9_900 && ops <= 11_100, design + " let " + ops + " ops through in 10 s at 1000/s");
        assertEquals(ops, l.snapshot().permitsGranted());
        assertEquals(ops, g.permitsGranted());
    }

    @ParameterizedTest
    @MethodSource("family")
    void aRateChangeTakesEffect(String design) {
        RateLimiter l = limiter(design, 1000);
        Grant g = l.newGrant();
        while (clock.nanoTime() - T0 < 5_000 * MS) {
            l.acquire(g);
        }
        l.reconfigure(RateSpec.of(200));
        assertEquals(200, l.spec().opsPerSecond());
        long from = clock.nanoTime();
        long ops = 0;
        while (clock.nanoTime() - from < 20_000 * MS) {
            l.acquire(g);
            ops++;
        }
        assertTrue(ops >= 3_900 && ops <= 5_200, design + " let " + ops + " ops through in 20 s after a change to "
                + "200/s");
    }

    /** tryAcquire with a grant records each slot taken in it, never waits, and stops at the first slot not due. */
    @ParameterizedTest
    @MethodSource("family")
    void tryAcquireWithAGrantTakesOnlyDueSlotsAndRecordsEach(String design) {
        RateLimiter l = limiter(design, 10);
        clock.set(T0 + 1_000 * MS);
        Grant g = l.newGrant();
        long taken = 0;
        long before = clock.nanoTime();
        while (l.tryAcquire(g)) {
            assertTrue(g.scheduledNanos() <= clock.nanoTime(), design + ": slot " + taken + " was due");
            taken++;
            assertTrue(taken <= 20, design + ": at 10/s a second holds about 10 slots, and a burst's few");
        }
        assertEquals(before, clock.nanoTime(), design + ": it never waits");
        assertTrue(taken >= 1, design + ": the second's slots were due");
        assertEquals(taken, l.snapshot().permitsGranted(), design);
        g.close();
    }

    @ParameterizedTest
    @MethodSource("family")
    void aPausedLimiterHoldsCallersAndTryAcquireRefuses(String design) throws Exception {
        RateLimiter l = limiter(design, 1000);
        l.pause();
        assertTrue(l.isPaused());
        assertFalse(l.tryAcquire(), "paused: nothing starts");
        Thread t = new Thread(() -> l.acquire());
        t.start();
        t.join(200);
        assertTrue(t.isAlive(), "a caller waits out the pause");
        l.resume();
        t.join(5_000);
        assertFalse(t.isAlive(), "resume lets it go");
        assertEquals(1, l.snapshot().permitsGranted());
    }

    @ParameterizedTest
    @MethodSource("family")
    void grantsAreCheckedAndStrictnessIsRefused(String design) {
        RateLimiter l = limiter(design, 1000);
        RateLimiter other = limiter(design, 1000);
        assertThrows(IllegalArgumentException.class, () -> l.acquire(other.newGrant()));
        Grant g = l.newGrant();
        g.close();
        assertThrows(IllegalStateException.class, () -> l.acquire(g));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> l.reconfigure(RateSpec.of(1000).withStrictness(1)));
        assertTrue(e.getMessage().contains(design) && e.getMessage().contains("strictness"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RateLimiters.builder(RateSpec.of(10))
                .design(LimiterDesign.parse(design)).arrivals(Arrivals.POISSON).build());
    }

    @ParameterizedTest
    @MethodSource("family")
    void anOriginAheadHoldsTheFirstCaller(String design) {
        RateLimiter l = RateLimiters.builder(RateSpec.of(1000)).design(LimiterDesign.parse(design))
                .clock(clock).sleeper(new ManualSleeper(clock)).origin(T0 + 50 * MS).build();
        assertEquals(T0 + 50 * MS, l.originNanos());
        l.acquire();
        assertTrue(clock.nanoTime() >= T0 + 50 * MS, "nothing starts before the origin");
    }

    @Test
    void designsAreNamedAndBadOptionsSayWhich() {
        assertEquals(LimiterDesign.ATOMIC, LimiterDesign.parse("atomic"));
        assertEquals("leaky:queue=5", LimiterDesign.parse(" leaky : queue=5 ").toString());
        List<String[]> bad = List.of(
                new String[] {"nope", "unknown limiter 'nope'"},
                new String[] {"leaky:queue", "limiter option 'queue'"},
                new String[] {"leaky:queue=1,queue=2", "'queue' given twice"},
                new String[] {"leaky:size=3", "the leaky limiter has no option 'size': it takes queue"},
                new String[] {"leaky:queue=-1", "the leaky limiter's queue must be a whole number >= 0, got '-1'"},
                new String[] {"leaky:queue=1.5", "got '1.5'"},
                new String[] {"atomic:x=1", "the atomic limiter has no option 'x': it takes none"},
                new String[] {"atomic:garbage", "'garbage' in 'atomic:garbage': expected key=value; the atomic limiter "
                        + "takes none"},
                new String[] {":", "unknown limiter ''"},
                new String[] {"tokenpool:BURST=5", "'BURST=5' in 'tokenpool:BURST=5': keys are lower case, e.g. "
                        + "tokenpool:pool=10ms"},
                new String[] {"tokenpool:pool=", "'pool=' in 'tokenpool:pool=': has no value, e.g. "
                        + "tokenpool:pool=10ms"});
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> RateLimiters.builder(RateSpec.of(10)).design(LimiterDesign.parse(b[0])).build(), b[0]);
            assertTrue(e.getMessage().contains(b[1]), b[0] + " -> " + e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, // built without parse
                () -> RateLimiters.builder(RateSpec.of(10)).design(new LimiterDesign("atomic", Map.of("x",
                        "1"))).build());
        assertTrue(e.getMessage().contains("the atomic limiter has no option 'x'"), e.getMessage());
        // a century to refill at 1 op/s, 58 days at 1000
        LimiterDesign big = LimiterDesign.parse("bucket:size=5000000000");
        assertThrows(RateOutOfReachException.class, () -> big.check(RateSpec.of(1)));
        big.check(RateSpec.of(1000));
        assertThrows(RateOutOfReachException.class, () -> LimiterDesign.parse("warmup").check(RateSpec.of(2e6)));
        assertEquals("fixed-window lets 1 per 1s window where 0.1 ops/s is 0.1: 1000 % of the rate; window=10s holds it"
                + " (1 per window)", LimiterDesign.parse("fixed-window").rateCaveat(RateSpec.of(0.1)));
        assertEquals("sliding-log:window=1s lets 2 per 1s window where 1.5 ops/s is 1.5: 133 % of the rate; window=2s"
                + " holds it (3 per window)",
                        LimiterDesign.parse("sliding-log:window=1s").rateCaveat(RateSpec.of(1.5)));
        assertEquals("", LimiterDesign.parse("sliding-window").rateCaveat(RateSpec.of(2000)), "a whole quota");
        assertEquals("", LimiterDesign.parse("leaky").rateCaveat(RateSpec.of(0.1)), "no windows");
    }
}
