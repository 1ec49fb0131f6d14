package dev.pacer.engine.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Output named as a pipe (a FIFO): written when a program reads it, refused in time when none does. */
@Timeout(30)
class OutputFileTest {

    @TempDir
    Path dir;

    private Path fifo() throws Exception {
        Path f = dir.resolve("pipe");
        Process p = new ProcessBuilder("mkfifo", f.toString()).start();
        assertTrue(p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0, "mkfifo");
        assertTrue(OutputFile.isPipe(f));
        return f;
    }

    /**
     * Opening a pipe blocks until a reader comes, and nothing else ended the wait: a run with {@code --hlog} on one
     * nobody read hung for good, deaf to SIGTERM and Ctrl-C (an adversary's pass). Both ways of writing now fail in
     * one line after {@link OutputFile#PIPE_WAIT_MILLIS}.
     */
    @Test
    void aPipeNoProgramReadsIsRefusedInTimeNotWaitedForForever() throws Exception {
        Path f = fifo();
        long t0 = System.nanoTime();
        IOException e = assertThrows(IOException.class, () -> new OutputFile(f, why -> { }).close());
        assertEquals("cannot write " + f + ": a pipe no program reads (waited 5 s)", e.getMessage());
        IOException whole = assertThrows(IOException.class, () -> OutputFile.replace(f, new byte[] {'x'}));
        assertEquals("a pipe no program reads (waited 5 s)", whole.getMessage());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 2 * OutputFile.PIPE_WAIT_MILLIS + 5_000, "two waits of 5 s: " + ms + " ms");
    }

    @Test
    void aPipeAProgramReadsIsWrittenInto() throws Exception {
        Path f = fifo();
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(f, StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try (OutputFile out = new OutputFile(f, why -> { })) {
            out.out().print("rows\n");
        }
        assertEquals("rows\n", read.get(10, TimeUnit.SECONDS));
        assertTrue(!Files.isRegularFile(f) && OutputFile.isPipe(f), "the pipe itself, not a file in its place");
    }

    @Test
    void aFileIsNotAPipe() throws Exception {
        Path f = dir.resolve("plain.txt");
        Files.writeString(f, "x");
        assertTrue(!OutputFile.isPipe(f) && !OutputFile.isPipe(dir.resolve("none")));
    }
}
