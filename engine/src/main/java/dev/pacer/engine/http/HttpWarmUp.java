package dev.pacer.engine.http;

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

/**
 * Warms the JDK's HTTP client code (class loading, first-use setup, a first round of JIT) by sending
 * requests to a throwaway server on loopback, with a throwaway client: nothing reaches the system
 * under test, and the op's own client starts with an empty connection pool.
 */
final class HttpWarmUp {

    static final int REQUESTS = 300;

    private HttpWarmUp() {
    }

    static void run(HttpClient.Version version) throws IOException, InterruptedException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(200, 2);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(new byte[] {'o', 'k'});
            }
        });
        server.start();
        try (HttpClient client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(5)).build()) {
            URI uri = URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/");
            for (int i = 0; i < REQUESTS; i++) {
                client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
            }
        } finally {
            server.stop(0);
        }
    }
}
