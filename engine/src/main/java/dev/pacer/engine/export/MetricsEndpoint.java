package dev.pacer.engine.export;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.text.JdkServerSettings;
import dev.pacer.engine.text.LoopbackHost;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The Prometheus scrape endpoint of a run ({@code GET /metrics}, text or protobuf as the scraper asks),
 * served by the Prometheus client's scrape handler on the JDK's HTTP server, on a registry of its own. The same
 * rules as the control endpoint (and its limits: {@link JdkServerSettings}): it binds loopback unless told
 * otherwise, and then needs a bearer token, which
 * every scrape must send ({@code Authorization: Bearer TOKEN}, as Prometheus's
 * {@code authorization: credentials} sends it). Only {@code GET} and {@code HEAD}; on loopback only with a
 * {@code Host} naming this machine (as the control endpoint). {@code /-/healthy} answers "Exporter is healthy.";
 * {@code /} a line naming {@code /metrics}; any other path 404 (the client's own landing page would answer every path
 * with 200).
 */
public final class MetricsEndpoint implements AutoCloseable {

    static {
        JdkServerSettings.apply(); // the control endpoint's limits, whether or not the run has one
    }

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts serving {@code metrics} at {@code address}.
     *
     * @param text  the address as the user gave it, for messages
     * @param token the bearer token, or null (then the address must be loopback)
     */
    public static MetricsEndpoint start(InetSocketAddress address, String text, String token, MultiCollector metrics)
            throws IOException {
        if (!address.getAddress().isLoopbackAddress() && token == null) {
            throw new SettingException("metrics", text, "listens beyond this machine, so it needs ${control-token}");
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(metrics);
        // scrapes are rare and small; virtual threads keep a slow client from holding up another
        ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("pacer-metrics")
                .factory());
        // the JDK server, set up here rather than by the client's HTTPServer, whose accept queue is 3 deep (60 scrapes
        // at once waited 1 s for a SYN's retransmission, half of them) and which takes no backlog
        HttpServer server;
        try {
            server = HttpServer.create(address, JdkServerSettings.BACKLOG);
        } catch (BindException e) {
            executor.shutdownNow();
            throw new SettingException("metrics", text, "cannot listen there (" + e.getMessage() + ")");
        }
        Gate gate = new Gate(address.getAddress().isLoopbackAddress(), token);
        server.createContext("/metrics", new MetricsHandler(registry)).setAuthenticator(gate);
        server.createContext("/-/healthy", MetricsEndpoint::healthy).setAuthenticator(gate);
        server.createContext("/", MetricsEndpoint::rootOrNotFound).setAuthenticator(gate);
        server.setExecutor(executor);
        server.start();
        return new MetricsEndpoint(server, executor);
    }

    /** {@code /-/healthy}, as the client's own server answers it. */
    private static void healthy(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            byte[] body = "Exporter is healthy.\n".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            if (!head) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    /** {@code /}: one line naming the scrape path; any path the server has no handler for: 404. */
    private static void rootOrNotFound(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            boolean root = exchange.getRequestURI().getPath().equals("/");
            byte[] body = (root ? "pacer's Prometheus endpoint: GET /metrics\n" : "not found: GET /metrics\n")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(root ? 200 : 404, head ? -1 : body.length);
            if (!head) {
                exchange.getResponseBody().write(body);
            }
        }
    }

    /** The bound port (the real one when 0 was asked). */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /**
     * What every request passes before it is served: a {@code GET} or {@code HEAD} (405), with a {@code Host} naming
     * this machine when the endpoint listens on loopback (403: a page of another site whose name was rebound to
     * 127.0.0.1 would otherwise read the run's figures, as the control endpoint refuses it), carrying {@code
     * Authorization: Bearer TOKEN} (scheme in any case) when a token is set (401).
     */
    private static final class Gate extends Authenticator {
        private final boolean loopback;
        private final byte[] token;

        Gate(boolean loopback, String token) {
            this.loopback = loopback;
            this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Result authenticate(HttpExchange exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                return new Failure(405);
            }
            String host = exchange.getRequestHeaders().getFirst("Host");
            if (loopback && host != null && !LoopbackHost.names(host)) {
                return new Failure(403);
            }
            if (token == null) {
                return new Success(new HttpPrincipal("scraper", "pacer"));
            }
            String given = exchange.getRequestHeaders().getFirst("Authorization");
            if (given != null && given.regionMatches(true, 0, "Bearer ", 0, 7)
                    && MessageDigest.isEqual(token, given.substring(7).strip().getBytes(StandardCharsets.UTF_8))) {
                return new Success(new HttpPrincipal("scraper", "pacer"));
            }
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            return new Failure(401);
        }
    }
}
