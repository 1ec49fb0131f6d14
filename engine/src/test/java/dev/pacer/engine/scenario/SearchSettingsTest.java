package dev.pacer.engine.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.ScenarioCatalog;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.ScenarioException;
import dev.pacer.engine.api.SettingException;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A knee search's settings are checked in the engine, whoever makes it: {@link ScenarioCatalog#search} names the
 * setting at fault, a scenario file its line, and a hold the reporting interval cannot judge is refused as the CLI's
 * {@code --hold} is.
 */
@Timeout(30)
class SearchSettingsTest {

    static final String SLO = "response.p99<20ms";
    static final Duration HOLD = Duration.ofSeconds(2);

    static Stream<Arguments> badSearches() {
        return Stream.of(
                Arguments.of(0.0, 1000.0, HOLD, SLO, "from", "invalid from '0': must be a rate from"),
                Arguments.of(-100.0, 1000.0, HOLD, SLO, "from", "invalid from '-100'"),
                Arguments.of(Double.NaN, 1000.0, HOLD, SLO, "from", "invalid from 'NaN'"),
                Arguments.of(Double.POSITIVE_INFINITY, 1000.0, HOLD, SLO, "from", "invalid from 'Infinity'"),
                Arguments.of(100.0, Double.POSITIVE_INFINITY, HOLD, SLO, "to",
                        "invalid to 'Infinity': must be at most 1000000000 ops/s"),
                Arguments.of(100.0, Double.NaN, HOLD, SLO, "to", "invalid to 'NaN'"),
                Arguments.of(100.0, 1000.0, null, SLO, "hold", "missing hold"),
                Arguments.of(100.0, 1000.0, Duration.ofSeconds(-1), SLO, "hold", "invalid hold '-1.00s'"),
                Arguments.of(100.0, 1000.0, Duration.ZERO, SLO, "hold", "invalid hold '0ns': must be greater than 0"),
                Arguments.of(100.0, 1000.0, HOLD, null, "slo", "missing slo"));
    }

    @ParameterizedTest
    @MethodSource("badSearches")
    void aBadSearchIsRefusedNamingItsSetting(double from, double to, Duration hold, String slo, String setting,
            String message) {
        SettingException e = assertThrows(SettingException.class,
                () -> ScenarioCatalog.search(slo, from, to, hold, 0.02));
        assertEquals(setting, e.setting(), e.getMessage());
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void aPrecisionOutOfRangeIsNamedAsItWasGiven() {
        for (String given : new String[] {"-1", "150%", "0", "0.0001"}) {
            SettingException e = assertThrows(SettingException.class,
                    () -> dev.pacer.engine.api.RatePlan.Search.parsePrecision(given));
            assertEquals("invalid precision '" + given + "': expected 0.1% to 50%", e.getMessage());
        }
        assertEquals(0.02, dev.pacer.engine.api.RatePlan.Search.parsePrecision("2%"), 1e-12);
        assertEquals(0.5, dev.pacer.engine.api.RatePlan.Search.parsePrecision("0.5"), 1e-12);
    }

    @Test
    void everySearchTheCatalogMakesLastsAPositiveBoundedTime() {
        Scenario s = ScenarioCatalog.search(SLO, 1e-6, 1e9, Duration.ofSeconds(10), 0.001);
        Duration d = s.phases().get(0).duration();
        assertTrue(d.compareTo(Duration.ZERO) > 0 && d.compareTo(Duration.ofDays(1)) < 0, d.toString());
    }

    @Test
    void aHoldTheIntervalCannotJudgeIsRefusedByTheApiNamingTheHold() {
        Scenario s = ScenarioCatalog.search(SLO, 100, 400, Duration.ofMillis(10), 0.05);
        LoadTest t = LoadTest.scenario(s).clock(new ManualRunClock()); // never driven: nothing may start
        SettingException e = assertThrows(SettingException.class, () -> t.start().stop());
        assertEquals("hold", e.setting());
        assertEquals("invalid hold '10.0ms': a probe is judged on the reporting intervals after its first fifth: give"
                + " at least 1.25 x the interval (1.25s)", e.getMessage());
        // at 1.25 x the interval what is left after the first fifth is one whole interval
        Scenario ok = ScenarioCatalog.search(SLO, 100, 400, Duration.ofMillis(1250), 0.05);
        ok.phases().forEach(p -> ((dev.pacer.engine.api.RatePlan.Search) p.rate())
                .checkInterval(Duration.ofSeconds(1)));
    }

    @Test
    void aHoldTheIntervalCannotJudgeIsRefusedAtTheFilesLine() {
        Scenario s = ScenarioParser.parse("""
                phases:
                  - name: warm
                    duration: 1s
                    rate: 100
                  - name: k
                    search: {from: 100, to: 400, slo: "response.p99<20ms", hold: 50ms}
                """, "hold.yaml");
        LoadTest t = LoadTest.scenario(s).clock(new ManualRunClock());
        ScenarioException e = assertThrows(ScenarioException.class, () -> t.start().stop());
        assertEquals("hold.yaml:5: phase 'k': invalid hold '50.0ms': a probe is judged on the reporting intervals"
                + " after its first fifth: give at least 1.25 x the interval (1.25s)", e.getMessage());

        Scenario settled = ScenarioParser.parse("""
                phases:
                  - name: k
                    search: {from: 100, to: 400, slo: "response.p99<20ms", hold: 2s, settle: 1500ms}
                """, "settle.yaml");
        e = assertThrows(ScenarioException.class, () -> LoadTest.scenario(settled).clock(new ManualRunClock())
                .start().stop());
        assertEquals("settle.yaml:2: phase 'k': invalid hold '2.00s': a probe is judged on the reporting intervals"
                + " after its settle, 1.50s: give at least that and one interval (2.50s)", e.getMessage());
    }
}
