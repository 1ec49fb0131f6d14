package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a command should have shown on standard output and could not (a full disk: {@code > /dev/full}) is said on
 * stderr, and the command fails: a script that saved a run's summary that way learns it has none.
 */
@Timeout(120)
class StandardOutputLostTest {

    @TempDir
    Path dir;

    /** Runs pacer with its standard output on /dev/full (a write there fails with ENOSPC). */
    private PacerProcess.Result toAFullDisk(String... args) throws Exception {
        return PacerProcess.start(dir, List.of("sh", "-c", "exec \"$@\" > /dev/full", "sh"),
                PacerProcess.DEFAULT_JVM_OPTIONS, args).await(90);
    }

    @Test
    void aRunsSummaryAndAListThatCannotBeWrittenAreSaidAndFailTheCommand() throws Exception {
        if (!Files.isWritable(Path.of("/dev/full"))) {
            return; // not Linux: no device that fails every write
        }
        PacerProcess.Result run = toAFullDisk("run", "--rate", "100", "--duration", "300ms", "--engine-warm-up", "0",
                "--no-console");
        assertEquals(1, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("pacer: could not write to standard output; what it should have shown is "
                + "lost"), run.stderr());

        PacerProcess.Result list = toAFullDisk("scenarios");
        assertEquals(1, list.exitCode(), list.stderr());
        assertTrue(list.stderr().lines().anyMatch(l -> l.startsWith("pacer: could not write to standard output")),
                list.stderr());
    }

    @Test
    void aCommandWhoseOutputWasWrittenExitsAsBefore() throws Exception {
        PacerProcess.Result list = PacerProcess.run(dir, 90, "scenarios");
        assertEquals(0, list.exitCode(), list.stderr());
        assertEquals("", list.stderr());
    }
}
