package dev.pacer.engine.op.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.RunClock;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The http op's connections as the run opens them ahead and as the op closes: one socket each, every request ended. */
@Timeout(30)
class H1PoolTest {

    private ServerSocket server;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();
    private HttpTransport transport;

    @BeforeEach
    void start() throws Exception {
        server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    sockets.add(s);
                    accepted.incrementAndGet();
                    Thread.ofVirtual().start(() -> serve(s));
                } catch (Exception e) {
                    return;
                }
            }
        });
        transport = new HttpTransport(1, Duration.ofSeconds(2), RunClock.system());
    }

    @AfterEach
    void stop() throws Exception {
        transport.close();
        server.close();
    }

    private H1Pool pool() {
        return pool(1);
    }

    private H1Pool pool(int connections) {
        HttpRequestTemplate t = new HttpRequestTemplate("http://127.0.0.1:" + server.getLocalPort() + "/", "GET",
                List.of(), (byte[]) null);
        return new H1Pool(transport, t, new HttpOutcomes(Set.of()),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), null, connections,
                TimeUnit.SECONDS.toNanos(5));
    }

    /**
     * A connection that failed goes back to the idle stack's bottom: on top, it was taken first again and again (a
     * refused reconnect each time) while a connection that worked stood idle under it.
     */
    @Test
    void aConnectionThatFailedIsTakenLastNotFirst() throws Exception {
        H1Pool pool = pool(2);
        pool.open(2, 5_000);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (sockets.size() < 2 && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        assertEquals(2, sockets.size(), "both opened ahead");
        server.close(); // no new connection from here: a reconnect is refused
        sockets.get(0).close(); // and one of the two is gone
        List<Outcome> outcomes = new java.util.ArrayList<>();
        for (int i = 0; i < 6; i++) {
            CompletableFuture<Outcome> done = new CompletableFuture<>();
            pool.send(i, done::complete);
            outcomes.add(done.get(5, TimeUnit.SECONDS));
        }
        // the dead one fails once or twice (its close seen before the request, or as the request meets it; then its
        // refused reconnect), then sits under the open one: it took the rest, where the dead one went first each time
        Outcome ok = Outcome.of("2xx", false);
        assertEquals(List.of(ok, ok, ok, ok), outcomes.subList(2, 6), "the open connection took the rest: " + outcomes);
        pool.close();
    }

    /**
     * The warm-up's wait for its connections ran out (a slow target, a deadline): the first request waits for the
     * connection opened ahead; it opened a second one beside it, and the first stayed open, referred to by nothing.
     */
    @Test
    void aFirstRequestWhileTheConnectionOpenedAheadStillConnectsGoesOnIt() throws Exception {
        H1Pool pool = pool();
        pool.open(1, 0);
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        pool.send(0, done::complete);
        assertEquals(Outcome.of("2xx", false), done.get(5, TimeUnit.SECONDS));
        // both connects were made before the response came; give the accepting thread time to count a second
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        while (System.nanoTime() < until && accepted.get() < 2) {
            Thread.sleep(10);
        }
        assertEquals(1, accepted.get(), "one connection, the one opened ahead");
        pool.close();
    }

    /**
     * A request handed to a connection as the pool closes, its hand-over queued after the connection's close, is
     * cancelled: it opened a new connection after the close and sent its request there.
     */
    @Test
    void aRequestHandedOverAfterTheConnectionsCloseIsCancelledAndNotSent() throws Exception {
        H1Pool pool = pool();
        H1Connection c = pool.connection(0);
        pool.close(); // queues the connection's close on its event loop
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        c.dispatch(0, done::complete); // as a taker that got it idle just before the close would
        assertEquals(Outcome.CANCELLED, done.get(5, TimeUnit.SECONDS));
        assertEquals(0, accepted.get() + requests.get(), "nothing reached the server");
        transport.close();
        CompletableFuture<Outcome> late = new CompletableFuture<>();
        c.dispatch(1, late::complete); // its event loop has shut down: it threw RejectedExecutionException
        assertEquals(Outcome.CANCELLED, late.get(5, TimeUnit.SECONDS));
    }

    /**
     * An https server that ended the idle connection with a close_notify, its FIN not sent: the next GET went out on
     * the dead session and waited its whole timeout. It now goes on a new connection, as after a FIN.
     */
    @Test
    void aGetAfterTheServersCloseNotifyOnTheIdleConnectionGoesOnANewOne(@TempDir Path keys) throws Exception {
        try (ClosesIdleTlsServer tls = new ClosesIdleTlsServer(keys)) {
            HttpRequestTemplate t = new HttpRequestTemplate("https://127.0.0.1:" + tls.port() + "/", "GET",
                    List.of(), (byte[]) null);
            SslContext insecure = SslContextBuilder.forClient()
                    .trustManager(InsecureTrustManagerFactory.INSTANCE).build();
            H1Pool pool = new H1Pool(transport, t, new HttpOutcomes(Set.of()),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), tls.port()), insecure, 1,
                    TimeUnit.SECONDS.toNanos(5));
            for (int i = 0; i < 3; i++) {
                CompletableFuture<Outcome> done = new CompletableFuture<>();
                pool.send(i, done::complete);
                assertEquals(Outcome.of("2xx", false), done.get(4, TimeUnit.SECONDS), "request " + i);
                while (tls.closedIdle.get() < i + 1) {
                    Thread.sleep(5); // the server has sent its close_notify: the connection is idle and over
                }
            }
            assertEquals(3, tls.answered.get());
            assertEquals(3, tls.connections.get(), "a connection each");
            pool.close();
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            int state = 0;
            for (int b; (b = in.read()) >= 0; ) {
                boolean next = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3));
                state = next ? state + 1 : 0;
                if (state == 4) {
                    state = 0;
                    requests.incrementAndGet();
                    s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                            .getBytes(StandardCharsets.US_ASCII));
                }
            }
        } catch (Exception e) {
            // closed
        }
    }
}
