package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;

/** What the cli module's tests share: a free port, and the check that a refusal is one clear line. */
final class Fixtures {

    private Fixtures() {
    }

    /** A port nothing listens on now (the OS's pick; another process may take it before the test does). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** The command's error output is one line that names {@code named}, with no stack trace. */
    static void assertOneLineNaming(PacerProcess.Result r, String named) {
        String err = r.stderr().strip();
        assertFalse(err.contains("\n"), "one line, got: " + err);
        assertTrue(err.contains(named), "names " + named + ": " + err);
        assertFalse(err.contains("Exception"), err);
    }
}
