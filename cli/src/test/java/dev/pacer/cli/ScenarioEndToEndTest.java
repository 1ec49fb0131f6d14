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
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scenarios run as users run them: a YAML file through the real command, checked interval by interval. */
class ScenarioEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    record Interval(double start, double end, long ops) {
        double rate() {
            return ops / (end - start);
        }
    }

    @Test
    void aRampFollowsItsLineAndStepsLandOnTheirRates() throws Exception {
        Files.writeString(dir.resolve("shape.yaml"), """
                # a ramp, then a staircase
                name: shape
                description: ramp 1k to 5k over 8 s, then 1k to 3k in 3 s steps
                threads: 2
                phases:
                  - name: ramp
                    duration: 8s
                    rate: {from: 1000, to: 5000}
                  - name: stairs
                    steps: {from: 1000, to: 3000, by: 1000, every: 3s}
                """);
        PacerProcess.Result r = PacerProcess.run(dir, 90, "run", "shape.yaml", "--hlog", "shape.hlog", "--summary",
                "shape.json", "--progress");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains(" ramp] "), "the progress line shows the phase: " + r.stderr());

        List<Interval> intervals = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(dir.resolve("shape.hlog").toFile());
        for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
            if ("response".equals(h.getTag())) {
                intervals.add(new Interval(h.getStartTimeStamp() / 1000.0, h.getEndTimeStamp() / 1000.0,
                        ((AbstractHistogram) h).getTotalCount()));
            }
        }
        reader.close();
        double base = intervals.get(0).start();
        int ramp = 0;
        int steps = 0;
        for (Interval i : intervals) {
            double s = i.start() - base;
            double e = i.end() - base;
            if (e - s < 0.9) {
                continue; // a partial interval cut at a phase boundary or at the end
            }
            if (e <= 8.01) {
                double lineMean = 1000 + 500 * (s + e) / 2; // the line's mean over [s, e]
                assertTrue(Math.abs(i.rate() - lineMean) <= 0.03 * lineMean,
                        String.format("ramp %.2f-%.2fs: %.1f ops/s, the line's mean is %.1f", s, e, i.rate(),
                                lineMean));
                ramp++;
            } else {
                int step = (int) Math.floor((s - 8.0 + 0.01) / 3.0);
                double stepStart = 8.0 + 3.0 * step;
                if (s >= Math.ceil(stepStart) + 1.0 - 0.01) { // from the second interval after the step
                    double target = 1000 + 1000 * step;
                    assertTrue(Math.abs(i.rate() - target) <= 0.02 * target,
                            String.format("step %d %.2f-%.2fs: %.1f ops/s, target %.0f", step, s, e, i.rate(), target));
                    steps++;
                }
            }
        }
        assertTrue(ramp >= 7, "checked " + ramp + " whole ramp intervals");
        assertTrue(steps >= 5, "checked " + steps + " whole step intervals");

        JsonNode summary = JSON.readTree(dir.resolve("shape.json").toFile());
        assertEquals("duration", summary.get("stopReason").asText(), "a scenario runs for its phases' total duration");
        assertEquals(2, summary.get("phases").size());
        assertEquals("ramp", summary.get("phases").get(0).get("name").asText());
        assertEquals(summary.get("ops").asLong(),
                summary.get("phases").get(0).get("ops").asLong() + summary.get("phases").get(1).get("ops").asLong(),
                "the phases' ops add up to the run's");
        assertTrue(summary.get("phases").get(1).get("response").get("percentiles").has("99"), "per-phase tables");
        assertTrue(r.stdout().contains("phases"), r.stdout());
    }

    @Test
    void warmUpPhasesAreLeftOutOfTheTotals() throws Exception {
        Files.writeString(dir.resolve("warm.yaml"), """
                phases:
                  - {name: warm, duration: 1s, rate: 2000, warmup: true}
                  - {name: measure, duration: 1s, rate: 500}
                """);
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "warm.yaml", "--summary", "warm.json", "-q");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode s = JSON.readTree(dir.resolve("warm.json").toFile());
        JsonNode warm = s.get("phases").get(0);
        assertTrue(warm.get("warmup").asBoolean());
        assertTrue(warm.get("ops").asLong() > 1500, warm.toString());
        assertEquals(s.get("phases").get(1).get("ops").asLong(), s.get("ops").asLong(), "totals are the measured phase "
                + "only");
        // The reporter cuts the interval at a phase boundary a little after it (0.1-90 ms seen early in a run,
        // while its code is still cold), so the phase's length and count vary by that much; its rate does not.
        assertEquals(500, s.get("achievedRate").asDouble(), 25, s.toString());
        assertEquals(1.0, s.get("durationSeconds").asDouble(), 0.15, s.toString());
    }

    @Test
    void brokenFilesFailBeforeTheRunWithFileAndLine() throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), "phases:\n  - duration: 10s\n    rate: {from: 1000}\n");
        PacerProcess.Result r = PacerProcess.run(dir, 30, "run", "bad.yaml", "--summary", "bad.json");
        assertEquals(2, r.exitCode());
        assertEquals("pacer: bad.yaml:3: a ramp needs 'to': rate: {from: 1000, to: 5000}", r.stderr().strip());
        assertFalse(Files.exists(dir.resolve("bad.json")));
        PacerProcess.Result both = PacerProcess.run(dir, 30, "run", "--scenario", "steady", "--rate", "10");
        assertEquals(2, both.exitCode());
        assertTrue(both.stderr().contains("--rate cannot be combined with a scenario"), both.stderr());
    }

    @Test
    void aFileGivenToTheScenarioFlagRunsAsTheFileItIs() throws Exception {
        Files.writeString(dir.resolve("short.yaml"), "phases:\n  - {name: only, duration: 500ms, rate: 200}\n");
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--scenario", "short.yaml", "--summary", "s.json",
                "-q");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("only", JSON.readTree(dir.resolve("s.json").toFile()).get("phases").get(0).get("name").asText());
        PacerProcess.Result neither = PacerProcess.run(dir, 30, "run", "--scenario", "nosuch.yaml");
        assertEquals(2, neither.exitCode());
        assertTrue(neither.stderr().contains("invalid --scenario 'nosuch.yaml': no such built-in scenario"),
                neither.stderr());
    }

    @Test
    void theBuiltInScenariosAreListedWithTheirDescriptions() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 30, "scenarios");
        assertEquals(0, r.exitCode());
        for (String name : new String[] {"steady", "stepped", "ramp-to-knee", "spike", "soak"}) {
            assertTrue(r.stdout().contains(name), r.stdout());
        }
        assertTrue(r.stdout().contains("1h01m"), "durations read like durations: " + r.stdout());
    }
}
