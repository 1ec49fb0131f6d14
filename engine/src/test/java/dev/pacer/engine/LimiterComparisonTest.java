package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.LimiterDesign;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The comparison tells designs apart on the stalling workload: the atomic limiter catches up in a burst, leaky does
 * not.
 */
class LimiterComparisonTest {

    @TempDir
    Path dir;

    @Test
    void afterAStallTheAtomicLimiterCatchesUpInABurstAndTheLeakyBucketForfeitsTheStall() throws Exception {
        LimiterComparison.Settings s = new LimiterComparison.Settings(1_000, 8, Duration.ofMillis(2_500),
                Duration.ofSeconds(1),
                Duration.ofMillis(200), Duration.ofMillis(100), List.of(LimiterDesign.ATOMIC,
                        LimiterDesign.parse("leaky")));
        List<LimiterComparison.Row> rows = LimiterComparison.run(s, dir, r -> { });
        LimiterComparison.Row atomic = rows.get(0);
        LimiterComparison.Row leaky = rows.get(1);
        // two stalls of 200 ms at 1 000/s hold back ~400 ops
        assertTrue(atomic.forfeited() <= 60, "strictness 0 catches the stalls up: " + atomic);
        assertTrue(atomic.burstPeak() >= 50, "...in a burst well over the 10 per 10 ms the rate spaces: " + atomic);
        assertTrue(leaky.forfeited() >= 250, "a leaky bucket stores no credit, so the stalls' ops are gone: " + leaky);
        // its spacing allows 10 per 10 ms; parks that overshoot on a loaded machine bunch a few more
        assertTrue(leaky.burstPeak() <= 25 && leaky.burstPeak() * 2 < atomic.burstPeak(), "and it never lets a burst "
                + "through: " + leaky);
        assertTrue(Files.size(atomic.hlog()) > 0 && Files.size(leaky.hlog()) > 0, "each run's log is kept");
        String table = LimiterComparison.table(s, rows);
        assertTrue(table.contains("atomic") && table.contains("leaky") && table.contains("peak/10ms"), table);
    }

    @Test
    void theBurstPeakIsTheMostStartsWithinAnyWindow() throws Exception {
        LimiterComparison.StallingOp op = new LimiterComparison.StallingOp(1_000, 0, 10,
                dev.pacer.engine.api.RunClock.system());
        Field starts = LimiterComparison.StallingOp.class.getDeclaredField("starts");
        starts.setAccessible(true);
        long[] t = (long[]) starts.get(op);
        long[] given = {0, 5, 9, 10, 11, 30, 31, 32, 33};
        System.arraycopy(given, 0, t, 0, given.length);
        Field count = LimiterComparison.StallingOp.class.getDeclaredField("count");
        count.setAccessible(true);
        ((java.util.concurrent.atomic.AtomicInteger) count.get(op)).set(given.length);
        assertEquals(4, op.burstPeak(10), "5, 9, 10, 11 lie within 10 of each other; 0..9 holds three");
        assertEquals(9, op.burstPeak(100));
        assertEquals(1, op.burstPeak(1));
    }

    @Test
    void twoVariantsOfOneDesignKeepTheirOwnLogs() throws Exception {
        LimiterComparison.Settings s = new LimiterComparison.Settings(200, 1, Duration.ofMillis(300),
                Duration.ofSeconds(1),
                Duration.ZERO, Duration.ofMillis(100), List.of(LimiterDesign.parse("leaky:queue=0"),
                LimiterDesign.parse("leaky:queue=100"), LimiterDesign.parse("bucket"), LimiterDesign.parse("leaky")));
        List<LimiterComparison.Row> rows = LimiterComparison.run(s, dir, r -> { });
        assertEquals(List.of("leaky.hlog", "leaky-2.hlog", "bucket.hlog", "leaky-3.hlog"),
                rows.stream().map(r -> r.hlog().getFileName().toString()).toList());
        assertEquals(List.of("leaky:queue=0", "leaky:queue=100", "bucket", "leaky"),
                rows.stream().map(LimiterComparison.Row::design).toList());
        assertTrue(Files.readString(rows.get(0).hlog()).contains("leaky:queue=0"), "the first log is the first run's");
        assertTrue(Files.readString(rows.get(1).hlog()).contains("leaky:queue=100"), "the second log is the second "
                + "run's");
    }

    @Test
    void everyDesignIsCheckedAtTheRateBeforeAnyRuns() {
        SettingException e = assertThrows(SettingException.class,
                () -> new LimiterComparison.Settings(2e6, 1, Duration.ofSeconds(1), Duration.ofSeconds(2),
                        Duration.ZERO,
                        Duration.ofMillis(100), List.of(LimiterDesign.ATOMIC, LimiterDesign.parse("warmup"))));
        assertEquals("warmup", e.value());
        assertTrue(e.reason().startsWith("at 2000000 ops/s: the warmup limiter counts time in whole ticks"),
                e.reason());
    }

    @Test
    void aStallAsLongAsItsPeriodIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LimiterComparison.Settings(100, 1, Duration.ofSeconds(1),
                Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1), List.of(LimiterDesign.ATOMIC)));
    }
}
