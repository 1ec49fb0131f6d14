package dev.pacer.engine.text;

import dev.pacer.engine.api.IoReason;
import dev.pacer.engine.api.StandardStreams;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;

/**
 * A text file a run writes as it goes (its log, its CSV rows): a {@link PrintStream} whose first failed
 * write (a full disk, {@code /dev/full}) is reported once, as one line naming the file and the reason,
 * after which nothing more is written. A plain {@code PrintStream} keeps only a flag and loses the reason.
 *
 * <p>Not thread-safe: its owner serializes writes.
 */
public final class OutputFile implements AutoCloseable {

    private final Path file;
    private final Failures failures;
    private final PrintStream out;
    private final Consumer<String> onFailure;
    private boolean failed;

    /**
     * Opens (creates or truncates) {@code file}.
     *
     * @param onFailure told once ({@code cannot write FILE: REASON}) when a write fails
     */
    public OutputFile(Path file, Consumer<String> onFailure) throws IOException {
        this(file, onFailure, new BufferedOutputStream(open(file), 64 * 1024));
    }

    private static OutputStream open(Path file) throws IOException {
        OutputStream stream = StandardStreams.openIfStream(file);
        if (stream != null) {
            return stream;
        }
        try {
            return openForWriting(file);
        } catch (IOException e) {
            throw new dev.pacer.engine.api.OutputFileException("cannot write " + file + ": " + IoReason.of(e), e);
        }
    }

    /** How long opening a pipe (a FIFO) waits for a program to read it. */
    static final long PIPE_WAIT_MILLIS = 5_000;

    /**
     * Opens {@code file} for writing. A pipe's open blocks until a program opens it to read, and nothing (no signal's
     * stop) ends that wait: it is made on a thread of its own, and a pipe nobody reads within {@link
     * #PIPE_WAIT_MILLIS} fails (that thread stays blocked, and closes what it opens should a reader come).
     */
    static OutputStream openForWriting(Path file) throws IOException {
        if (!isPipe(file)) {
            return Files.newOutputStream(file);
        }
        java.util.concurrent.CompletableFuture<OutputStream> opened = new java.util.concurrent.CompletableFuture<>();
        Thread.ofPlatform().daemon().name("pacer-open-pipe").start(() -> {
            try {
                opened.complete(Files.newOutputStream(file));
            } catch (IOException | RuntimeException e) {
                opened.completeExceptionally(e);
            }
        });
        try {
            return opened.get(PIPE_WAIT_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            opened.thenAccept(OutputFile::closeQuietly);
            throw new IOException("a pipe no program reads (waited " + PIPE_WAIT_MILLIS / 1000 + " s)");
        } catch (InterruptedException e) {
            opened.thenAccept(OutputFile::closeQuietly);
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("stopped while waiting for a program to read the pipe");
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** Whether {@code file} is a named pipe (a FIFO); false when it cannot tell (no such file, no unix view). */
    static boolean isPipe(Path file) {
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode");
            return (mode & 0170000) == 0010000;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private static void closeQuietly(OutputStream s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // a pipe opened too late for the run: nothing was written to it
        }
    }

    private OutputFile(Path file, Consumer<String> onFailure, OutputStream stream) {
        this.file = file;
        this.onFailure = onFailure;
        this.failures = new Failures(stream);
        this.out = new PrintStream(failures, false);
    }

    /**
     * A file that writes into nothing, through the same buffering and failure checks as a real one (only the stream
     * under the buffer differs): what the engine's warm-up writes its private intervals to, so that the JIT
     * compiles a sink's writing before the run's clock starts.
     */
    public static OutputFile discarding() {
        return new OutputFile(Path.of("(nothing)"), why -> { },
                new BufferedOutputStream(OutputStream.nullOutputStream(), 64 * 1024));
    }

    /**
     * Writes a whole file at once. A regular file (or one not there yet) is replaced atomically: a temp file beside
     * it, then a move, so a reader never sees half a file, and a write that fails (a full disk, the folder gone)
     * leaves no truncated file and what was there before in place; through a symbolic link, the file it points to
     * is replaced and the link kept. Anything else ({@code /dev/null}, a pipe) is written into, never replaced, and
     * a standard stream ({@link StandardStreams}) is appended to. The temp file is created like any other file (the
     * umask decides its mode; a createTempFile would be private, 0600, and so would the file).
     */
    public static void replace(Path file, byte[] bytes) throws IOException {
        try (OutputStream stream = StandardStreams.openIfStream(file)) {
            if (stream != null) {
                stream.write(bytes);
                return;
            }
        }
        Path target = Files.isRegularFile(file) ? file.toRealPath() : file; // a pipe has no real path
        if (Files.exists(target) && !Files.isRegularFile(target) || Files.isSymbolicLink(target)) {
            try (OutputStream out = openForWriting(target)) { // a device, a pipe, or a link to nowhere yet
                out.write(bytes);
            }
            return;
        }
        Path absolute = target.toAbsolutePath();
        Path tmp = absolute.resolveSibling("." + absolute.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.write(tmp, bytes);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Where to print; call {@link #flush()} after each record. */
    public PrintStream out() {
        return out;
    }

    /** Flushes; false (and the failure reported) once a write has failed. */
    public boolean flush() {
        if (failed) {
            return false;
        }
        out.flush();
        if (out.checkError()) {
            failed = true;
            IOException e = failures.first;
            onFailure.accept("cannot write " + file + ": " + (e == null || e.getMessage() == null ? "write failed"
                    : e.getMessage()));
            return false;
        }
        return true;
    }

    /** True once a write has failed. */
    public boolean failed() {
        return failed;
    }

    @Override
    public void close() {
        flush();
        out.close();
    }

    /** Remembers the first exception the file's stream threw. */
    private static final class Failures extends FilterOutputStream {
        IOException first;

        Failures(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw remember(e);
            }
        }

        @Override
        public void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw remember(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw remember(e);
            }
        }

        private IOException remember(IOException e) {
            first = first == null ? e : first;
            return e;
        }
    }
}
