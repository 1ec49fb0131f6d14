package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scenario file's problems, as {@code pacer run FILE} reports them: {@code file:line: what}, exit code 2. */
class ScenarioFilesTest {

    @TempDir
    Path dir;

    @Test
    void aBadOpInTheFileIsReportedAtItsLineNotAgainstTheFlag() throws Exception {
        Path yaml = Files.writeString(dir.resolve("op.yaml"), "name: op\nop: sleep:-1ms\nphases:\n  - {duration: 1s, "
                + "rate: 10}\n");
        PacerProcess.Result r = NewUserTest.pacer("run", yaml.toString());
        assertEquals(2, r.exitCode(), r.stderr());
        Fixtures.assertOneLineNaming(r, yaml + ":2: invalid op 'sleep:-1ms'");
    }

    @Test
    void httpSettingsInAFileWithAnotherOpAreReportedAtTheirLine() throws Exception {
        Path yaml = Files.writeString(dir.resolve("url.yaml"), "op: noop\nurl: http://127.0.0.1:1/\nphases:\n  - "
                + "{duration: 1s, rate: 10}\n");
        PacerProcess.Result r = NewUserTest.pacer("run", yaml.toString());
        assertEquals(2, r.exitCode(), r.stderr());
        Fixtures.assertOneLineNaming(r, yaml + ":2: invalid url");
    }

    @Test
    void aFolderNamedLikeAScenarioIsSaidToBeAFolder() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("x.yaml"));
        PacerProcess.Result r = NewUserTest.pacer("run", folder.toString());
        assertEquals(2, r.exitCode(), r.stderr());
        Fixtures.assertOneLineNaming(r, "'" + folder + "': is a folder");
    }
}
