package dev.pacer.engine.run;

import dev.pacer.engine.api.Shard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Shards of one test on a synthetic clock: their slots are exactly the global slots, each once. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShardTest {

    static final long T0 = 1_000_000_000L;

    @Test
    void fourShardsAt8000PerSecondTakeExactlyTheGlobalSlotsIModN() {
        double global = 8_000; // a global slice of 125 000 ns
        int n = 4;
        TreeSet<Long> all = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            Shard shard = new Shard(i, n);
            ManualNanoClock clock = new ManualNanoClock(T0);
            // what Activity builds for a shard: 1/N of the rate, origin offset by i global slices
            RateLimiter l = RateLimiters.builder(RateSpec.of(shard.share(global))).clock(clock)
                    .sleeper(new ManualSleeper(clock)).fastPathStaleness(Duration.ofNanos(1_000))
                    .origin(T0 + shard.offsetNanos(global)).build();
            Grant g = l.newGrant();
            for (int k = 0; k < 1_000; k++) {
                l.acquire(g);
                long t = g.scheduledNanos() - T0;
                assertEquals(0, t % 125_000, "on the global grid: " + t);
                assertEquals(i, (t / 125_000) % n, "shard " + i + " owns the global slots " + i + " mod " + n);
                assertTrue(all.add(t), "no two shards share a slot: " + t);
                assertTrue(g.startNanos() >= g.scheduledNanos(), "no op before its slot (the origin ahead is waited "
                        + "for)");
            }
        }
        assertEquals(4_000, all.size());
        assertEquals(0, all.first());
        assertEquals(3_999L * 125_000, all.last(), "the shards' slots are the global schedule without a hole");
    }

    /** The first {@code n} scheduled times (ns after T0) of a Poisson run of {@code config}, as Activity builds it. */
    static long[] poissonSchedule(ActivityConfig config, int n) {
        ManualNanoClock clock = new ManualNanoClock(T0);
        Shard shard = config.shard();
        long offset = shard == null ? 0 : shard.offsetNanos(config.rate().opsPerSecond());
        RateLimiter l = RateLimiters.builder(config.share(config.rate())).clock(clock).sleeper(new ManualSleeper(clock))
                .arrivals(Arrivals.POISSON).seed(config.streamSeed()).origin(T0 + offset).build();
        Grant g = l.newGrant();
        long[] times = new long[n];
        for (int k = 0; k < n; k++) {
            l.acquire(g);
            times[k] = g.scheduledNanos() - T0;
        }
        return times;
    }

    static ActivityConfig poisson(Shard shard, long seed) {
        return new ActivityConfig(OpSpec.parse("noop"), 1, false, RateSpec.of(200), null, 0, 0, Arrivals.POISSON, seed,
                shard, null, LimiterDesign.ATOMIC);
    }

    @Test
    void poissonShardsGivenOneSeedDrawIndependentStreams() {
        long globalSlice = 5_000_000; // 200/s
        long[] s0 = poissonSchedule(poisson(new Shard(0, 2), 42), 600);
        long[] s1 = poissonSchedule(poisson(new Shard(1, 2), 42), 600);
        TreeSet<Long> first = new TreeSet<>();
        for (long t : s0) {
            first.add(t);
        }
        int coincidences = 0;
        for (long t : s1) {
            Long near = first.ceiling(t - globalSlice - 1_000);
            if (near != null && near <= t - globalSlice + 1_000) {
                coincidences++;
            }
        }
        // independent streams at 100/s each: a shard-1 arrival within 1 us of one global slice after a shard-0 arrival
        // has probability about 2e-4, so 600 arrivals expect 0.12 such coincidences; copies coincide every time
        assertTrue(coincidences <= 3,
                coincidences + " of 600 shard-1 arrivals lie one global slice after a shard-0 one");
        assertArrayEquals(s1, poissonSchedule(poisson(new Shard(1, 2), 42), 600), "the same seed and shard replay");
        assertEquals(Long.valueOf(42), poisson(new Shard(0, 2), 42).streamSeed(),
                "shard 0 draws the seed's own stream");
        assertEquals(null, new ActivityConfig(OpSpec.parse("noop"), 1, false, RateSpec.of(200), null, 0, 0,
                Arrivals.POISSON, null, new Shard(1, 2), null, LimiterDesign.ATOMIC).streamSeed(),
                "no seed: each process draws its own");
        assertTrue(!java.util.Arrays.equals(s1, poissonSchedule(poisson(new Shard(1, 2), 43), 600)),
                "another seed, another stream");
    }

    @Test
    void cyclesPartitionTheSameWayAndALimitIsSharedOut() {
        Shard s = new Shard(2, 4);
        assertEquals(2, s.cycle(0));
        assertEquals(6, s.cycle(1));
        assertEquals(2, s.cyclesOf(10), "of the cycles 0..9, shard 2/4 owns 2 and 6");
        long total = 0;
        for (int i = 0; i < 4; i++) {
            total += new Shard(i, 4).cyclesOf(10);
        }
        assertEquals(10, total, "the shards' limits add up to the global one");
    }

    @Test
    void aTestOfFewerCyclesThanShardsRunsExactlyThemAShardWithNoneRunsNone() throws Exception {
        java.util.Set<Long> ran = java.util.concurrent.ConcurrentHashMap.newKeySet();
        long ops = 0;
        for (int i = 0; i < 8; i++) {
            ops += dev.pacer.engine.LoadTest.unpaced().shard(new Shard(i, 8)).cycles(2).op(cycle -> {
                ran.add(cycle);
                return null;
            }).run().summary().ops();
        }
        assertEquals(2, ops, "the test's --cycles 2, not one op per shard");
        assertEquals(java.util.Set.of(0L, 1L), ran);
    }

    @Test
    void aRateWhoseShareIsBelowTheLeastIsRefusedNamingTheRateGiven() {
        SettingException e = assertThrows(SettingException.class, () -> dev.pacer.engine.LoadTest.rate(0.000001)
                .shard(new Shard(7, 8)).duration(Duration.ofSeconds(1)).op(cycle -> null).start());
        assertEquals("rate", e.setting());
        assertEquals("invalid rate '0.000001': as shard 7/8 this process runs 1/8 of it: invalid rate 0.000000125: "
                + "below the minimum of 0.000001 ops/s", e.getMessage());
    }

    @Test
    void theIndexComesFromTheFlagOrFromAnIndexedJob() {
        assertEquals(new Shard(3, 8), Shard.parse("3/8", null));
        assertEquals(new Shard(2, 4), Shard.parse("/4", "2"));
        SettingException e = assertThrows(SettingException.class, () -> Shard.parse("/4", null));
        assertTrue(e.getMessage().contains("JOB_COMPLETION_INDEX"), e.getMessage());
        assertThrows(SettingException.class, () -> Shard.parse("4/4", null));
        assertThrows(SettingException.class, () -> Shard.parse("a/4", null));
        assertThrows(SettingException.class, () -> Shard.parse("\u0660/\u0662", null), "ASCII digits only");
        assertThrows(SettingException.class, () -> Shard.parse("0/\uff12", null), "ASCII digits only");
        assertThrows(SettingException.class, () -> Shard.parse("3", null));
        assertEquals("invalid shard '/': gives neither I nor N: expected I/N (e.g. 3/8), or /N inside an Indexed Job"
                + " (I from JOB_COMPLETION_INDEX)", assertThrows(SettingException.class, () -> Shard.parse("/",
                        "1")).getMessage());
        assertTrue(assertThrows(SettingException.class, () -> Shard.parse("2/", null)).getMessage().contains("gives no "
                + "N"));
    }

    @Test
    void aBadIndexFromTheIndexedJobIsNamedWithItsValue() {
        for (String bad : new String[] {"x", "2.0", "-1", "+1", "4", "5", "99999999999"}) {
            SettingException e = assertThrows(SettingException.class, () -> Shard.parse("/4", bad), bad);
            assertEquals("JOB_COMPLETION_INDEX", e.setting());
            assertEquals("invalid JOB_COMPLETION_INDEX '" + bad + "': expected a whole number from 0 to 3"
                    + " (this shard's index, for shard /4)", e.getMessage());
        }
        SettingException empty = assertThrows(SettingException.class, () -> Shard.parse("/4", ""));
        assertEquals("invalid JOB_COMPLETION_INDEX '': is empty; expected a whole number from 0 to 3"
                + " (this shard's index, for shard /4)", empty.getMessage());
        assertTrue(assertThrows(SettingException.class, () -> Shard.parse("/4", null)).getMessage().contains("not "
                + "set"));
        assertEquals(new Shard(3, 4), Shard.parse("/4", " 3 "));
        assertTrue(assertThrows(SettingException.class, () -> Shard.parse("/0", "0")).getMessage().contains("shards"));
    }
}
