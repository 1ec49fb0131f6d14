package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.event.Change;
import dev.pacer.engine.event.ChangeKind;
import dev.pacer.engine.result.IntervalReport;
import dev.pacer.engine.scenario.ScenarioParser;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Where a scenario's phase begins in the reports: at its boundary, in one cut with an interval ending there. */
class ScenarioPhaseBoundaryTest {

    @Test
    void aPhaseThatEndsWithAnIntervalIsCutOnceAndMarkedAtThatCut() throws Exception {
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        LoadTest.Result r = PoissonRunTest.quiet(LoadTest.scenario(ScenarioParser.parse("""
                name: warm-then-measure
                op: noop
                phases:
                  - name: warm
                    duration: 600ms
                    rate: 1000
                    warmup: true
                  - name: measure
                    duration: 600ms
                    rate: 2000
                """, "warm-then-measure.yaml")).interval(Duration.ofMillis(300)).onInterval(intervals::add)).run();
        List<IntervalReport> timed = intervals.stream().filter(i -> !i.drain()).toList();
        List<String> phases = timed.stream().map(IntervalReport::phase).toList();
        int firstMeasured = phases.indexOf("measure");
        assertTrue(firstMeasured > 0 && phases.subList(0, firstMeasured).stream().allMatch("warm"::equals)
                && phases.subList(firstMeasured, phases.size()).stream().allMatch("measure"::equals), phases.toString());
        IntervalReport lastWarm = timed.get(firstMeasured - 1);
        // the cut that ends the warm-up is the first at or after 0.6 s (a tick there, or the boundary itself): the
        // interval it ends began before 0.6 s; two cuts (a tick, then the phase's) left a warm sliver after 0.6 s
        assertTrue(lastWarm.elapsedSec() - lastWarm.stats().seconds() < 0.6, "no sliver of the warm-up after its boundary: "
                + (lastWarm.elapsedSec() - lastWarm.stats().seconds()) + " s to " + lastWarm.elapsedSec() + " s");
        Change measure = r.summary().changes().stream().filter(c -> c.kind() == ChangeKind.PHASE && c.value().equals("measure"))
                .findFirst().orElseThrow();
        assertEquals(lastWarm.elapsedSec(), measure.elapsedSec(), 1e-9, "the phase's marker is the bound of its first interval");
        assertTrue(measure.elapsedSec() >= 0.6, "not before its boundary: " + measure.elapsedSec());
        assertEquals(intervals.stream().filter(i -> !i.warmup()).mapToLong(i -> i.stats().ops()).sum(), r.summary().ops(),
                "the run's ops are the measured phase's, warm-up left out");
    }
}
