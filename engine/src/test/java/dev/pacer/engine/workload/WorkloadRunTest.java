package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.Shard;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.scenario.ScenarioParser;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A workload through the Java API and a scenario file, against the JDK's HTTP server. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkloadRunTest {

    @TempDir
    Path dir;

    @Test
    void theApiRunsAWorkloadsMixAndItsShardsTogetherSendTheSameRequests() throws Exception {
        Map<String, LongAdder> seen = new ConcurrentHashMap<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", x -> {
            seen.computeIfAbsent(x.getRequestURI().toString(), k -> new LongAdder()).increment();
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        server.start();
        try {
            Path file = dir.resolve("w.yaml");
            Files.writeString(file, """
                    base: http://127.0.0.1:%d
                    bindings: {id: "uniform(1, 1000000)"}
                    ops:
                      a: {weight: 3, request: "GET /a/{id}/{cycle}", check: {status: 200}}
                      b: {weight: 1, request: "GET /b/{id}/{cycle}", check: {status: 200}}
                    """.formatted(server.getAddress().getPort()));
            Summary one = LoadTest.rate(2000).workload(file).cycles(400).run().summary();
            assertEquals(400, one.ops());
            assertEquals(400L, one.outcomes().get("ok"));
            Map<String, Long> single = snapshot(seen);
            assertEquals(300, single.keySet().stream().filter(k -> k.startsWith("/a/")).count());
            seen.clear();
            for (int i = 0; i < 4; i++) {
                Summary s = LoadTest.rate(2000).workload(file).cycles(400).shard(new Shard(i, 4)).run().summary();
                assertEquals(100, s.ops());
            }
            Map<String, Long> sharded = snapshot(seen);
            assertEquals(300, sharded.keySet().stream().filter(k -> k.startsWith("/a/")).count(),
                    "every shard ran 3:1 over its own cycles");
            assertEquals(single.keySet().stream().map(k -> k.substring(2)).sorted().toList(),
                    sharded.keySet().stream().map(k -> k.substring(2)).sorted().toList(),
                    "the same cycles sent the same data; only which op ran them moved");
        } finally {
            server.stop(0);
        }
    }

    private static Map<String, Long> snapshot(Map<String, LongAdder> seen) {
        Map<String, Long> out = new TreeMap<>();
        seen.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    @Test
    void aScenarioNamesItsWorkloadRelativeToItself() throws Exception {
        Path file = dir.resolve("s.yaml");
        Files.writeString(file, "workload: shop.yaml\nphases:\n  - {duration: 1s, rate: 10}\n");
        Scenario s = ScenarioParser.parse(file);
        assertEquals("workload:" + dir.toAbsolutePath().resolve("shop.yaml"), s.op());
    }
}
