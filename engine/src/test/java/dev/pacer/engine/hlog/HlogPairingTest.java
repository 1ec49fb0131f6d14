package dev.pacer.engine.hlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each interval's histograms and its note are read as a pair, so that ops (histograms) and errors (notes) count the
 * same intervals: logs written by a run, then damaged as a disk, an editor or {@code cat} would.
 */
@Timeout(60)
class HlogPairingTest {

    @TempDir
    Path dir;

    /**
     * A run's log: three one-second intervals of 100 ops; a tenth of the first two intervals' ops fail, all of the
     * third's (120 errors in 300 ops, 40 %).
     */
    static Path runLog(Path file) throws Exception {
        ManualRunClock clock = new ManualRunClock(HlogRoundTripTest.WALL);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        Outcome refused = Outcome.of("refused", true);
        LoadTest.Running running = LoadTest.rate(100).threads(1)
                .op(cycle -> cycle >= 200 || cycle % 10 == 3 ? refused : null).duration(Duration.ofSeconds(3))
                .interval(Duration.ofSeconds(1)).hlog(file).output(sink, sink).clock(clock).start();
        CompletableFuture<Void> ended = new CompletableFuture<>();
        running.onEnd(() -> ended.complete(null));
        clock.runUntil(ended::isDone);
        assertEquals(300, running.await().summary().ops());
        return file;
    }

    /** The 1-based numbers of the lines that start with {@code prefix}. */
    static List<Integer> linesStarting(List<String> lines, String prefix) {
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                numbers.add(i + 1);
            }
        }
        return numbers;
    }

    @Test
    void aGoodLogPairsEveryIntervalWithItsNote() throws Exception {
        HlogFile log = HlogReader.read(runLog(dir.resolve("good.hlog")));
        assertEquals(List.of(), log.warnings());
        assertEquals(9, log.intervals());
        assertEquals(3, log.notes().size());
        assertTrue(log.leftOut().isEmpty());
        assertEquals(120, log.notes().stream().mapToLong(IntervalNote::errorCount).sum());
    }

    @Test
    void anIntervalTheLogEndsInBeforeItsNoteIsNamedAndLeftOut() throws Exception {
        Path file = runLog(dir.resolve("x.hlog"));
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        int lastNote = linesStarting(lines, "#[pacer interval]").getLast();
        lines.remove(lastNote - 1);
        Files.write(file, lines);

        HlogFile log = HlogReader.read(file);
        int third = lastNote - 3; // its first histogram
        assertEquals(List.of(file + ":" + third + ": the log ends before the note of the interval at 2.000s-3.000s "
                + "(cut short?): the interval is left out"), log.warnings());
        assertEquals(6, log.intervals(), "the first two intervals count");
        assertEquals(1, log.leftOut().size());
        assertTrue(log.leftOut(HlogRoundTripTest.WALL.getEpochSecond() + 2.0,
                HlogRoundTripTest.WALL.getEpochSecond() + 3.0));
        assertEquals(2, log.notes().size());
    }

    @Test
    void aLogCutInItsLastNoteLeavesThatIntervalOut() throws Exception {
        Path file = runLog(dir.resolve("cut.hlog"));
        String text = Files.readString(file);
        int cut = text.lastIndexOf("#[pacer interval]") + 30; // as a full disk leaves it
        Files.write(file, text.substring(0, cut).getBytes(StandardCharsets.UTF_8));

        HlogFile log = HlogReader.read(file);
        long line = text.substring(0, cut).lines().count();
        assertEquals(1, log.warnings().size(), log.warnings().toString());
        assertTrue(log.warnings().getFirst().startsWith(file + ":" + line + ": unreadable pacer comment (broken JSON"),
                log.warnings().getFirst());
        assertEquals(6, log.intervals());
        assertEquals(1, log.leftOut().size(), "its histograms are not counted without its errors");
    }

    @Test
    void anIntervalWithoutItsNoteWhereTheLogGoesOnIsRefusedNamingItsLine() throws Exception {
        Path file = runLog(dir.resolve("mid.hlog"));
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        int first = linesStarting(lines, "#[pacer interval]").getFirst();
        lines.remove(first - 1);
        Files.write(file, lines);
        String message = assertThrows(IllegalArgumentException.class, () -> HlogReader.read(file)).getMessage();
        assertEquals(file + ":" + (first - 3) + ": the interval at 0.000s-1.000s has histograms but no '#[pacer "
                + "interval]' note after them, as every interval of a pacer log has (an edited or spliced log?)",
                message);
    }

    @Test
    void aNoteWithoutItsHistogramsIsRefusedNamingItsLine() throws Exception {
        Path file = runLog(dir.resolve("note.hlog"));
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        int second = linesStarting(lines, "#[pacer interval]").get(1);
        for (int k = 0; k < 3; k++) {
            lines.remove(second - 4); // the second interval's histograms
        }
        Files.write(file, lines);
        String message = assertThrows(IllegalArgumentException.class, () -> HlogReader.read(file)).getMessage();
        assertEquals(file + ":" + (second - 3) + ": a '#[pacer interval]' note for 1.000s-2.000s without that "
                + "interval's histograms before it", message);
    }

    @Test
    void twoLogsInOneFileAreRefusedWhereTheSecondStarts() throws Exception {
        Path a = runLog(dir.resolve("a.hlog"));
        List<String> lines = new ArrayList<>(Files.readAllLines(a));
        int length = lines.size();
        lines.addAll(Files.readAllLines(a)); // cat a.hlog a.hlog > c.hlog
        Path c = Files.write(dir.resolve("c.hlog"), lines);
        String message = assertThrows(IllegalArgumentException.class, () -> HlogReader.read(c)).getMessage();
        assertEquals(c + ":" + (length + 1) + ": a second log starts here (a second '#[pacer run]' line): report "
                + "each log from a file of its own", message);

        List<String> noRunLine = new ArrayList<>(lines);
        noRunLine.remove(length); // another tool's log after it: its header starts it
        Path d = Files.write(dir.resolve("d.hlog"), noRunLine);
        message = assertThrows(IllegalArgumentException.class, () -> HlogReader.read(d)).getMessage();
        assertTrue(message.startsWith(d + ":" + (length + 1) + ": a second log starts here (a second '#[Histogram"),
                message);
    }

    @Test
    void anIntervalWithAnUnreadableHistogramIsLeftOutWholeWithItsNote() throws Exception {
        Path file = runLog(dir.resolve("bad.hlog"));
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        int second = linesStarting(lines, "#[pacer interval]").get(1);
        lines.set(second - 2, lines.get(second - 2).replace("HIST", "JUNK")); // its response histogram
        Files.write(file, lines);
        HlogFile log = HlogReader.read(file);
        assertEquals(1, log.warnings().size(), log.warnings().toString());
        assertTrue(log.warnings().getFirst().startsWith(file + ":" + (second - 1) + ": unreadable interval"),
                log.warnings().getFirst());
        assertEquals(6, log.intervals());
        assertEquals(2, log.notes().size(), "its note is not counted either");
        assertEquals(List.of(0.0, 2.0), log.notes().stream().map(IntervalNote::start).toList());
    }
}
