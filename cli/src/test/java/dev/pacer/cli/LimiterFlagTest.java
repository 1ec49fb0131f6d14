package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacer run --limiter}: a design paces the run; a bad name, option or combination is one line, exit 2. */
class LimiterFlagTest {

    @TempDir
    Path dir;

    @Test
    void aDesignPacesTheRunAndTheSummarySaysWhich() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "400", "--duration", "2s", "--hlog",
                "run.hlog",
                "--limiter", "leaky:queue=8", "--summary", "s.json");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode s = new ObjectMapper().readTree(dir.resolve("s.json").toFile());
        assertEquals(800, s.path("ops").asLong(), 40, s.toString());
        assertEquals("leaky", s.path("limiter").path("design").asText(), s.toString());
        assertTrue(Files.readString(dir.resolve("run.hlog")).contains("leaky:queue=8"), "the log's settings name the "
                + "design");
    }

    @Test
    void aScenarioGivesTheRateADesignPaces() throws Exception {
        Files.writeString(dir.resolve("s.yaml"), "phases:\n  - rate: 200\n    duration: 1s\n");
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "s.yaml", "--limiter", "leaky:queue=4", "--summary",
                "s.json",
                "--no-console", "-q");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode s = new ObjectMapper().readTree(dir.resolve("s.json").toFile());
        assertEquals("leaky", s.path("limiter").path("design").asText(), s.toString());
    }

    @Test
    void optionsFineAtTheRunsRateAreTakenThoughNotAtEveryRate() throws Exception {
        // a century to refill at 1 op/s; at 1 000 op/s, 58 days: judged at the run's rate, not at 1 op/s
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "1000", "-n", "5", "--limiter",
                "bucket:size=5000000000", "-q");
        assertEquals(0, r.exitCode(), r.stderr());
    }

    @Test
    void badDesignsAndCombinationsAreOneLineNamingTheValue() throws Exception {
        String[][] cases = {
                {"'nope'", "run", "--rate", "10", "--limiter", "nope"},
                {"'x'", "run", "--rate", "10", "--limiter", "leaky:queue=x"},
                {"'size'", "run", "--rate", "10", "--limiter", "leaky:size=3"},
                {"strictness", "run", "--rate", "10,0.5", "--limiter", "leaky"},
                {"poisson", "run", "--rate", "10", "--limiter", "leaky", "--arrivals", "poisson"},
                {"leaky", "run", "--rate", "10", "--limiter", "leaky", "--bytes-rate", "10M"},
                {"'x'", "run", "--rate", "10", "-n", "3", "--limiter", "atomic:x=1"},
                {"'x'", "compare-limiters", "-d", "100ms", "--limiter", "atomic:x=1"},
                {"invalid --limiter 'leaky:queue=5': needs a rate", "run", "-d", "1s", "--limiter", "leaky:queue=5"},
                {"invalid --bytes-rate '10M': needs a rate", "run", "-d", "1s", "--bytes-rate", "10M"},
                {"invalid --arrivals 'poisson': needs a rate", "run", "-d", "1s", "--arrivals", "poisson"},
                {"invalid --pacing-tick '1.00ms': needs a rate", "run", "-d", "1s", "--pacing-tick", "1ms"},
                {"invalid --pacing-tick '200ms': must be above 0 and at most 100ms", "run", "--rate", "10", "-n", "3",
                        "--pacing-tick", "200ms"},
                {"invalid strictness (after the rate: --rate RATE,STRICTNESS) '1': cannot go with a pacing tick", "run",
                        "--rate", "10,1", "-n", "3", "--pacing-tick", "1ms"},
                {"invalid --pacing-tick '1.00ms': cannot go with a knee search (--search or a search phase)", "run",
                        "-d", "3s", "--search", "response.p99<1ms", "--pacing-tick", "1ms"},
                {"invalid --seed '5': seeds Poisson arrivals", "run", "-d", "1s", "--rate", "10", "--seed", "5"},
                {"invalid --bytes-rate '1M': and the limiter's own bytes-rate=1k", "run", "--rate", "10",
                        "--bytes-rate", "1M",
                        "--limiter", "bucket:bytes-rate=1k"},
                {"invalid --bytes-rate '': expected bytes per second", "run", "--rate", "10", "--bytes-rate=",
                        "--limiter", "bucket"},
                {"invalid --limiter 'bucket:size=5000000000': at 1 ops/s: the bucket limiter's bucket", "run", "--rate",
                        "1",
                        "-n", "3", "--limiter", "bucket:size=5000000000"},
        };
        // in this JVM (each refused before anything runs), and the first also as its own process
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            PacerProcess.Result r = NewUserTest.pacer(args);
            assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.stderr());
            RunLimitsTest.assertOneLineNaming(r, c[0]);
        }
        PacerProcess.Result r = PacerProcess.run(dir, 30, java.util.Arrays.copyOfRange(cases[0], 1, cases[0].length));
        assertEquals(2, r.exitCode(), r.stderr());
        RunLimitsTest.assertOneLineNaming(r, cases[0][0]);
    }
}
