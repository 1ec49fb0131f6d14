package dev.pacer.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Whether output goes to a terminal, so progress lines stay quiet in pipes, files and CI logs. */
final class Terminal {

    private Terminal() {
    }

    /**
     * True when reading standard input cannot suspend pacer: stdin is a pipe, a file or /dev/null (end
     * of input just ends the console), or a terminal whose foreground process group is ours. A job
     * started in the background with {@code &} that read its terminal would be stopped by SIGTTIN.
     */
    static boolean stdinIsReadable() {
        try {
            Path fd = Path.of("/proc/self/fd/0");
            if (!Files.exists(fd)) {
                return System.console() != null;
            }
            String target = Files.readSymbolicLink(fd).toString();
            if (!target.startsWith("/dev/pts/") && !target.startsWith("/dev/tty")) {
                return true;
            }
            // /proc/self/stat: pid (comm) state ppid pgrp session tty_nr tpgid ...
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return f[2].equals(f[5]); // pgrp == tpgid: we are the terminal's foreground job
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * True when this process talks to a person at a terminal: standard input, output and error are all
     * the terminal, and it is the terminal's foreground job. Then a run shows the live view.
     */
    static boolean isInteractive() {
        return isTerminal(0) && isTerminal(1) && isTerminal(2) && stdinIsReadable();
    }

    private static boolean isTerminal(int fd) {
        try {
            Path link = Path.of("/proc/self/fd/" + fd);
            if (!Files.exists(link)) {
                return System.console() != null;
            }
            String target = Files.readSymbolicLink(link).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (Exception e) {
            return false;
        }
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
