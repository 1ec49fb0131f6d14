package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.Shard;
import dev.pacer.engine.scenario.ScenarioParser;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Time-driven run logic on the manual clock: pause and resume, ramps and steps, start-at, shards. */
@Timeout(60)
class RunClockTest {

    static final long MS = 1_000_000L;

    final ManualRunClock clock = new ManualRunClock(Instant.now());

    static List<Long> ops(List<IntervalReport> intervals) {
        return intervals.stream().filter(i -> !i.drain()).map(i -> i.stats().ops()).toList();
    }

    @Test
    void aPausedPacedRunGivesThePausedTimeAwayWithoutABurstAfterIt() throws Exception {
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate(100).op(cycle -> null)
                .duration(Duration.ofSeconds(3))
                .onInterval(intervals::add)).clock(clock).start();
        long t0 = clock.nanoTime();
        clock.advanceTo(t0 + 1_000 * MS);
        running.pause();
        clock.advance(1_000 * MS);
        running.resume();
        LoadTest.Result r = ManualClock.finish(clock, running);
        // 0 .. 1 s ran; the slot at 1.01 s was granted before the pause and kept its time; the schedule goes on
        // one second later (2.02 s): the paused second is given away, not worked off at resume
        assertEquals(List.of(100L, 2L, 98L), ops(intervals));
        assertEquals(200, r.summary().ops());
        assertEquals(0, r.histogram(Metric.WAIT).getMaxValue(), "no op was late: nothing owed was run as a burst");
        assertEquals(StopReason.DURATION, r.summary().stopReason());
    }

    @Test
    void aSecondPauseOrAResumeWhileRunningChangesNothingAndIsRecordedNowhere(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        java.nio.file.Path hlog = dir.resolve("run.hlog");
        List<dev.pacer.engine.api.Change> heard = new CopyOnWriteArrayList<>();
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate(100).op(cycle -> null)
                .duration(Duration.ofSeconds(3)).hlog(hlog).onChange(heard::add)).clock(clock).start();
        long t0 = clock.nanoTime();
        clock.advanceTo(t0 + 1_000 * MS);
        String notPaused = running.execute("resume");
        assertTrue(notPaused.startsWith("ok: ") && notPaused.endsWith("; nothing changed: not paused"), notPaused);
        String paused = running.execute("pause");
        assertTrue(paused.startsWith("ok: pause (") && !paused.contains("nothing changed"), paused);
        String again = running.execute("pause");
        assertTrue(again.startsWith("ok: ") && again.endsWith("; nothing changed: already paused"), again);
        assertEquals("nothing changed: already paused", running.pause().note());
        clock.advance(1_000 * MS);
        assertEquals("", running.resume().note());
        assertEquals("nothing changed: not paused", running.resume().note());
        LoadTest.Result r = ManualClock.finish(clock, running);
        List<dev.pacer.engine.api.ChangeKind> kinds = List.of(dev.pacer.engine.api.ChangeKind.PAUSE,
                dev.pacer.engine.api.ChangeKind.RESUME);
        assertEquals(kinds, r.summary().changes().stream().map(dev.pacer.engine.api.Change::kind)
                .filter(kinds::contains).toList(), "one pause and one resume in the summary");
        assertEquals(kinds, heard.stream().map(dev.pacer.engine.api.Change::kind).filter(kinds::contains).toList(),
                "and to the change listeners");
        assertEquals(kinds, dev.pacer.engine.hlog.HlogReader.read(hlog).markers().stream()
                .map(m -> m.kind()).filter(kinds::contains).toList(), "and in the log");
        assertEquals(200, r.summary().ops(), "the pause held for the second from the first pause");
    }

    @Test
    void aRampFollowsItsLineInEveryIntervalAndAStaircaseStepsOnTime() throws Exception {
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        LoadTest.Result r = ManualClock.play(clock, LoadTest.scenario(ScenarioParser.parse("""
                name: ramp-then-steps
                op: noop
                phases:
                  - name: ramp
                    duration: 2s
                    rate: {from: 100, to: 300}
                  - name: steps
                    duration: 2s
                    steps: {from: 100, to: 400, by: 100, every: 500ms}
                """, "ramp.yaml")).interval(Duration.ofMillis(500)).onInterval(intervals::add));
        List<Long> ops = ops(intervals);
        // the ramp's line at each interval's middle: 125, 175, 225, 275 ops/s over half a second
        long[] ramp = {63, 88, 113, 138};
        for (int i = 0; i < 4; i++) {
            assertEquals(ramp[i], ops.get(i), 1, "ramp interval " + i + ": " + ops);
        }
        // the staircase: 100, 200, 300, 400 ops/s, each for half a second; each change takes effect one old slice
        // after the slot granted before it, which moves an op or two across the step
        long[] steps = {50, 100, 150, 200};
        for (int i = 0; i < 4; i++) {
            assertEquals(steps[i], ops.get(4 + i), 2, "step " + i + ": " + ops);
        }
        assertEquals(8, ops.size(), ops.toString());
        assertEquals(StopReason.DURATION, r.summary().stopReason());
    }

    @Test
    void aStartInstantAheadIsWaitedForAndTheRunCountsFromIt() throws Exception {
        long t0 = clock.nanoTime();
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        LoadTest.Result r = ManualClock.play(clock, LoadTest.rate(10).op(cycle -> null).duration(Duration.ofSeconds(1))
                .startAt(clock.instant().plusSeconds(5)).onInterval(intervals::add));
        assertEquals(t0 + 5_000 * MS, intervals.get(0).stats().startNanos(), "the schedule starts at the instant");
        assertEquals(10, r.summary().ops());
        assertEquals(0, r.histogram(Metric.WAIT).getMaxValue());
        assertEquals(t0 + 6_000 * MS, clock.nanoTime(), "and ends its duration after it");
    }

    @Test
    void aLateStartCountsFromTheInstantAndItsFirstSlotsCatchUp() throws Exception {
        long t0 = clock.nanoTime();
        LoadTest.Result r = ManualClock.play(clock, LoadTest.rate(10).op(cycle -> null).duration(Duration.ofSeconds(1))
                .startAt(clock.instant().minusMillis(450)));
        assertEquals(10, r.summary().ops(), "the slots of the test's second, the 5 already due among them");
        assertEquals(450 * MS, r.histogram(Metric.WAIT).getMaxValue(), 450 * MS / 1000, "the first was 450 ms late");
        assertEquals(t0 + 550 * MS, clock.nanoTime(), "the test ends a second after its instant");
    }

    @Test
    void twoShardsOnOneInstantTakeTheGlobalSlotsBetweenThem() throws Exception {
        Instant at = clock.instant().plusSeconds(1);
        TreeSet<Long> all = new TreeSet<>();
        for (int i = 0; i < 2; i++) {
            ManualRunClock own = new ManualRunClock(clock.instant()); // each shard a process of its own
            long origin = own.nanoTime() + 1_000 * MS;
            ConcurrentSkipListSet<Long> starts = new ConcurrentSkipListSet<>();
            LoadTest.Result r = ManualClock.play(own, LoadTest.rate(100).threads(2).shard(new Shard(i, 2)).startAt(at)
                    .duration(Duration.ofSeconds(1)).op(cycle -> {
                        starts.add(own.nanoTime() - origin);
                        return null;
                    }));
            assertEquals(50, r.summary().ops(), "shard " + i + ": half the test's 100");
            for (long t : starts) {
                assertEquals(0, t % (10 * MS), "on the global 10 ms grid: " + t);
                assertEquals(i, t / (10 * MS) % 2, "shard " + i + " owns the global slots " + i + " mod 2");
                assertTrue(all.add(t), "no two shards share a slot: " + t);
            }
        }
        assertEquals(100, all.size());
        assertEquals(990 * MS, all.last(), "the shards' slots are the global schedule without a hole");
    }
}
