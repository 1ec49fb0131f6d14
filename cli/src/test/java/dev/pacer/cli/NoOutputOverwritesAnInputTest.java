package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * No output flag may name a file the command reads (a log, the --vs log, a scenario, a body), by any path: one line
 * naming the flag, exit 2, and the input left as it was. Usage errors never reach a run, so these run in this JVM.
 */
@Timeout(60)
class NoOutputOverwritesAnInputTest {

    @TempDir
    Path dir;

    /** Runs pacer, expects the one-line refusal naming {@code named}, and that {@code input} still holds its bytes. */
    static void assertRefusedAndKept(Path input, String named, String... args) throws Exception {
        byte[] before = Files.readAllBytes(input);
        PacerProcess.Result r = NewUserTest.pacer(args);
        assertEquals(2, r.exitCode(), r.stderr());
        Fixtures.assertOneLineNaming(r, named);
        assertArrayEquals(before, Files.readAllBytes(input), input + " is left as it was");
    }

    @Test
    void aReportsPlotOverTheLogItReadsIsRefused() throws Exception {
        Path log = dir.resolve("run.hlog");
        ReportEndToEndTest.writeLog(log, 2, 100);
        assertRefusedAndKept(log, "invalid --plot '" + log + "': is a log this report reads, which writing would "
                + "destroy",
                "report", log.toString(), "--plot", log.toString());
        Path other = dir.resolve("other.hlog");
        ReportEndToEndTest.writeLog(other, 2, 50);
        assertRefusedAndKept(other, "invalid --plot '" + other + "': is a log this report reads",
                "report", log.toString(), other.toString(), "--merge", "--plot", other.toString());
    }

    @Test
    void aPlotOverTheVsLogIsRefused() throws Exception {
        Path a = dir.resolve("a.hlog");
        Path b = dir.resolve("b.hlog");
        ReportEndToEndTest.writeLog(a, 2, 100);
        ReportEndToEndTest.writeLog(b, 2, 100);
        assertRefusedAndKept(b, "invalid --plot '" + b + "': is the --vs log", "report", a.toString(), "--vs",
                b.toString(),
                "--plot", b.toString());
    }

    @Test
    void aPlotThroughASymbolicOrHardLinkToTheLogIsRefused() throws Exception {
        Path log = dir.resolve("run.hlog");
        ReportEndToEndTest.writeLog(log, 2, 100);
        Path symlink = Files.createSymbolicLink(dir.resolve("page.html"), log);
        assertRefusedAndKept(log, "invalid --plot '" + symlink + "': is a log this report reads (" + log + ")",
                "report", log.toString(), "--plot", symlink.toString());
        Path hardLink = Files.createLink(dir.resolve("hard.html"), log);
        assertRefusedAndKept(log, "invalid --plot '" + hardLink + "': is a log this report reads (" + log + ")",
                "report", log.toString(), "--plot", hardLink.toString());
    }

    @Test
    void aRunsLogOverItsScenarioFileIsRefused() throws Exception {
        Path yaml = Files.writeString(dir.resolve("s.yaml"), """
                op: noop
                phases:
                  - {name: one, duration: 1s, rate: 10}
                """);
        assertRefusedAndKept(yaml, "invalid --hlog '" + yaml + "': is the scenario file", "run", yaml.toString(),
                "--hlog", yaml.toString(), "-q");
        assertRefusedAndKept(yaml, "invalid --summary '" + dir.resolve("./s.yaml") + "': is the scenario file (" + yaml
                + ")",
                "run", yaml.toString(), "--summary", dir.resolve("./s.yaml").toString(), "-q");
    }

    @Test
    void aRunsCsvOverTheFileItsBodyIsReadFromIsRefused() throws Exception {
        Path body = Files.writeString(dir.resolve("b.txt"), "{\"a\":1}");
        assertRefusedAndKept(body, "invalid --csv '" + body + "': is the file --body sends", "run", "--op", "http",
                "--url", "http://127.0.0.1:1/", "--rate", "10", "--body", "@" + body, "--csv", body.toString(),
                        "--duration", "1s", "-q");
    }

    @Test
    void aRunsOutputsOverItsWorkloadFileOrTheDataItReadsAreRefused() throws Exception {
        Path data = Files.writeString(dir.resolve("ids.csv"), "id\n1\n2\n");
        Path payload = Files.writeString(dir.resolve("payload.txt"), "x");
        Path workload = Files.writeString(dir.resolve("w.yaml"), """
                base: http://127.0.0.1:1
                bindings:
                  id: csv(ids.csv, id)
                  note: extract(payload.txt, 0, 1)
                ops:
                  a: {weight: 1, request: "GET /{id}?n={note}"}
                """);
        assertRefusedAndKept(data, "invalid --csv '" + data + "': is a file the workload reads", "run",
                workload.toString(), "--rate", "10", "--duration", "1s", "--csv", data.toString(), "-q");
        assertRefusedAndKept(payload, "invalid --summary '" + payload + "': is a file the workload reads", "run",
                workload.toString(), "--rate", "10", "--duration", "1s", "--summary", payload.toString(), "-q");
        assertRefusedAndKept(workload, "invalid --hlog '" + workload + "': is the workload file", "run",
                workload.toString(), "--rate", "10", "--duration", "1s", "--hlog", workload.toString(), "-q");
        // a scenario's workload, by another path
        Path scenario = Files.writeString(dir.resolve("s.yaml"), """
                workload: w.yaml
                phases:
                  - {duration: 1s, rate: 10}
                """);
        assertRefusedAndKept(workload, "invalid --hlog '" + dir.resolve("./w.yaml") + "': is the workload file",
                "run", scenario.toString(), "--hlog", dir.resolve("./w.yaml").toString(), "-q");
    }
}
