package dev.pacer.engine.hlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.event.Change;
import dev.pacer.engine.event.ChangeKind;
import dev.pacer.engine.op.Outcome;
import dev.pacer.engine.time.ManualRunClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the .hlog writer writes, its reader reads back: intervals, their notes, changes and settings. */
@Timeout(60)
class HlogRoundTripTest {

    static final Instant WALL = Instant.parse("2026-11-25T12:00:00Z");

    @Test
    void aRunsLogReadsBackWithEveryIntervalNoteAndChangeWhereTheyHappened(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.hlog");
        ManualRunClock clock = new ManualRunClock(WALL);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        Outcome refused = Outcome.of("refused", true);
        LoadTest.Running running = LoadTest.rate(100).threads(2).op(cycle -> cycle % 10 == 3 ? refused : null)
                .duration(Duration.ofSeconds(3)).interval(Duration.ofSeconds(1)).hlog(file).output(sink, sink)
                .clock(clock).start();
        clock.advanceTo(clock.nanoTime() + 1_500_000_000L);
        running.rate("200");
        CompletableFuture<Void> ended = new CompletableFuture<>();
        running.onEnd(() -> ended.complete(null));
        clock.runUntil(ended::isDone);
        long ops = running.await().summary().ops();

        List<TaggedInterval> intervals = new ArrayList<>();
        HlogFile log = HlogReader.read(file, intervals::add);
        assertEquals(WALL.toEpochMilli() / 1e3, log.startSec(), 1e-9, "the log starts at the run's start");
        assertEquals("100", log.settings().get("rate").replaceFirst(",.*", ""), log.settings().toString());
        assertTrue(log.warnings().isEmpty(), log.warnings().toString());
        assertEquals(9, log.intervals(), "three intervals, a histogram per metric each");
        assertEquals(List.of("wait", "service", "response"),
                intervals.subList(0, 3).stream().map(TaggedInterval::tag).toList());

        List<IntervalNote> notes = log.notes();
        assertEquals(List.of(0.0, 1.0, 2.0), notes.stream().map(IntervalNote::start).toList());
        assertEquals(List.of(1.0, 2.0, 3.0), notes.stream().map(IntervalNote::end).toList());
        assertEquals(ops, notes.stream().mapToLong(IntervalNote::ops).sum(), "the notes add up to the run");
        assertEquals(100, notes.get(0).ops());
        assertEquals(Map.of("refused", 10L), notes.get(0).errors(), "cycles 3, 13, ..., 93");
        assertEquals(100.0, notes.get(0).target(), 1e-9);
        for (int i = 0; i < 3; i++) {
            TaggedInterval response = intervals.get(3 * i + 2);
            assertEquals(notes.get(i).ops(), response.histogram().getTotalCount(), "interval " + i + "'s histogram");
            assertEquals(log.startSec() + i, response.startSec(), 1e-3);
        }
        Marker rate = log.markers().stream().filter(m -> m.kind() == ChangeKind.RATE).findFirst().orElseThrow();
        assertEquals(log.startSec() + 1.5, rate.atSec(), 1e-6, "the change at 1.5 s");
        assertEquals("api", rate.source());
        assertTrue(rate.value().startsWith("200"), rate.value());
    }

    @Test
    void commentsKeepWhatTheyCarryWhateverItsCharacters() {
        String odd = "phase \"one\",\nwith, commas and \u00e9";
        Change c = new Change(0, 12.3456789, ChangeKind.PHASE, odd, "scenario", "a note");
        Marker m = HlogComments.parseChange("#" + HlogComments.change(c), 1_000.0);
        assertEquals(new Marker(1_012.345679, ChangeKind.PHASE, odd, "scenario"), m);
        IntervalNote note = new IntervalNote(1.0, 2.0, 99.5, 42, Map.of("timeout", 3L, "5xx", 1L), odd, true, false);
        assertEquals(note, HlogComments.parseInterval("#" + HlogComments.interval(note)));
        IntervalNote untargeted = new IntervalNote(0, 0.25, Double.NaN, 0, Map.of(), null, false, true);
        IntervalNote back = HlogComments.parseInterval("#" + HlogComments.interval(untargeted));
        assertTrue(Double.isNaN(back.target()), "no target is read back as none");
        assertNull(back.phase());
        assertEquals(untargeted.ops(), back.ops());
        assertTrue(back.drain());
        assertNull(HlogComments.parseInterval("#[pacer change] {}"), "another kind of line is not an interval");
        assertEquals(Map.of("rate", "100"), HlogComments.parseRun("#" + HlogComments.run(Map.of("rate", "100"))));
    }
}
