package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a run or a report writes at its end is written, or said not to be: after the op used every file descriptor,
 * after a SIGHUP, and when the page cannot be written (no half page is left).
 */
@Timeout(180)
class RunEndsWritingItsFilesTest {

    @TempDir
    Path dir;

    /** Runs a command under {@code bash} with a limit set first ({@code ulimit -n 256}). */
    static List<String> limited(String ulimit) {
        return List.of("bash", "-c", "ulimit " + ulimit + " && exec \"$@\"", "pacer");
    }

    @Test
    void aRunWhoseOpHeldEveryDescriptorStillWritesItsSummaryAndPlot() throws Exception {
        PacerProcess.Result r = PacerProcess.start(dir, limited("-n 256"), List.of("-Xmx256m"), "run",
                "--op", "descriptor-hog", "--rate", "200", "--duration", "1s", "--hlog", "h.hlog", "--summary",
                        "s.json",
                "--plot", "p.html", "-q").await(60);
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode s = ControlEndToEndTest.JSON.readTree(dir.resolve("s.json").toFile());
        assertTrue(s.get("ops").asLong() >= 150, s.toString());
        assertTrue(Files.readString(dir.resolve("p.html")).contains("id=\"pacer-data\""), "the page is written");
    }

    @Test
    void filesNamedAsStandardStreamsShareThemWithoutOverwriting() throws Exception {
        // the process's stdout and stderr are files here (what `> out 2> err` makes): opened again by name, each would
        // write from its own offset over what the process wrote through its descriptor
        PacerProcess.Result json = PacerProcess.run(dir, 60, "run", "--op", "noop", "--rate", "200", "--duration",
                "500ms", "--summary", "/dev/stdout", "-q");
        assertEquals(0, json.exitCode(), json.stderr());
        assertEquals(100, ControlEndToEndTest.JSON.readTree(json.stdout()).get("ops").asLong(), json.stdout());
        assertTrue(json.stderr().contains("achieved 200.0 ops/s"), "the summary's text on stderr: " + json.stderr());
        PacerProcess.Result csv = PacerProcess.run(dir, 60, "run", "--op", "noop", "--rate", "200", "--duration",
                "1s", "--interval", "250ms", "--csv", "/dev/stdout", "--hlog", "/dev/stderr", "-q");
        assertEquals(0, csv.exitCode(), csv.stderr());
        List<String> rows = csv.stdout().strip().lines().toList();
        // a header and a row per interval (four, or more should a late cut split one), and nothing else
        assertTrue(rows.get(0).startsWith("start_s,end_s,") && rows.size() >= 5, csv.stdout());
        assertTrue(rows.stream().skip(1).allMatch(r -> r.matches("[0-9.]+,[0-9.]+,.*")), csv.stdout());
        assertTrue(csv.stderr().contains("#[Histogram log format version"), csv.stderr());
        PacerProcess.Result both = PacerProcess.run(dir, 60, "run", "--op", "noop", "--rate", "200", "--duration",
                "500ms", "--csv", "/dev/stdout", "--summary", "/dev/stdout", "-q");
        assertEquals(0, both.exitCode(), "two outputs may share a stream: " + both.stderr());
        assertTrue(both.stdout().startsWith("start_s,end_s,"), both.stdout());
        assertTrue(both.stdout().contains("\"ops\" : 100"), "the summary after the rows: " + both.stdout());
    }

    @Test
    void sighupEndsTheRunWithItsSummaryAndItsLastInterval() throws Exception {
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "1000", "--duration", "60s", "--interval", "200ms",
                "--hlog", "hup.hlog", "--summary", "hup.json", "-q", "--no-console");
        Path hlog = dir.resolve("hup.hlog");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline
                && (!Files.exists(hlog) || RunCommandEndToEndTest.hlogCounts(hlog).getOrDefault("response",
                        0L) < 1000)) {
            Thread.sleep(100);
        }
        p.signal("HUP");
        PacerProcess.Result r = p.await(30);
        assertEquals(129, r.exitCode(), "128 + SIGHUP; stderr: " + r.stderr());
        JsonNode s = ControlEndToEndTest.JSON.readTree(dir.resolve("hup.json").toFile());
        assertEquals("signal", s.get("stopReason").asText());
        assertEquals("SIGHUP", s.get("stoppedBy").asText());
        long ops = s.get("ops").asLong();
        assertEquals(ops, RunCommandEndToEndTest.hlogCounts(hlog).get("response"), "the last interval made it into the "
                + "log");
        assertTrue(r.stdout().contains("stopped by SIGHUP"), r.stdout());
    }

    @Test
    void aRunsPlotWhoseFolderWasRemovedFailsTheRunWithOneLine() throws Exception {
        Path pages = Files.createDirectory(dir.resolve("pages"));
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "100", "--duration", "3s", "--hlog", "r.hlog",
                "--plot", "pages/r.html", "-q", "--no-console");
        long deadline = System.nanoTime() + 30_000_000_000L;
        // the run has started when its log holds an interval (the log itself is opened before --plot is checked)
        while (System.nanoTime() < deadline && !hasAnInterval(dir.resolve("r.hlog"))) {
            Thread.sleep(20);
        }
        Files.delete(pages);
        PacerProcess.Result r = p.await(60);
        assertEquals(1, r.exitCode(), r.stderr());
        String err = r.stderr().strip();
        assertEquals("pacer: could not write pages/r.html: no such file or folder", err);
    }

    @Test
    void aReportPageThatCannotBeWrittenWholeLeavesTheOldPageAndExitsOne() throws Exception {
        ReportEndToEndTest.writeLog(dir.resolve("big.hlog"), 60, 1000);
        Path page = Files.writeString(dir.resolve("p.html"), "the page from before");
        // a file size limit of 4 KiB: the page (its script alone is larger) is cut short, as on a full disk
        PacerProcess.Result r = PacerProcess.start(dir, limited("-f 4"), List.of("-Xmx256m", "-XX:-UsePerfData"),
                "report", "big.hlog", "--plot", "p.html").await(60);
        assertEquals(1, r.exitCode(), r.stderr());
        assertEquals("pacer report: could not write p.html: File too large", r.stderr().strip());
        assertEquals("the page from before", Files.readString(page), "no half page over it");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(f -> f.getFileName().toString().endsWith(".tmp")).toList(),
                    "no temp file left");
        }
        PacerProcess.Result full = PacerProcess.run(dir, 60, "report", "big.hlog", "--plot", "/dev/full");
        assertEquals(1, full.exitCode(), full.stderr());
        assertEquals("pacer report: could not write /dev/full: No space left on device", full.stderr().strip());
        assertFalse(full.stdout().isEmpty(), "the report itself is printed");
    }

    @Test
    void aSummaryThatCannotBeWrittenIsSaidInOneLineFailsTheRunAndTheRunsPageIsStillMade() throws Exception {
        if (!Files.isWritable(Path.of("/dev/full"))) {
            return; // not Linux: no device that fails every write
        }
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "200", "--duration", "500ms",
                "--engine-warm-up", "0", "-q", "--summary", "/dev/full", "--hlog", "run.hlog", "--plot", "run.html");
        assertEquals(1, r.exitCode(), r.stderr());
        assertEquals("pacer: cannot write the summary to /dev/full: No space left on device", r.stderr().strip());
        assertTrue(Files.readString(dir.resolve("run.html")).contains("<html"), "the page after the summary");
    }

    private static boolean hasAnInterval(Path hlog) throws IOException {
        return Files.exists(hlog)
                && Files.readString(hlog, java.nio.charset.StandardCharsets.ISO_8859_1).contains("Tag=");
    }
}
