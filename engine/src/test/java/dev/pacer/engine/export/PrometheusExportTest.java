package dev.pacer.engine.export;

import dev.pacer.engine.Fixtures;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.text.Json;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pacer's metrics as a real Prometheus (Debian's package, on loopback) scrapes and queries them: the
 * op counter's rate is the target, and the p99 Prometheus computes from the native histogram is the p99
 * of pacer's own intervals over the same seconds, to within the buckets' resolution.
 */
class PrometheusExportTest {

    @TempDir
    Path dir;

    final HttpClient client = HttpClient.newHttpClient();

    static Path prometheusBinary() {
        for (String candidate : List.of("/usr/bin/prometheus", "/usr/local/bin/prometheus")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }


    @Test
    void prometheusSeesTheTargetRateAndPacersOwnP99() throws Exception {
        Path prometheus = prometheusBinary();
        if (prometheus == null) {
            if ("1".equals(System.getenv("PACER_REQUIRE_PROMETHEUS"))) {
                throw new AssertionError("Prometheus is required (PACER_REQUIRE_PROMETHEUS=1) but not installed: run "
                        + ".ci/prometheus.sh");
            }
            System.err.println("!!! SKIPPING the Prometheus test: it is not installed (apt-get install prometheus)");
            Assumptions.abort("prometheus is not installed");
        }
        int metricsPort = Fixtures.freePort();
        int promPort = Fixtures.freePort();
        Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 1s
                scrape_configs:
                  - job_name: pacer
                    static_configs:
                      - targets: ['127.0.0.1:%d']
                """.formatted(metricsPort));
        Process server = new ProcessBuilder(prometheus.toString(), "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + promPort,
                "--enable-feature=native-histograms")
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        try {
            awaitReady(promPort, server);
            List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
            LoadTest.Running run = LoadTest.rate(2000).threads(16).virtualThreads(true).op("sleep:uniform(1ms,5ms)")
                    .duration(Duration.ofSeconds(16)).metrics("127.0.0.1:"
                            + metricsPort).onInterval(intervals::add).start();
            LoadTest.Result result = run.await(Duration.ofSeconds(60));
            assertTrue(result.summary().ops() > 30_000, "the run went: " + result.summary().ops());

            // the window: the 10 s up to second 15 of the run (past the start-up, scraped on both sides)
            double startEpoch = intervals.get(0).stats().histogram(Metric.RESPONSE).getStartTimeStamp() / 1000.0;
            double at = startEpoch + 15;
            assertEquals(2000, scalar(promPort, "sum(rate(pacer_ops_total[10s]))", at), 2000 * 0.03,
                    "Prometheus's rate of the op counter");

            // the same data on both sides: the intervals pacer published between the window's first and last scrape
            JsonNode samples = query(promPort, "pacer_ops_total[10s]", at).get(0).path("values");
            double firstScrape = samples.get(0).get(0).asDouble();
            double lastScrape = samples.get(samples.size() - 1).get(0).asDouble();
            long counted = samples.get(samples.size() - 1).get(1).asLong() - samples.get(0).get(1).asLong();
            Histogram window = IntervalStats.newHistogram();
            for (IntervalReport r : intervals) {
                double end = r.stats().histogram(Metric.RESPONSE).getEndTimeStamp() / 1000.0;
                if (end > firstScrape && end <= lastScrape) {
                    window.add(r.stats().histogram(Metric.RESPONSE));
                }
            }
            assertEquals(window.getTotalCount(), counted, "Prometheus counted exactly pacer's ops between its scrapes");
            double promP99 = scalar(promPort, "histogram_quantile(0.99, rate(pacer_response_seconds[10s]))", at);
            double pacerP99 = window.getValueAtPercentile(99) / 1e9;
            // a native bucket is 2.2 % wide and Prometheus interpolates inside it
            assertEquals(pacerP99, promP99, pacerP99 * 0.03, "p99: Prometheus " + promP99 + " s, pacer " + pacerP99
                    + " s");
        } finally {
            server.destroy();
            server.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The one series a query returns, at {@code atEpochSec}. */
    JsonNode query(int port, String query, double atEpochSec) throws Exception {
        String url = "http://127.0.0.1:" + port + "/api/v1/query?query=" + URLEncoder.encode(query,
                StandardCharsets.UTF_8)
                + "&time=" + atEpochSec;
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = Json.MAPPER.readTree(r.body());
        assertEquals("success", body.path("status").asText(), r.body());
        JsonNode result = body.path("data").path("result");
        assertEquals(1, result.size(), query + ": " + r.body());
        return result;
    }

    double scalar(int port, String query, double atEpochSec) throws Exception {
        return query(port, query, atEpochSec).get(0).path("value").get(1).asDouble();
    }

    void awaitReady(int port, Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new AssertionError("prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            try {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/-/ready"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("prometheus did not become ready: " + Files.readString(dir.resolve("prometheus.log")));
    }
}
