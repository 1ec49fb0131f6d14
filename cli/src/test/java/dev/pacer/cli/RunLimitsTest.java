package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Counts and durations a run cannot honour are refused on one line with exit code 2, never run wrong. */
class RunLimitsTest {

    @TempDir
    Path dir;

    static void assertOneLineNaming(PacerProcess.Result r, String named) {
        Fixtures.assertOneLineNaming(r, named);
        assertEquals("", r.stdout(), "nothing ran");
    }

    @Test
    void zeroCyclesIsRefusedNotAnEndlessRun() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 30, "run", "--rate", "10", "--cycles", "0");
        assertEquals(2, r.exitCode(), r.stderr());
        assertOneLineNaming(r, "'0'");
        assertTrue(r.stderr().contains("--cycles"), r.stderr());
    }

    @Test
    void aDurationPastWhatTheScheduleSpansIsRefusedNotStoppedAtOnce() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 30, "run", "--rate", "10", "--duration", "9223372036854775807ns");
        assertEquals(2, r.exitCode(), r.stderr());
        assertOneLineNaming(r, "'9223372036854775807ns'");
        assertTrue(r.stderr().contains("--duration"), r.stderr());
    }

    @Test
    void scenarioPhasesAddingUpPastTheLimitAreRefusedAtTheirLine() throws Exception {
        Path yaml = Files.writeString(dir.resolve("long.yaml"), """
                phases:
                  - {name: one, duration: 5000h, rate: 10}
                  - {name: two, duration: 5000h, rate: 10}
                """);
        PacerProcess.Result r = PacerProcess.run(dir, 30, "run", yaml.toString());
        assertEquals(2, r.exitCode(), r.stderr());
        assertOneLineNaming(r, yaml + ":3: ");
        Path huge = Files.writeString(dir.resolve("huge.yaml"), """
                phases:
                  - {name: one, duration: 2562047h, rate: 10}
                  - {name: two, duration: 2562047h, rate: 10}
                """);
        PacerProcess.Result r2 = PacerProcess.run(dir, 30, "run", huge.toString());
        assertEquals(2, r2.exitCode(), r2.stderr());
        assertOneLineNaming(r2, huge + ":2: ");
    }
}
