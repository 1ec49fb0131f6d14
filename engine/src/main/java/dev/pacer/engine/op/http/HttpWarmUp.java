package dev.pacer.engine.op.http;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Warms the JDK's HTTP client code by sending requests to a throwaway server on loopback, with a
 * throwaway client: nothing reaches the system under test, and the op's own client starts with an
 * empty connection pool. Measured here: without it the first ~2 s of a 10k req/s run fall seconds
 * behind while the JIT compiles the client (class loading alone makes the first request ~85 ms late).
 * It runs {@link #THREADS} concurrent senders for {@link #DURATION} or {@link #REQUESTS}, whichever
 * comes first.
 */
final class HttpWarmUp {

    static final Duration DURATION = Duration.ofMillis(3000);
    static final int REQUESTS = 40_000;
    static final int THREADS = 16;

    private HttpWarmUp() {
    }

    static void run(HttpClient.Version version) throws IOException, InterruptedException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(200, 2);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(new byte[] {'o', 'k'});
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.start();
        long deadline = System.nanoTime() + DURATION.toNanos();
        AtomicLong sent = new AtomicLong();
        try (HttpClient client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(5))
                .executor(Runnable::run).build()) {
            URI uri = URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/");
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build();
            Thread[] senders = new Thread[THREADS];
            for (int i = 0; i < THREADS; i++) {
                senders[i] = Thread.ofVirtual().start(() -> {
                    try {
                        while (System.nanoTime() < deadline && sent.incrementAndGet() <= REQUESTS) {
                            client.send(request, HttpResponse.BodyHandlers.discarding());
                        }
                    } catch (IOException | InterruptedException e) {
                        // a warm-up that cannot finish leaves the run colder, nothing worse
                    }
                });
            }
            for (Thread t : senders) {
                t.join();
            }
        } finally {
            server.stop(0);
            ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
        }
    }
}
