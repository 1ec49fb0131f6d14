package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacer report} on logs written by real runs. */
class ReportEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aLogThroughAPipeIsReportedWhole() throws Exception {
        Path log = dir.resolve("run.hlog");
        dev.pacer.engine.LoadTest.rate(2000).op(cycle -> null).cycles(500).hlog(log).run();
        Path fifo = dir.resolve("fifo"); // as zcat run.hlog.gz | pacer report /dev/stdin gives it
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        // a daemon: a reader that stops early leaves it blocked
        Thread writer = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                Files.write(fifo, Files.readAllBytes(log));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        PacerProcess.Result r = NewUserTest.pacer("report", fifo.toString(), "--json");
        writer.join();
        assertEquals(0, r.exitCode(), "not 'has no readable interval histogram' after a first look: " + r.stderr());
        assertEquals(500, JSON.readTree(r.stdout()).get("ops").asLong());
    }

    @Test
    void aRunsSummaryAndTheReportOfItsLogAgreeOnCountsAndPercentiles() throws Exception {
        PacerProcess.Result run = PacerProcess.run(dir, 60, "run", "--rate", "2000", "--threads", "2", "--duration",
                "3s",
                "--op", "sleep:uniform(100us,2ms)", "--hlog", "rt.hlog", "--summary", "rt.json", "--plot", "rt.html",
                        "-q");
        assertEquals(0, run.exitCode(), run.stderr());
        PacerProcess.Result report = PacerProcess.run(dir, 30, "report", "rt.hlog", "--json");
        assertEquals(0, report.exitCode(), report.stderr());
        JsonNode summary = JSON.readTree(dir.resolve("rt.json").toFile());
        JsonNode fromLog = JSON.readTree(report.stdout());
        assertEquals(summary.get("ops").asLong(), fromLog.get("ops").asLong());
        for (String tag : new String[] {"wait", "service", "response"}) {
            JsonNode a = summary.get(tag);
            JsonNode b = fromLog.get(tag);
            assertEquals(a.get("count"), b.get("count"), tag);
            assertEquals(a.get("max"), b.get("max"), tag);
            assertEquals(a.get("percentiles"), b.get("percentiles"), tag + ": the same values, so the same "
                    + "percentiles");
        }
        String page = Files.readString(dir.resolve("rt.html"));
        assertTrue(page.contains("id=\"pacer-data\"") && page.contains("rt.hlog"), "pacer run --plot wrote the "
                + "report's page");

        PacerProcess.Result text = PacerProcess.run(dir, 30, "report", "rt.hlog", "--from", "1s", "--to", "2s");
        assertEquals(0, text.exitCode(), text.stderr());
        assertTrue(text.stdout().contains("(1.0s-2.0s, 1 points)"), text.stdout());
        PacerProcess.Result csv = PacerProcess.run(dir, 30, "report", "rt.hlog", "--csv");
        List<String> rows = csv.stdout().lines().toList();
        assertEquals("tag,count,mean,min,p50,p75,p90,p99,p99.9,p99.99,max", rows.get(0));
        assertEquals(4, rows.size());
        assertTrue(rows.get(3).startsWith("response," + summary.get("ops").asLong() + ","), rows.get(3));
    }

    @Test
    void aCorruptLogNamesFileAndLineAndReportsTheRestWithExitOne() throws Exception {
        assertEquals(0, PacerProcess.run(dir, 60, "run", "--rate", "500", "--duration", "3s", "--hlog", "c.hlog",
                "-q").exitCode());
        List<String> lines = new ArrayList<>(Files.readAllLines(dir.resolve("c.hlog")));
        int bad = lines.size() - 4; // an interval line near the end
        lines.set(bad, lines.get(bad).replace("HIST", "JUNK"));
        Files.write(dir.resolve("c.hlog"), lines);
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "c.hlog");
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("c.hlog:" + (bad + 1) + ": unreadable interval histogram"), r.stderr());
        assertTrue(r.stdout().contains("latency"), "the readable intervals are still reported: " + r.stdout());
    }

    /** A log of {@code seconds} one-second intervals at {@code rate} ops/s, each tag 'wait', 'service', 'response'. */
    static void writeLog(Path file, int seconds, int rate, Histogram... extra) throws Exception {
        Random random = new Random(42);
        try (PrintStream out = new PrintStream(file.toFile())) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            long startMs = 1_700_000_000_000L;
            w.outputLogFormatVersion();
            w.outputStartTime(startMs);
            w.setBaseTime(startMs);
            w.outputLegend();
            for (Histogram h : extra) {
                w.outputIntervalHistogram(h);
            }
            for (int k = 0; k < seconds; k++) {
                for (String tag : new String[] {"wait", "service", "response"}) {
                    Histogram h = new Histogram(3);
                    h.setAutoResize(true);
                    for (int i = 0; i < rate; i++) {
                        h.recordValue(10_000 + (long) (random.nextDouble() * random.nextDouble() * 50_000_000));
                    }
                    h.setStartTimeStamp(startMs + k * 1000L);
                    h.setEndTimeStamp(startMs + (k + 1) * 1000L);
                    h.setTag(tag);
                    w.outputIntervalHistogram(h);
                }
            }
        }
    }

    @Test
    void anHourLongLogIsReportedAndPlottedInABoundedHeap() throws Exception {
        writeLog(dir.resolve("hour.hlog"), 3600, 1000); // the built-in soak's length at 1 000 ops/s
        PacerProcess.Result r = PacerProcess.start(dir, List.of("-Xmx256m"), "report", "hour.hlog", "--plot",
                "hour.html")
                .await(120);
        assertEquals(0, r.exitCode(), r.stderr());
        assertFalse(r.stderr().contains("Error") || r.stderr().contains("Exception"), r.stderr());
        assertTrue(r.stdout().contains("3600000"), "every op counted: " + r.stdout());
        assertTrue(Files.readString(dir.resolve("hour.html")).contains("id=\"pacer-data\""));
    }

    @Test
    void aHistogramDeclaringAHugeRangeIsNamedNotAllocated() throws Exception {
        Histogram huge = new Histogram(1, 1L << 62, 5); // ~48 MB of counts when decoded
        huge.recordValue(1);
        huge.setStartTimeStamp(1_700_000_000_000L);
        huge.setEndTimeStamp(1_700_000_001_000L);
        Histogram[] crafted = new Histogram[130];
        java.util.Arrays.fill(crafted, huge);
        writeLog(dir.resolve("crafted.hlog"), 2, 10, crafted);
        PacerProcess.Result r = PacerProcess.start(dir, List.of("-Xmx256m"), "report", "crafted.hlog").await(60);
        assertEquals(1, r.exitCode(), r.stderr());
        assertFalse(r.stderr().contains("Error") || r.stderr().contains("Exception"), r.stderr());
        assertTrue(r.stderr().contains("crafted.hlog:5: unreadable interval histogram (declares a range of"),
                r.stderr());
        assertTrue(r.stdout().contains("response"), "the readable intervals are reported: " + r.stdout());
    }

    @Test
    void aByteThatIsNotUtf8IsNamedByItsLineAndTheRestIsRead() throws Exception {
        Path log = dir.resolve("bytes.hlog");
        writeLog(log, 3, 10);
        List<String> lines = new ArrayList<>(Files.readAllLines(log));
        lines.add(2, "#[pacer change] x");
        byte[] text = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
        int at = new String(text, StandardCharsets.ISO_8859_1).indexOf("#[pacer change] x") + 16;
        text[at] = (byte) 0xff;
        Files.write(log, text);
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "bytes.hlog");
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("bytes.hlog:3: not UTF-8 text (byte 0xff)"), r.stderr());
        assertTrue(r.stdout().contains("response"), r.stdout());
    }

    @Test
    void badUsageIsOneLineAndExitTwo() throws Exception {
        PacerProcess.Result missing = PacerProcess.run(dir, 30, "report", "nope.hlog");
        assertEquals(2, missing.exitCode());
        assertEquals("pacer: cannot read 'nope.hlog': no such file", missing.stderr().strip());
        Files.writeString(dir.resolve("x.hlog"), "garbage\n");
        PacerProcess.Result junk = PacerProcess.run(dir, 30, "report", "x.hlog", "--from", "-3s");
        assertEquals(2, junk.exitCode());
        assertFalse(junk.stderr().strip().contains("\n"), junk.stderr());
        assertTrue(junk.stderr().startsWith("pacer: invalid --from '-3s': "), junk.stderr());
        PacerProcess.Result to = PacerProcess.run(dir, 30, "report", "x.hlog", "--to", "-1s");
        assertEquals(2, to.exitCode());
        assertTrue(to.stderr().startsWith("pacer: invalid --to '-1s': "), to.stderr());
        ReportEndToEndTest.writeLog(dir.resolve("ok.hlog"), 2, 100);
        Files.createDirectory(dir.resolve("folder"));
        PacerProcess.Result plot = PacerProcess.run(dir, 30, "report", "ok.hlog", "--plot", "folder");
        assertEquals(2, plot.exitCode(), plot.stderr());
        assertEquals("pacer: invalid --plot 'folder': is a folder", plot.stderr().strip());
        PacerProcess.Result twice = PacerProcess.run(dir, 30, "report", "ok.hlog", "ok.hlog", "--merge");
        assertEquals(2, twice.exitCode(), twice.stderr());
        assertTrue(twice.stderr().startsWith("pacer: ok.hlog is given twice"), twice.stderr());
        assertFalse(twice.stderr().strip().contains("\n"), twice.stderr());
    }
}
