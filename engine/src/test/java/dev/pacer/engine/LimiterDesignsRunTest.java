package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.event.Change;
import dev.pacer.engine.event.ChangeKind;
import dev.pacer.engine.text.SettingException;
import dev.pacer.ratelimit.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.RateSpec;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Every limiter design paces a real run: 2 000 ops/s of noop for 3 s, within ±5 %. */
class LimiterDesignsRunTest {

    /**
     * Designs that start with a full bucket let its size through at once; here they are sized to a hundredth
     * of a second so that what is measured is the rate they refill at (a full second's bucket would add a
     * third to a 3 s run, which is the design working, not the rate).
     */
    static final Map<String, String> SMALL_BURST = Map.of("tokenpool", "tokenpool:pool=10ms", "bucket", "bucket:size=20",
            "bandwidths", "bandwidths:capacity=20");

    static Stream<String> designs() {
        return LimiterDesign.NAMES.stream().map(n -> SMALL_BURST.getOrDefault(n, n));
    }

    @ParameterizedTest
    @MethodSource("designs")
    void twoThousandOpsPerSecondForThreeSecondsWithinFivePercent(String design) throws Exception {
        LoadTest.Result r = PoissonRunTest.quiet(LoadTest.rate("2000").limiter(LimiterDesign.parse(design)).threads(2)
                .op("noop").duration(Duration.ofSeconds(3))).run();
        long ops = r.summary().ops();
        assertEquals(6_000, ops, 300, design + ": " + ops + " ops in 3 s at 2 000/s");
        long permits = r.summary().limiter().permitsGranted();
        // a worker whose permit falls at or after the end does not run it: at most one per thread is left over
        assertTrue(permits >= ops && permits <= ops + 2, design + ": " + permits + " permits for " + ops + " ops");
    }

    @ParameterizedTest
    @MethodSource("designs")
    void aLiveRateChangeIsRecordedWithWhatTheDesignResets(String design) throws Exception {
        LimiterDesign d = LimiterDesign.parse(design);
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate("500").limiter(d)
                .op("noop").duration(Duration.ofMillis(600))).start();
        running.rate("1000");
        LoadTest.Result r = running.await();
        Change change = r.summary().changes().stream().filter(c -> c.kind() == ChangeKind.RATE).reduce((x, y) -> y)
                .orElseThrow();
        assertEquals("1000,0", change.value());
        String note = RateLimiters.builder(RateSpec.of(1)).design(d).build().rateChangeNote();
        assertEquals(note, change.note(), design);
        assertEquals(1000, r.summary().limiter().spec().opsPerSecond());
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
