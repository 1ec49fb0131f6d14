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
