package dev.pacer.engine.hlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.ManualRunClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
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

    /** Two named ops by cycle, 3:1; every fourth cycle (the checkout) is refused. */
    static final class TwoOps implements Op, OpMix {
        static final Outcome REFUSED = Outcome.of("refused", true);

        @Override
        public List<String> opNames() {
            return List.of("browse", "check-out.v2");
        }

        @Override
        public int opOf(long cycle) {
            return cycle % 4 == 3 ? 1 : 0;
        }

        @Override
        public Outcome run(long cycle) {
            return opOf(cycle) == 1 ? REFUSED : null;
        }
    }

    @Test
    void aMixsLogHasEachOpsTaggedHistogramsAndCountsThatAddUpAndHdrHistogramReadsIt(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("mix.hlog");
        ManualRunClock clock = new ManualRunClock(WALL);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        LoadTest.Running running = LoadTest.rate(100).threads(1).op(new TwoOps()).duration(Duration.ofSeconds(2))
                .interval(Duration.ofSeconds(1)).hlog(file).output(sink, sink).clock(clock).start();
        CompletableFuture<Void> ended = new CompletableFuture<>();
        running.onEnd(() -> ended.complete(null));
        clock.runUntil(ended::isDone);
        assertEquals(200, running.await().summary().ops());

        List<TaggedInterval> intervals = new ArrayList<>();
        HlogFile log = HlogReader.read(file, intervals::add);
        assertTrue(log.warnings().isEmpty(), log.warnings().toString());
        assertEquals(List.of("wait", "service", "response", "wait.browse", "service.browse", "response.browse",
                "wait.check-out.v2", "service.check-out.v2", "response.check-out.v2"),
                intervals.subList(0, 9).stream().map(TaggedInterval::tag).toList());
        assertEquals(18, log.intervals(), "two intervals of nine histograms");
        List<IntervalNote> notes = log.notes();
        assertEquals(2, notes.size());
        for (int i = 0; i < 2; i++) {
            IntervalNote n = notes.get(i);
            assertEquals(List.of("browse", "check-out.v2"), List.copyOf(n.perOp().keySet()));
            assertEquals(75, n.perOp().get("browse").ops());
            assertEquals(25, n.perOp().get("check-out.v2").ops());
            assertEquals(Map.of(), n.perOp().get("browse").errors());
            assertEquals(Map.of("refused", 25L), n.perOp().get("check-out.v2").errors());
            assertEquals(n.ops(), n.perOp().values().stream().mapToLong(IntervalNote.OpCounts::ops).sum());
            assertEquals(n.perOp().get("browse").ops(), intervals.get(9 * i + 5).histogram().getTotalCount(),
                    "the op's response histogram holds its ops");
            assertEquals(n.ops(), intervals.get(9 * i + 2).histogram().getTotalCount());
        }

        // HdrHistogram's own reader reads every histogram of the file, with its tag
        List<String> tags = new ArrayList<>();
        long counted = 0;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            HistogramLogReader reader = new HistogramLogReader(in);
            for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                tags.add(h.getTag());
                counted += h.getTag().startsWith("response.") ? ((Histogram) h).getTotalCount() : 0;
            }
        }
        assertEquals(18, tags.size());
        assertEquals("response.check-out.v2", tags.get(17));
        assertEquals(200, counted, "the ops' response histograms add up to the run's");
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
        Map<String, IntervalNote.OpCounts> perOp = new java.util.LinkedHashMap<>();
        perOp.put("zeta", new IntervalNote.OpCounts(40, Map.of("timeout", 3L)));
        perOp.put("alpha", new IntervalNote.OpCounts(2, Map.of()));
        IntervalNote mixed = new IntervalNote(1.0, 2.0, 99.5, 42, Map.of("timeout", 3L), null, false, false, perOp);
        IntervalNote mixedBack = HlogComments.parseInterval("#" + HlogComments.interval(mixed));
        assertEquals(mixed, mixedBack);
        assertEquals(List.of("zeta", "alpha"), List.copyOf(mixedBack.perOp().keySet()), "in the ops' order");
        assertTrue(HlogComments.parseInterval("#" + HlogComments.interval(note)).perOp().isEmpty(),
                "a plain op's note has no ops");
        assertEquals(Map.of("rate", "100"), HlogComments.parseRun("#" + HlogComments.run(Map.of("rate", "100"))));
    }
}
