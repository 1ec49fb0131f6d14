package dev.pacer.engine;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** What the engine's tests share across packages (the manual clock's player is {@link ManualClock}). */
public final class Fixtures {

    private Fixtures() {
    }

    /** A loopback port nothing listens on now (the OS's pick; another process may take it before the test does). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
