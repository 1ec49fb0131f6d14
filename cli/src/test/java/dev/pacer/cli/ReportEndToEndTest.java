package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacer report} on logs written by real runs. */
class ReportEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aRunsSummaryAndTheReportOfItsLogAgreeOnCountsAndPercentiles() throws Exception {
        PacerProcess.Result run = PacerProcess.run(dir, 60, "run", "--rate", "2000", "--threads", "2", "--duration", "3s",
                "--op", "sleep:uniform(100us,2ms)", "--hlog", "rt.hlog", "--summary", "rt.json", "--plot", "rt.html", "-q");
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
            assertEquals(a.get("percentiles"), b.get("percentiles"), tag + ": the same values, so the same percentiles");
        }
        String page = Files.readString(dir.resolve("rt.html"));
        assertTrue(page.contains("<svg") && page.contains("rt.hlog"), "pacer run --plot wrote the report's page");

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
        assertEquals(0, PacerProcess.run(dir, 60, "run", "--rate", "500", "--duration", "3s", "--hlog", "c.hlog", "-q").exitCode());
        List<String> lines = new ArrayList<>(Files.readAllLines(dir.resolve("c.hlog")));
        int bad = lines.size() - 4; // an interval line near the end
        lines.set(bad, lines.get(bad).replace("HIST", "JUNK"));
        Files.write(dir.resolve("c.hlog"), lines);
        PacerProcess.Result r = PacerProcess.run(dir, 30, "report", "c.hlog");
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("c.hlog:" + (bad + 1) + ": unreadable interval histogram"), r.stderr());
        assertTrue(r.stdout().contains("latency"), "the readable intervals are still reported: " + r.stdout());
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
    }
}
