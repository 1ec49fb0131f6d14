package dev.pacer.engine.scenario;

import dev.pacer.engine.ManualClock;
import dev.pacer.engine.LoadTest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.sink.SummaryText;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where a scenario's phase begins in the reports: at its boundary, in one cut with an interval ending there.
 * On the manual clock: every cut is where it belongs, exactly.
 */
@Timeout(60)
class ScenarioPhaseBoundaryTest {

    @Test
    void aPhaseThatEndsWithAnIntervalIsCutOnceAndMarkedAtThatCut() throws Exception {
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        LoadTest.Result r = ManualClock.play(new ManualRunClock(), LoadTest.scenario(ScenarioParser.parse("""
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
                """, "warm-then-measure.yaml")).interval(Duration.ofMillis(300)).onInterval(intervals::add));
        List<IntervalReport> timed = intervals.stream().filter(i -> !i.drain()).toList();
        // a tick and the phase's boundary at 0.6 s are one cut: no sliver of an interval after it
        assertEquals(List.of(0.3, 0.6, 0.9, 1.2), timed.stream().map(IntervalReport::elapsedSec).toList());
        assertEquals(List.of("warm", "warm", "measure", "measure"), timed.stream().map(IntervalReport::phase).toList());
        // 1 000/s then 2 000/s, each slot in the interval it was scheduled in; the slot at 0.601 s that the old
        // slice had given a waiting worker is taken back by the rate increase, so the new phase is 0.5 ms apart
        // from its first slot: exactly its rate times its length
        assertEquals(List.of(300L, 300L, 600L, 600L), timed.stream().map(i -> i.stats().ops()).toList());
        Change measure = r.summary().changes().stream().filter(c -> c.kind() == ChangeKind.PHASE
                && c.value().equals("measure"))
                .findFirst().orElseThrow();
        assertEquals(0.6, measure.elapsedSec(), 1e-9, "the phase's marker is the bound of its first interval");
        assertEquals(1_200, r.summary().ops(), "the run's ops are the measured phase's, warm-up left out");
    }

    @Test
    void theSummarysHeaderSaysHowLongTheWarmUpLeftOutWasAndARunCutInItSaysSo() throws Exception {
        String scenario = """
                name: warm-then-measure
                op: noop
                phases:
                  - name: warm
                    duration: 2s
                    rate: 1000
                    warmup: true
                  - name: measure
                    duration: 3s
                    rate: 2000
                """;
        String whole = SummaryText.format(ManualClock.play(new ManualRunClock(), LoadTest.scenario(
                ScenarioParser.parse(scenario, "s.yaml"))).summary());
        String header = whole.lines().findFirst().orElseThrow();
        assertEquals("pacer: noop, 1 thread, 3.00s measured after 2.00s of warm-up, stopped by duration", header);

        String cut = SummaryText.format(ManualClock.play(new ManualRunClock(), LoadTest.scenario(
                ScenarioParser.parse(scenario, "s.yaml")).duration(Duration.ofSeconds(1))).summary());
        assertTrue(cut.contains("measured after 1.00s of warm-up") && cut.contains("(stopped in its warm-up)"), cut);
    }
}
