package dev.pacer.engine.op.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A keep-alive server on loopback whose idle close crosses each connection's second request: it answers the first
 * request on a connection ({@code 200}, body {@code ok}), then closes the connection on reading the second,
 * unanswered (a body is read past as part of the next head). Counts both; a virtual thread per
 * connection.
 */
public final class DropsSecondRequestServer implements AutoCloseable {

    private static final byte[] OK =
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    /** Requests answered. */
    public final AtomicLong answered = new AtomicLong();
    /** Requests read and dropped with their connection's close. */
    public final AtomicLong dropped = new AtomicLong();

    public DropsSecondRequestServer() throws IOException {
        server = new ServerSocket(0, 256, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket sock = server.accept();
                    Thread.ofVirtual().start(() -> serve(sock));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    /** The server's base URL, {@code http://127.0.0.1:PORT}. */
    public String base() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Zeroes both counts. */
    public void reset() {
        answered.set(0);
        dropped.set(0);
    }

    private void serve(Socket sock) {
        try (sock) {
            InputStream in = sock.getInputStream();
            int state = 0; // how much of the blank line ending a request's head was read (CR LF CR LF)
            int requestsHere = 0;
            for (int b; (b = in.read()) >= 0; ) {
                boolean next = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3));
                state = next ? state + 1 : 0;
                if (state == 4) {
                    state = 0;
                    if (++requestsHere == 2) {
                        dropped.incrementAndGet();
                        return;
                    }
                    answered.incrementAndGet();
                    sock.getOutputStream().write(OK);
                }
            }
        } catch (IOException e) {
            // the client closed
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
