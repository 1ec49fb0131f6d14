package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.sink.IntervalCsv;
import dev.pacer.engine.api.SettingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java API as a user's test would call it. */
class LoadTestTest {

    @Test
    void aPacedRunWithAGatePassesAndHandsBackItsHistograms() throws Exception {
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        LoadTest.Result r = LoadTest.rate("2k").threads(2).op("sleep:100us").cycles(1_000)
                .interval(Duration.ofMillis(100)).threshold("achieved>=0.95*target").threshold("errors<1")
                .onInterval(intervals::add).run();
        assertTrue(r.passed(), r.failure());
        assertEquals(1_000, r.summary().ops());
        assertEquals(1_000, r.histogram(Metric.RESPONSE).getTotalCount());
        assertTrue(r.histogram(Metric.SERVICE).getValueAtPercentile(50) >= 100_000, "the op's 100 us are in it");
        assertEquals(1_000, intervals.stream().mapToLong(i -> i.stats().ops()).sum(), "the intervals add up to the "
                + "total");
        assertEquals(2, r.summary().thresholds().size());
    }

    @Test
    void theCsvHasARowPerIntervalThatAddsUpToTheSummary(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("run.csv");
        LoadTest.Result r = LoadTest.rate(5000).op(cycle -> null).cycles(2_000).interval(Duration.ofMillis(100))
                .csv(csv).run();
        List<String> lines = Files.readAllLines(csv);
        assertEquals(IntervalCsv.header(), lines.get(0));
        int columns = lines.get(0).split(",", -1).length;
        long ops = 0;
        for (String row : lines.subList(1, lines.size())) {
            String[] cells = row.split(",", -1);
            assertEquals(columns, cells.length, row);
            ops += Long.parseLong(cells[3]);
        }
        assertEquals(r.summary().ops(), ops, "the rows add up to the summary");
        assertTrue(lines.size() >= 4, "a row per 100 ms interval: " + lines.size());
        assertEquals("1.000,2.000,\"warm, then hot\",5,0,,,,,,,,,,,,", IntervalCsv.row(1, 2, "warm, then hot", 5, 0,
                m -> null));
    }

    @Test
    void aFailedGateFailsTheResultAndSaysWhich() throws Exception {
        LoadTest.Result r = LoadTest.unpaced().op(cycle -> null).cycles(100).threshold("ops>=1000").run();
        assertFalse(r.passed());
        assertEquals("1 threshold failed", r.failure());
        assertEquals("custom", r.summary().op());
    }

    @Test
    void aRunningTestIsChangedAndStoppedThroughItsHandle() throws Exception {
        LoadTest.Running running = LoadTest.rate(500).threads(2).op(cycle -> null).duration(Duration.ofSeconds(60))
                .interval(Duration.ofMillis(100)).start();
        assertEquals(ChangeKind.RATE, running.rate("1k,0.5").kind());
        assertEquals(ChangeKind.THREADS, running.threads(3).kind());
        assertEquals(3, running.status().get("threads").asInt());
        assertEquals(1000.0, running.status().get("targetRate").asDouble());
        running.stop();
        LoadTest.Result r = running.await(Duration.ofSeconds(30));
        assertEquals(StopReason.CONTROL, r.summary().stopReason());
        assertEquals("api", r.summary().stoppedBy());
        assertEquals(List.of("rate/api", "threads/api", "stop/api"),
                r.summary().changes().stream().map(c -> c.kind().label() + "/" + c.source()).toList());
    }

    @Test
    void aRateWithoutAStrictnessKeepsTheOneInForce() throws Exception {
        LoadTest.Running running = LoadTest.rate("500,0.5").op(cycle -> null).duration(Duration.ofSeconds(60)).start();
        try {
            assertEquals("800,0.5", running.rate("800").value());
            assertEquals("0.25", running.strictness(0.25).value());
            assertEquals("900,0.25", running.rate("900").value());
            assertEquals("1000,0", running.rate("1k,0").value(), "one given is set");
            assertEquals(0.0, running.status().get("strictness").asDouble());
        } finally {
            running.stop();
            running.await(Duration.ofSeconds(30));
        }
    }

    @Test
    void badSettingsAreRefusedBeforeAnythingRuns() {
        SettingException e = assertThrows(SettingException.class, () -> LoadTest.rate(100).threads(0).start());
        assertEquals("threads", e.setting());
        assertThrows(SettingException.class, () -> LoadTest.rate(100).threshold("latency<1ms"));
        assertThrows(SettingException.class, () -> LoadTest.rate(100).op("nope").start());
    }
}
