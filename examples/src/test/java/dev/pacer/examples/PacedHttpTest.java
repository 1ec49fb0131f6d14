package dev.pacer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Outcome;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A load test in a JUnit test: your own op (here, a call through the JDK's HTTP client) paced at
 * 200 requests a second against a service (here, the JDK's HTTP server), with a latency gate.
 */
class PacedHttpTest {

    HttpServer service;
    final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void startService() throws Exception {
        service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        service.createContext("/", exchange -> {
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/boom") ? 500 : 200, -1);
            exchange.close();
        });
        service.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        service.start();
    }

    @AfterEach
    void stopService() {
        service.stop(0);
        client.close();
    }

    /** Your op: one call to the service; a 5xx is an error outcome, any exception is one too. */
    Outcome call(String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + service.getAddress().getPort() + path);
        int status = client.send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
        return status >= 500 ? Outcome.of("5xx", true) : Outcome.OK;
    }

    @Test
    void theServiceHolds200RequestsASecondWithinItsLatencyGoal() throws Exception {
        LoadTest.Result result = LoadTest.rate(200)
                .threads(8)
                .op(cycle -> call("/items/" + cycle))
                .duration(Duration.ofSeconds(3))
                .threshold("response.p99<250ms")      // generous: a shared CI machine
                .threshold("achieved>=0.95*target")
                .threshold("errors<1")
                .run();

        assertTrue(result.passed(), result.failure());
        long ops = result.summary().ops();
        // 600 slots in 3 s; on a loaded machine the last few may find all 8 threads still in a call at the end
        assertTrue(ops >= 570 && ops <= 600, "ops: " + ops);
        assertEquals(ops, result.histogram(Metric.RESPONSE).getTotalCount(), "each op recorded once");
    }

    @Test
    void errorsFailTheGate() throws Exception {
        LoadTest.Result result = LoadTest.rate(100).threads(2).op(cycle -> call("/boom")).cycles(50).run();

        assertTrue(!result.passed());
        assertEquals(50, result.summary().errors());
    }
}
