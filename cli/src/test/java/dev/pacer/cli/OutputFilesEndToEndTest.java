package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a run's files go: checked before it starts, and written without replacing what is not a file. */
class OutputFilesEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static void assertRefusedUpFront(PacerProcess.Result r, String named) {
        assertEquals(2, r.exitCode(), r.stderr());
        String err = r.stderr().strip();
        assertFalse(err.contains("\n"), "one line: " + err);
        assertTrue(err.contains(named), "names " + named + ": " + err);
        assertEquals("", r.stdout(), "refused before the run");
    }

    @Test
    void aSummaryToAFifoIsWrittenIntoItNotRenamedOverIt() throws Exception {
        Path fifo = dir.resolve("summary.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(fifo); // as `pacer run --summary /dev/stdout | jq` would
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "100", "--duration", "200ms",
                "--summary", "summary.fifo", "-q");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(Files.exists(fifo) && !Files.isRegularFile(fifo), "still a FIFO, not a file renamed over it");
        assertTrue(JSON.readTree(read.get(10, TimeUnit.SECONDS)).has("ops"), "the reader got the summary");
    }

    @Test
    void devStdoutIntoAPipeTakesTheSummaryAndTheRows() throws Exception {
        // as `pacer run --summary /dev/stdout | jq` runs: /dev/stdout links to 'pipe:[N]', which names no file
        java.util.List<String> command = java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), PacerCommand.class.getName(), "run", "--rate", "100",
                "--duration", "300ms", "-q", "--engine-warm-up", "0", "--summary", "/dev/stdout", "--csv",
                "/dev/stdout");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).start(); // stdout: a pipe to this JVM
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "not 'cannot make a file there': " + err.get());
        assertTrue(out.contains("start_s,end_s,phase"), "the CSV rows: " + out);
        assertTrue(out.contains("\"ops\" : 30"), "the summary: " + out);
    }

    @Test
    void aSummaryThroughASymlinkUpdatesItsTargetAndKeepsTheLink() throws Exception {
        Path target = Files.writeString(dir.resolve("real.json"), "{}");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), target.getFileName());
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "100", "--duration", "200ms",
                "--summary", "link.json", "-q");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        assertTrue(JSON.readTree(target.toFile()).has("ops"), "its target holds the summary");
    }

    @Test
    void oneFileForTwoOutputsIsRefusedBeforeTheRun() throws Exception {
        assertRefusedUpFront(PacerProcess.run(dir, 30, "run", "--rate", "100", "--duration", "1s",
                "--hlog", "x.out", "--summary", "x.out"), "--hlog");
        assertRefusedUpFront(PacerProcess.run(dir, 30, "run", "--rate", "100", "--duration", "1s",
                "--summary", "x.out", "--plot", "./x.out"), "--plot");
        assertFalse(Files.exists(dir.resolve("x.out")));
    }

    @Test
    void anOutputWhereNoFileCanBeMadeIsRefusedBeforeTheRun() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 30, "run", "--rate", "100", "--duration", "1s",
                "--summary", "/proc/x.out");
        assertRefusedUpFront(r, "invalid --summary '/proc/x.out': cannot make a file there (the kernel's proc file "
                + "system)");
    }

    /** /proc/version looks a regular file root may write: the run went, and its page was lost at the end. */
    @Test
    void aKernelFileThatLooksWritableIsRefusedBeforeTheRun() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(Path.of("/proc/version")), "Linux's /proc");
        for (String flag : new String[] {"--plot", "--csv", "--hlog", "--summary"}) {
            assertRefusedUpFront(PacerProcess.run(dir, 30, "run", "--rate", "100", "--duration", "1s",
                    flag, "/proc/version"), "invalid " + flag + " '/proc/version': cannot write it (the kernel's proc "
                    + "file system)");
        }
    }
}
