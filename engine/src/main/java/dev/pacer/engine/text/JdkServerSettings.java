package dev.pacer.engine.text;

/**
 * What the JDK HTTP server, which the control endpoint and the metrics endpoint both run on, reads once when its
 * classes load, so set before the first of either starts: Nagle's algorithm off (with delayed ACKs it added
 * milliseconds to every answer, and answers here are small and should be immediate), and a limit on how long a
 * client may take to send its request line and headers ({@link #MAX_REQUEST_SECONDS}; by default the server waits
 * forever); and its log quieted ({@link JdkServerLog}). A property the user set ({@code -D}) is kept.
 */
public final class JdkServerSettings {

    /** How long a client may take to send its request line and headers before its connection is closed. */
    public static final long MAX_REQUEST_SECONDS = 10;
    /** Connections waiting to be accepted: the kernel caps it at net.core.somaxconn (4096 by default). */
    public static final int BACKLOG = 1024;

    private JdkServerSettings() {
    }

    /** Sets them; call before a server is created (again: no harm). */
    public static void apply() {
        JdkServerLog.quiet();
        setIfUnset("sun.net.httpserver.nodelay", "true");
        setIfUnset("sun.net.httpserver.maxReqTime", Long.toString(MAX_REQUEST_SECONDS));
    }

    private static void setIfUnset(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }
}
