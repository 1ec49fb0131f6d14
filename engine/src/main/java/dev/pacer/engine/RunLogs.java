package dev.pacer.engine;

import dev.pacer.engine.hlog.HlogReader;
import java.nio.file.Files;
import java.nio.file.Path;

/** The {@code .hlog} files runs write ({@link LoadTest#hlog(Path)}), as a reader of them sees them first. */
public final class RunLogs {

    private RunLogs() {
    }

    /**
     * Checks that {@code file} is a log pacer can read: it exists, it is readable, its header and its first interval
     * are whole. A pipe ({@code zcat run.hlog.gz | pacer report /dev/stdin}) is left alone: it can be read only once,
     * and its reader says the same of it.
     *
     * @throws IllegalArgumentException one line naming the file and what is wrong with it
     */
    public static void check(Path file) {
        if (Files.exists(file) && !Files.isRegularFile(file) && !Files.isDirectory(file)) {
            return;
        }
        HlogReader.read(file, first -> false);
    }
}
