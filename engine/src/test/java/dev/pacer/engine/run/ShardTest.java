package dev.pacer.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.text.SettingException;
import dev.pacer.ratelimit.Grant;
import dev.pacer.ratelimit.ManualNanoClock;
import dev.pacer.ratelimit.ManualSleeper;
import dev.pacer.ratelimit.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.RateSpec;
import java.time.Duration;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Shards of one test on a synthetic clock: their slots are exactly the global slots, each once. */
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
                assertTrue(g.startNanos() >= g.scheduledNanos(), "no op before its slot (the origin ahead is waited for)");
            }
        }
        assertEquals(4_000, all.size());
        assertEquals(0, all.first());
        assertEquals(3_999L * 125_000, all.last(), "the shards' slots are the global schedule without a hole");
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
    void theIndexComesFromTheFlagOrFromAnIndexedJob() {
        assertEquals(new Shard(3, 8), Shard.parse("3/8", null));
        assertEquals(new Shard(2, 4), Shard.parse("/4", "2"));
        SettingException e = assertThrows(SettingException.class, () -> Shard.parse("/4", null));
        assertTrue(e.getMessage().contains("JOB_COMPLETION_INDEX"), e.getMessage());
        assertThrows(SettingException.class, () -> Shard.parse("4/4", null));
        assertThrows(SettingException.class, () -> Shard.parse("a/4", null));
        assertThrows(SettingException.class, () -> Shard.parse("3", null));
        assertEquals("invalid shard '/': gives neither I nor N: expected I/N (e.g. 3/8), or /N inside an Indexed Job"
                + " (I from JOB_COMPLETION_INDEX)", assertThrows(SettingException.class, () -> Shard.parse("/", "1")).getMessage());
        assertTrue(assertThrows(SettingException.class, () -> Shard.parse("2/", null)).getMessage().contains("gives no N"));
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
        assertTrue(assertThrows(SettingException.class, () -> Shard.parse("/4", null)).getMessage().contains("not set"));
        assertEquals(new Shard(3, 4), Shard.parse("/4", " 3 "));
        assertTrue(assertThrows(SettingException.class, () -> Shard.parse("/0", "0")).getMessage().contains("shards"));
    }
}
