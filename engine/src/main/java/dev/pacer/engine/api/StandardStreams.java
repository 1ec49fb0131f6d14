package dev.pacer.engine.api;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Pattern;

/**
 * Names of the streams a process starts with, as an output flag may give them ({@code --summary /dev/stdout},
 * {@code --hlog /dev/stderr}, {@code --csv /dev/fd/3}, a shell's {@code >(gzip > log.gz)}). Opening such a name again
 * would make a new description of what the stream is on, with an offset of its own: with the shell's
 * {@code 2> run.log} behind it, the process's own writes and the file's would overwrite each other. So standard output
 * and standard error are written through the process's own descriptors, and any other is appended to.
 */
public final class StandardStreams {

    private static final Pattern STREAM =
            Pattern.compile("/dev/std(?:out|err)|/dev/fd/\\d+|/proc/(?:self|\\d+)/fd/\\d+");
    private static final Pattern OUTPUT = Pattern.compile("/dev/stdout|/dev/fd/1|/proc/self/fd/1");
    private static final Pattern ERROR = Pattern.compile("/dev/stderr|/dev/fd/2|/proc/self/fd/2");

    private StandardStreams() {
    }

    /** Whether {@code file} names a stream the process was started with (one of its file descriptors). */
    public static boolean isStream(Path file) {
        return STREAM.matcher(name(file)).matches();
    }

    /** Whether {@code file} names standard output. */
    public static boolean isOutput(Path file) {
        return OUTPUT.matcher(name(file)).matches();
    }

    /**
     * A stream writing to {@code file} when it names one of the process's streams, else null: standard output and
     * error through the process's own descriptors (closing the stream returned flushes it and leaves them open), any
     * other appended to.
     */
    public static OutputStream openIfStream(Path file) throws IOException {
        String name = name(file);
        if (OUTPUT.matcher(name).matches()) {
            return unclosed(new FileOutputStream(FileDescriptor.out));
        }
        if (ERROR.matcher(name).matches()) {
            return unclosed(new FileOutputStream(FileDescriptor.err));
        }
        if (STREAM.matcher(name).matches()) {
            return Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        return null;
    }

    private static String name(Path file) {
        return file.toAbsolutePath().normalize().toString();
    }

    private static OutputStream unclosed(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        };
    }
}
