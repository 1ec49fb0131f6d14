package dev.pacer.engine.text;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The JDK HTTP server's log, which the control endpoint and the metrics endpoint both run on: it warns on stderr of a
 * client's slips (a HEAD request answered with a length, a reset), which would land in the run's live view and
 * progress lines. Only its severe records are let through.
 */
public final class JdkServerLog {

    /** Held here: the logging framework keeps its loggers weakly, and a new one would log at its default level. */
    private static final Logger LOG = Logger.getLogger("com.sun.net.httpserver");

    private JdkServerLog() {
    }

    /** Lets only the log's severe records through; call before a server starts (again: no harm). */
    public static void quiet() {
        LOG.setLevel(Level.SEVERE);
    }
}
