package dev.pacer.engine.text;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
        this.file = file;
        this.onFailure = onFailure;
        this.failures = new Failures(new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024));
        this.out = new PrintStream(failures, false);
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
            onFailure.accept("cannot write " + file + ": " + (e == null || e.getMessage() == null ? "write failed" : e.getMessage()));
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
