package dev.pacer.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Whether output goes to a terminal, so progress lines stay quiet in pipes, files and CI logs. */
final class Terminal {

    private Terminal() {
    }

    /**
     * True when standard error is a terminal. On Linux this reads {@code /proc/self/fd/2}; elsewhere
     * it falls back to {@link System#console()}.
     */
    static boolean stderrIsTerminal() {
        try {
            Path fd = Path.of("/proc/self/fd/2");
            if (Files.exists(fd)) {
                String target = Files.readSymbolicLink(fd).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (Exception e) {
            // fall through
        }
        return System.console() != null;
    }
}
