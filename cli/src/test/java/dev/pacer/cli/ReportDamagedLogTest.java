package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pacer report} on a run's log damaged as a full disk, an editor or {@code cat} would: ops and errors are
 * counted over the same intervals, or the log is refused naming its line; never a wrong error ratio with exit 0.
 */
@Timeout(120)
class ReportDamagedLogTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /**
     * A run's log: three one-second intervals of 100 ops; a tenth of the first two intervals' ops fail, all of the
     * third's: 120 errors in 300 ops, 40 %.
     */
    Path runLog(String name) throws Exception {
        Path file = dir.resolve(name);
        ManualRunClock clock = new ManualRunClock(Instant.parse("2026-11-25T12:00:00Z"));
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

    @Test
    void theWholeLogPassesItsGateOnlyWhereItShould() throws Exception {
        runLog("x.hlog");
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "x.hlog", "--json", "--threshold", "errors<35%");
        assertEquals(1, r.exitCode(), "40 % errors fail the gate: " + r.stderr());
        JsonNode json = JSON.readTree(r.stdout());
        assertEquals(300, json.get("ops").asLong());
        assertEquals(120, json.get("errors").get("total").asLong());
    }

    @Test
    void aLogWithoutItsLastNoteCountsOpsAndErrorsOverTheSameIntervalsAndExitsOne() throws Exception {
        Path file = runLog("x.hlog");
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        int lastNote = lines.size() - 1;
        while (!lines.get(lastNote).startsWith("#[pacer interval]")) {
            lastNote--;
        }
        lines.remove(lastNote);
        Files.write(file, lines);
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "x.hlog", "--json", "--threshold", "errors<35%");
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("x.hlog:" + (lastNote - 2) + ": the log ends before the note of the interval "
                + "at 2.000s-3.000s (cut short?): the interval is left out"), r.stderr());
        JsonNode json = JSON.readTree(r.stdout());
        assertEquals(200, json.get("ops").asLong(), "the first two intervals");
        assertEquals(20, json.get("errors").get("total").asLong(), "their errors: 10 %, not 20 in 300 ops");
        assertFalse(r.stderr().contains("Exception"), r.stderr());
    }

    @Test
    void aLogCutByAFullDiskCountsOpsAndErrorsOverTheSameIntervals() throws Exception {
        Path file = runLog("full.hlog");
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        String cut = text.substring(0, text.lastIndexOf("#[pacer interval]") + 40); // as a full disk leaves it
        Files.write(file, cut.getBytes(StandardCharsets.UTF_8));
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "full.hlog");
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("full.hlog:16: unreadable pacer comment"), r.stderr());
        assertTrue(r.stdout().matches("(?s).*ops +200 .*"), r.stdout());
        assertTrue(r.stdout().contains("errors     20 (refused 20)"), r.stdout());
    }

    @Test
    void twoLogsConcatenatedAreRefusedInOneLineNamingWhereTheSecondStarts() throws Exception {
        Path a = runLog("a.hlog");
        int length = Files.readAllLines(a).size();
        Files.writeString(dir.resolve("c.hlog"), Files.readString(a) + Files.readString(a)); // cat a.hlog a.hlog
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "c.hlog", "--threshold", "errors<35%");
        assertEquals(2, r.exitCode(), r.stderr());
        assertEquals("pacer: c.hlog:" + (length + 1) + ": a second log starts here (a second '#[pacer run]' line): "
                + "report each log from a file of its own", r.stderr().strip());
        assertEquals("", r.stdout());
    }

    @Test
    void anIntervalWithoutItsNoteInTheMiddleIsRefusedInOneLine() throws Exception {
        Path file = runLog("mid.hlog");
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        int note = lines.indexOf(lines.stream().filter(l -> l.startsWith("#[pacer interval]")).skip(1).findFirst()
                .orElseThrow());
        lines.remove(note);
        Files.write(file, lines);
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "mid.hlog");
        assertEquals(2, r.exitCode(), r.stderr());
        assertEquals("pacer: mid.hlog:" + (note - 2) + ": the interval at 1.000s-2.000s has histograms but no "
                + "'#[pacer interval]' note after them, as every interval of a pacer log has (an edited or spliced "
                + "log?)", r.stderr().strip());
    }

    @Test
    void impossibleValuesAreNamedInOneLineEachAndExitOneNeverAStackTrace() throws Exception {
        Path file = runLog("v.hlog");
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.set(10, lines.get(10).replace("Tag=response,1.000,", "Tag=response,NaN,"));
        lines.set(15, lines.get(15).replaceFirst("\"errors\":\\{[^}]*}", "\"errors\":{\"x\":1000}"));
        Files.write(file, lines);
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "v.hlog", "--json");
        assertEquals(1, r.exitCode(), r.stderr());
        assertEquals(List.of("pacer report: v.hlog:11: impossible interval histogram (starts at NaN s)",
                "pacer report: v.hlog:16: unreadable pacer comment (more errors than its 100 ops)",
                "pacer report: 2 unreadable lines skipped; everything readable is reported above"),
                r.stderr().lines().toList());
        JsonNode json = JSON.readTree(r.stdout());
        assertEquals(100, json.get("ops").asLong(), "the first interval only");
        assertEquals(10, json.get("errors").get("total").asLong());
    }

    @Test
    void whatALogSaysInWordsIsShownWithControlAndBidiCharactersEscaped() throws Exception {
        Path file = runLog("w.hlog");
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.set(0, lines.get(0).replaceFirst("\"op\":\"[^\"]*\"", "\"op\":\"a\\\\u0000b\\\\nc\\\\u202ed\""));
        lines.set(7, lines.get(7).replace("\"refused\"", "\"re\\u001b[2Jfused\\u2066\""));
        Files.write(file, lines);
        for (String format : List.of("text", "--csv")) {
            PacerProcess.Result r = format.equals("text") ? PacerProcess.run(dir, 30, "report", "w.hlog", "--intervals")
                    : PacerProcess.run(dir, 30, "report", "w.hlog", "--intervals", format);
            assertEquals(0, r.exitCode(), r.stderr());
            assertFalse(r.stdout().chars().anyMatch(c -> c < 0x20 && c != '\n' || c == 0x202e || c == 0x2066),
                    "no control or bidi character: " + r.stdout());
            if (format.equals("text")) {
                assertTrue(r.stdout().contains("  run        a\\u0000b\\nc\\u202ed, 1 thread"), r.stdout());
            }
            assertTrue(r.stdout().contains("re\\u001b[2Jfused\\u2066"), r.stdout());
        }
    }
}
