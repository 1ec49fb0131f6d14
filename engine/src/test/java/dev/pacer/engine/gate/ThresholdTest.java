package dev.pacer.engine.gate;

import dev.pacer.engine.api.Threshold;

import dev.pacer.engine.api.RunFigures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ThresholdTest {

    /** A run of 10 000 ops at 1990/s against 2000/s, 5 errors, response p99 = 15 ms. */
    static RunFigures summary() {
        Map<Metric, LatencySummary> lat = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            lat.put(m, new LatencySummary(10_000, 5e6, 1_000, 40_000_000,
                    Map.of("50", 4_000_000L, "75", 6_000_000L, "90", 9_000_000L, "99", 15_000_000L,
                            "99.9", 30_000_000L, "99.99", 39_000_000L)));
        }
        return new RunFigures(10_000, 5, 2000, 1990, 5.0, lat);
    }

    @Test
    void latencyGatesCompareInNanosecondsWithUnits() {
        assertTrue(Threshold.parse("response.p99<20ms").evaluate(summary()).passed());
        assertFalse(Threshold.parse("response.p99<15ms").evaluate(summary()).passed());
        assertTrue(Threshold.parse("response.p99<=15ms").evaluate(summary()).passed());
        assertTrue(Threshold.parse("wait.max < 1s").evaluate(summary()).passed());
        assertTrue(Threshold.parse("service.p99.9<31000us").evaluate(summary()).passed());
        assertTrue(Threshold.parse("service.p999<31ms").evaluate(summary()).passed());
        assertEquals("15.0ms", Threshold.parse("response.p99<20ms").evaluate(summary()).actual());
    }

    @Test
    void aLatencyGateOnNoOpMeasuredFailsRatherThanReadingZero() {
        Map<Metric, LatencySummary> none = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) { // as an empty histogram sums up: every figure 0
            none.put(m, new LatencySummary(0, 0, 0, 0, Map.of("50", 0L, "99", 0L)));
        }
        RunFigures noOps = new RunFigures(0, 0, 100, 0, 1.0, none); // a scenario all warm-up, a run stopped at once
        for (String gate : new String[] {"response.p99<20ms", "wait.max<1s", "service.mean<1ms", "response.p99>0"}) {
            assertFalse(Threshold.parse(gate).evaluate(noOps).passed(), gate);
            assertEquals("no op measured", Threshold.parse(gate).evaluate(noOps).actual(), gate);
        }
    }

    @Test
    void rateGatesCompareWithAFactorOfTheTarget() {
        assertTrue(Threshold.parse("achieved>=0.99*target").evaluate(summary()).passed());
        assertFalse(Threshold.parse("achieved>=0.999*target").evaluate(summary()).passed());
        assertTrue(Threshold.parse("achieved>1000").evaluate(summary()).passed());
    }

    @Test
    void errorGatesTakeACountOrAPercentageOfOps() {
        assertTrue(Threshold.parse("errors<0.1%").evaluate(summary()).passed()); // 0.05 %
        assertFalse(Threshold.parse("errors<0.01%").evaluate(summary()).passed());
        assertFalse(Threshold.parse("errors<5").evaluate(summary()).passed());
        assertTrue(Threshold.parse("errors<=5").evaluate(summary()).passed());
        assertTrue(Threshold.parse("ops>=10000").evaluate(summary()).passed());
        assertTrue(Threshold.parse("ops>=10k").evaluate(summary()).passed());
        assertFalse(Threshold.parse("ops>=10.5k").evaluate(summary()).passed());
    }

    @ParameterizedTest
    @ValueSource(strings = {"response.p99<20", "response.p42<1ms", "latency.p99<1ms", "achieved=100", "errors<lots",
            "bogus>1", "", "achieved>=0.99*targets"})
    void badGatesAreRejectedWithTheirText(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Threshold.parse(text));
        assertTrue(e.getMessage().startsWith("invalid threshold '" + text + "'"), e.getMessage());
    }

    @Test
    void aNegativeOrEndlessValueIsSaidToBeSoNotNotANumber() {
        assertEquals("invalid threshold 'errors<-1%': '-1' must not be negative",
                assertThrows(IllegalArgumentException.class, () -> Threshold.parse("errors<-1%")).getMessage());
        assertEquals("invalid threshold 'ops>-5': '-5' must not be negative",
                assertThrows(IllegalArgumentException.class, () -> Threshold.parse("ops>-5")).getMessage());
        assertEquals("invalid threshold 'ops<1e999': '1e999' is too large",
                assertThrows(IllegalArgumentException.class, () -> Threshold.parse("ops<1e999")).getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "response.p99<-5ms|'-5ms' must not be negative",
            "response.p99<NaNms|'NaNms' is not a latency: not a finite number",
            "response.p99<20|'20' is not a latency: expected a number with a unit",
            "response.p99<1e300s|'1e300s' too long",
            "ops<lots|'lots' is not a number: expected a number such as 1000, 2.5k, 1.5M or 1e6",
            "response.p99<<20ms|one comparison between subject and value",
            "response.p99<20ms and errors<1%|one gate per threshold",
            "achieved>=-1*target|'-1*target' must not be negative",
            "errors<101%|'101%' is over 100 % of the ops",
            "wait.max<100000h|'100000h' too long",
            "respnse.p99<1ms|unknown subject 'respnse.p99' ((wait|service|response).(p50|p75|p90|p99|p99.9|p99.99|"
                    + "max|mean|min), or achieved, target, ops, errors)"})
    void aBadValueIsNamedForWhatIsWrongWithIt(String gate, String says) {
        String message = assertThrows(IllegalArgumentException.class, () -> Threshold.parse(gate)).getMessage();
        assertTrue(message.startsWith("invalid threshold '" + gate + "': ") && message.contains(says), message);
    }

    @Test
    void latenciesTakeMinutesAndHoursToo() {
        assertTrue(Threshold.parse("wait.max<1h").evaluate(summary()).passed());
        assertTrue(Threshold.parse("wait.max<2m").evaluate(summary()).passed());
    }
}
