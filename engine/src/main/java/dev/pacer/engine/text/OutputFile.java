package dev.pacer.engine.text;

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
        this(file, onFailure, new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024));
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
     * is replaced and the link kept. Anything else ({@code /dev/null}, {@code /dev/stdout}, a pipe) is written
     * into, never replaced. The temp file is created like any other file (the umask decides its mode; a
     * createTempFile would be private, 0600, and so would the file).
     */
    public static void replace(Path file, byte[] bytes) throws IOException {
        if (Files.exists(file) && !Files.isRegularFile(file)) { // /dev/stdout into '| jq' links to 'pipe:[N]', no path
            Files.write(file, bytes);
            return;
        }
        Path target = Files.exists(file) ? file.toRealPath() : file;
        if (Files.exists(target) && !Files.isRegularFile(target) || Files.isSymbolicLink(target)) {
            Files.write(target, bytes); // a device, a pipe, or a link to nowhere yet (writing makes its file)
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
