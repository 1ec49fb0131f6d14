package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scenario's phases and a knee search are checked against the limiter before anything runs. */
class ScenarioLimiterEndToEndTest {

    @TempDir
    Path dir;

    static void oneLine(PacerProcess.Result r, String starts) {
        assertEquals(2, r.exitCode(), r.stderr());
        assertTrue(r.stderr().startsWith(starts), r.stderr());
        assertEquals(1, r.stderr().strip().lines().count(), "one line: " + r.stderr());
        assertFalse(r.stderr().contains("Exception"), r.stderr());
        assertFalse(r.stdout().contains("ops"), "nothing ran: " + r.stdout());
    }

    @Test
    void aLaterPhaseItsLimiterRefusesFailsBeforeTheRunNamingItsLine() throws Exception {
        Files.writeString(dir.resolve("b.yaml"), """
                name: two
                op: noop
                limiter: sliding-log
                phases:
                  - name: a
                    duration: 1s
                    rate: 100
                  - name: b
                    duration: 1s
                    rate: 100000000
                """);
        oneLine(PacerProcess.run(dir, 30, "run", "b.yaml"), "pacer: b.yaml:8: phase 'b' at 100000000 ops/s: the "
                + "sliding-log limiter");
    }

    @Test
    void aKneeSearchWithADesignWithoutStrictnessIsRefused() throws Exception {
        oneLine(PacerProcess.run(dir, 30, "run", "--limiter", "leaky", "--search", "response.p99<1s", "--from", "100",
                "--to", "1000", "--hold", "2s"), "pacer: invalid --limiter 'leaky': cannot run a knee search");
    }
}
