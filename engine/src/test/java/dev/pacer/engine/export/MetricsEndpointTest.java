package dev.pacer.engine.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.SettingException;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The scrape endpoint's paths and its bearer token, against the JDK's HTTP client. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MetricsEndpointTest {

    private static final MultiCollector SEVEN = () -> MetricSnapshots.of(CounterSnapshot.builder().name("pacer_test")
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(7).build()).build());

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> send(int port, String method, String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    @Test
    void metricsIsServedTheRootNamesItAndAnyOtherPathIsNotFound() throws Exception {
        try (MetricsEndpoint m = MetricsEndpoint.start(loopback(), "127.0.0.1:0", null, SEVEN)) {
            HttpResponse<String> metrics = send(m.port(), "GET", "/metrics", null);
            assertEquals(200, metrics.statusCode());
            assertTrue(metrics.body().contains("pacer_test_total 7.0"), metrics.body());
            HttpResponse<String> root = send(m.port(), "GET", "/", null);
            assertEquals(200, root.statusCode());
            assertTrue(root.body().contains("GET /metrics"), root.body());
            assertEquals(200, send(m.port(), "GET", "/-/healthy", null).statusCode());
            for (String path : new String[] {"/nope", "/favicon.ico", "/../etc/passwd", "/index.html?x=1"}) {
                HttpResponse<String> r = send(m.port(), "GET", path, null);
                assertEquals(404, r.statusCode(), path + ": " + r.body());
                assertTrue(!r.body().contains("pacer_test"), path + " served no metrics");
            }
            HttpResponse<String> head = send(m.port(), "HEAD", "/nope", null);
            assertEquals(404, head.statusCode());
            assertEquals("", head.body());
        }
    }

    @Test
    void withATokenEveryPathNeedsItAndTheSchemeIsCaseInsensitive() throws Exception {
        try (MetricsEndpoint m = MetricsEndpoint.start(loopback(), "127.0.0.1:0", "s3cret", SEVEN)) {
            for (String path : new String[] {"/metrics", "/", "/nope"}) {
                HttpResponse<String> none = send(m.port(), "GET", path, null);
                assertEquals(401, none.statusCode(), path);
                assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElse(""), path);
                assertEquals(401, send(m.port(), "GET", path, "Bearer s3cre").statusCode(), path);
                assertEquals(401, send(m.port(), "GET", path, "s3cret").statusCode(), path);
            }
            HttpResponse<String> ok = send(m.port(), "GET", "/metrics", "bearer s3cret");
            assertEquals(200, ok.statusCode());
            assertTrue(ok.body().contains("pacer_test_total 7.0"), ok.body());
            assertEquals(404, send(m.port(), "GET", "/nope", "Bearer s3cret").statusCode());
        }
    }

    @Test
    void onlyGetAndHeadAreServedAndOnLoopbackOnlyForAHostNamingThisMachine() throws Exception {
        try (MetricsEndpoint m = MetricsEndpoint.start(loopback(), "127.0.0.1:0", null, SEVEN)) {
            for (String method : new String[] {"POST", "DELETE", "PUT"}) {
                HttpResponse<String> r = send(m.port(), method, "/metrics", null);
                assertEquals(405, r.statusCode(), method);
                assertEquals("GET, HEAD", r.headers().firstValue("Allow").orElse(""), method);
                assertTrue(!r.body().contains("pacer_test"), method + " served no metrics");
            }
            assertEquals(200, send(m.port(), "HEAD", "/metrics", null).statusCode());
            for (String host : new String[] {"localhost:" + m.port(), "127.0.0.1", "[::1]:" + m.port()}) {
                assertEquals(200, raw(m.port(), host), host);
            }
            for (String host : new String[] {"evil.example", "evil.example:" + m.port(), "127.0.0.1.evil.example"}) {
                assertEquals(403, raw(m.port(), host), host);
            }
        }
    }

    /** The status of {@code GET /metrics} with a {@code Host} header of our choosing (the JDK client sets its own). */
    private static int raw(int port, String host) throws Exception {
        try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(("GET /metrics HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }

    @Test
    void beyondLoopbackWithoutATokenAndABusyPortAreOneLineEach() throws Exception {
        SettingException open = assertThrows(SettingException.class, () -> MetricsEndpoint.start(
                new InetSocketAddress("0.0.0.0", 0), "0.0.0.0:0", null, SEVEN));
        assertTrue(open.getMessage().contains("0.0.0.0:0") && open.getMessage().contains("token"), open.getMessage());
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String text = "127.0.0.1:" + busy.getLocalPort();
            SettingException taken = assertThrows(SettingException.class, () -> MetricsEndpoint.start(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), busy.getLocalPort()), text, null, SEVEN));
            assertTrue(taken.getMessage().contains(text) && taken.getMessage().contains("cannot listen there"),
                    taken.getMessage());
        }
    }
}
