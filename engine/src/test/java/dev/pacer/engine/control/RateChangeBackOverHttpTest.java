package dev.pacer.engine.control;

import dev.pacer.engine.api.ControlEndpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.text.Json;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The run end to end: 4 workers at 1000/s, {@code POST /rate 0.01}, a second later {@code POST /rate 1000}
 * through the real control endpoint. The workers parked on slots priced at 100 s must be rescheduled: ops resume
 * at once. Wall clock, so judged loosely: a thousand ops within ten seconds (one at 1000/s), where a stalled run
 * makes none for a hundred.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RateChangeBackOverHttpTest {

    @ParameterizedTest
    @ValueSource(strings = {"atomic", "leaky", "bucket"})
    void aBriefLowRateSetBackOverHttpResumesTheRun(String design) throws Exception {
        ActivityConfig config = new ActivityConfig(OpSpec.parse("noop"), 4, false, RateSpec.parse("1000"), null, 0, 0,
                Arrivals.UNIFORM, null, null, null, LimiterDesign.parse(design));
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        LoadRun run = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(100)).build(), cycle -> null,
                sink, sink);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread runner = new Thread(() -> {
            try {
                run.run();
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        runner.start();
        try (HttpClient client = HttpClient.newHttpClient();
             HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("127.0.0.1:0"), null,
                     run.controller())) {
            assertTrue(run.activity().awaitStarted(20, TimeUnit.SECONDS),
                    () -> "the run did not start: " + failed.get());
            String base = "http://127.0.0.1:" + s.address().getPort();
            awaitOps(client, base, 500, 20_000); // running at 1000/s
            assertEquals(200, post(client, base + "/rate", "0.01").statusCode());
            Thread.sleep(1_000); // the scenario: a second at the low rate, workers parked on slots 100 s apart
            assertEquals(200, post(client, base + "/rate", "1000").statusCode());
            long from = ops(client, base);
            long reached = awaitOps(client, base, from + 1_000, 10_000);
            assertTrue(reached >= from + 1_000, design + ": " + (reached - from)
                    + " ops in the 10 s after the rate was set back to 1000/s");
        } finally {
            run.requestStop(StopReason.CONTROL, "test");
            runner.join(20_000);
        }
    }

    static HttpResponse<String> post(HttpClient client, String url, String body) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return client.send(r, HttpResponse.BodyHandlers.ofString());
    }

    static long ops(HttpClient client, String base) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base + "/status")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return Json.MAPPER.readTree(r.body()).get("ops").asLong();
    }

    /** Polls the status until its op count reaches {@code target} or {@code millis} pass; the last count seen. */
    static long awaitOps(HttpClient client, String base, long target, long millis) throws Exception {
        long deadline = System.nanoTime() + millis * 1_000_000;
        long n = ops(client, base);
        while (n < target && System.nanoTime() < deadline) {
            Thread.sleep(100);
            n = ops(client, base);
        }
        return n;
    }
}
