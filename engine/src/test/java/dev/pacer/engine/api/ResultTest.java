package dev.pacer.engine.api;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a run's results compute from their figures, and that what they hold cannot change under them. */
@Timeout(10)
class ResultTest {

    @Test
    void theErrorRatioIsErrorsOverOpsAndZeroWhenNothingRan() {
        assertEquals(0.25, new RunFigures(8, 2, 10, 8, 1, Map.of()).errorRatio());
        assertEquals(0.0, new RunFigures(0, 0, 10, 0, 1, Map.of()).errorRatio(), "no division by zero");
    }

    @Test
    void figuresAndAKneeKeepCopiesOfWhatTheyWereGiven() {
        Map<Metric, dev.pacer.engine.api.LatencySummary> latencies = new HashMap<>();
        RunFigures f = new RunFigures(1, 0, 1, 1, 1, latencies);
        latencies.put(Metric.WAIT, new dev.pacer.engine.api.LatencySummary(0, 0, 0, 0, Map.of()));
        assertEquals(Map.of(), f.latencies(), "a later change to the map is not seen");
        assertThrows(UnsupportedOperationException.class, () -> f.latencies().put(Metric.WAIT, null));
        List<Knee.Probe> probes = new ArrayList<>();
        Knee k = new Knee("response.p99<20ms", "none", Double.NaN, null, probes);
        probes.add(new Knee.Probe(100, 0, 1, false, "broke", f, 0, 1));
        assertEquals(List.of(), k.probes());
    }
}
