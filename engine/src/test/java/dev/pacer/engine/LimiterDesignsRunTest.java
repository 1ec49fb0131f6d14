package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Every limiter design paces a run: 2 000 ops/s of noop for 3 s, within ±5 %. */
class LimiterDesignsRunTest {

    /**
     * Designs that start with a full bucket let its size through at once; here they are sized to a hundredth
     * of a second so that what is measured is the rate they refill at (a full second's bucket would add a
     * third to a 3 s run, which is the design working, not the rate).
     */
    static final Map<String, String> SMALL_BURST = Map.of("tokenpool", "tokenpool:pool=10ms", "bucket",
            "bucket:size=20",
            "bandwidths", "bandwidths:capacity=20");

    static Stream<String> designs() {
        return LimiterDesign.NAMES.stream().map(n -> SMALL_BURST.getOrDefault(n, n));
    }

    @ParameterizedTest
    @MethodSource("designs")
    void twoThousandOpsPerSecondForThreeSecondsWithinFivePercent(String design) throws Exception {
        // on the manual clock: what is measured is the design, not the machine's load (a loaded 2-core machine
        // cost the locking designs 5-10 % of a 3 s wall-clock run)
        LoadTest.Result r = ManualClock.play(new ManualRunClock(),
                LoadTest.rate("2000").limiter(LimiterDesign.parse(design))
                .threads(2).op("noop").duration(Duration.ofSeconds(3)));
        long ops = r.summary().ops();
        assertEquals(6_000, ops, 300, design + ": " + ops + " ops in 3 s at 2 000/s");
        long permits = r.summary().limiter().permitsGranted();
        // a worker whose permit falls at or after the end does not run it: at most one per thread is left over
        assertTrue(permits >= ops && permits <= ops + 2, design + ": " + permits + " permits for " + ops + " ops");
    }

    @ParameterizedTest
    @MethodSource("designs")
    void aLiveRateChangeIsRecordedWithWhatItReset(String design) throws Exception {
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate("2000").limiter(LimiterDesign.parse(design))
                .op("noop").interval(Duration.ofMillis(20)).duration(Duration.ofSeconds(30))).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (running.status().path("ops").asLong() < 20 && System.nanoTime() < deadline) {
            Thread.sleep(5); // until some ops have started: a sliding log then holds more than a lower limit keeps
        }
        assertTrue(running.status().path("ops").asLong() >= 20, design + ": ops started");
        Change lower = running.rate("1");
        Change raise = running.rate("1000");
        running.stop();
        LoadTest.Result r = running.await();
        boolean dropsEntries = design.startsWith("sliding-log");
        assertEquals(dropsEntries ? "a lower limit keeps only the newest start times it holds" : "", lower.note(),
                design);
        assertEquals("", raise.note(), design + ": a raise resets nothing");
        assertEquals(List.of("1,0", "1000,0"), r.summary().changes().stream().filter(c -> c.kind() == ChangeKind.RATE)
                .map(Change::value).toList());
        assertEquals(1000, r.summary().limiter().spec().opsPerSecond());
    }

    @Test
    void aLiveChangeToARateAWindowCannotHoldSaysSo() throws Exception {
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate("100")
                .limiter(LimiterDesign.parse("fixed-window"))
                .op("noop").duration(Duration.ofSeconds(30))).start();
        Change change = running.rate("0.5");
        running.stop();
        running.await();
        assertEquals("fixed-window lets 1 per 1s window where 0.5 ops/s is 0.5: 200 % of the rate; window=2s holds it"
                + " (1 per window)", change.note());
    }

    @Test
    void settingsOnlyTheAtomicLimiterHasAreRefusedByName() {
        SettingException s = assertThrows(SettingException.class, () -> LoadTest.rate("1000,0.5")
                .limiter(LimiterDesign.parse("leaky")).op("noop").duration(Duration.ofSeconds(1)).start());
        assertTrue(s.getMessage().contains("strictness") && s.getMessage().contains("leaky"), s.getMessage());
        SettingException a = assertThrows(SettingException.class, () -> LoadTest.rate("1000").arrivals(Arrivals.POISSON)
                .limiter(LimiterDesign.parse("leaky")).op("noop").duration(Duration.ofSeconds(1)).start());
        assertTrue(a.getMessage().contains("poisson") && a.getMessage().contains("atomic"), a.getMessage());
    }
}
