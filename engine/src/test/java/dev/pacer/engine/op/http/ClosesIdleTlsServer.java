package dev.pacer.engine.op.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * An https keep-alive server on loopback (TLS 1.2, a self-signed certificate) that ends each connection as idle
 * after its first response with a TLS close_notify alone: its TCP stays open (no FIN) until the client closes it, so
 * only the alert says the connection is over. Answers {@code 200}, body {@code ok}; a virtual thread per connection.
 */
public final class ClosesIdleTlsServer implements AutoCloseable {

    private static final byte[] OK =
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final SSLContext tls;
    /** Connections accepted. */
    public final AtomicLong connections = new AtomicLong();
    /** Requests answered. */
    public final AtomicLong answered = new AtomicLong();
    /** Connections ended with a close_notify after their response. */
    public final AtomicLong closedIdle = new AtomicLong();

    public ClosesIdleTlsServer(Path keysDir) throws Exception {
        tls = SSLContext.getInstance("TLSv1.2");
        tls.init(SelfSignedKeys.in(keysDir).getKeyManagers(), null, null);
        server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket plain = server.accept();
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> serve(plain));
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    /** The server's port on 127.0.0.1. */
    public int port() {
        return server.getLocalPort();
    }

    private void serve(Socket plain) {
        try (plain) {
            SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(plain, null, plain.getPort(), false);
            s.setUseClientMode(false);
            InputStream in = s.getInputStream();
            int state = 0; // how much of the blank line ending a request's head was read (CR LF CR LF)
            for (int b; (b = in.read()) >= 0; ) {
                boolean next = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3));
                state = next ? state + 1 : 0;
                if (state == 4) {
                    OutputStream out = s.getOutputStream();
                    out.write(OK);
                    out.flush();
                    answered.incrementAndGet();
                    s.shutdownOutput(); // over a plain socket: the close_notify alone, no FIN
                    closedIdle.incrementAndGet();
                    plain.getInputStream().transferTo(OutputStream.nullOutputStream()); // until the client closes
                    return;
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
