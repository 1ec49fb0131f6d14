package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload file run as users run it ({@code pacer run shop.yaml --rate 5k}) against a private nginx whose config
 * gives each path its status and body; nginx's access log judges the mix: exact counts by path. Skips loudly
 * without nginx unless {@code PACER_REQUIRE_NGINX=1}.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class WorkloadEndToEndTest {

    static final String SHOP = """
            name: shop
            base: http://127.0.0.1:%d
            vars: {items: 100000, users: 50000}
            bindings:
              user: uniform(1, ${users})
              item: zipf(${items}, 1.1) | permute
              qty:  uniform(1, 5)
              ref:  uuid()
            ops:
              browse: {weight: 70, request: "GET /items/{item}?user={user}", check: {status: 200, json: {/id: \
            "{item}"}}}
              add-to-cart:
                weight: 25
                request: POST /users/{user}/cart
                json: {item: "{item}", qty: "{qty}"}
                check: {status: [200, 201], body: added}
              checkout:
                weight: 5
                steps:
                  - {request: "POST /users/{user}/orders", json: {ref: "{ref}"}, check: {status: 201}, save: {order: \
            json(/orderId)}}
                  - {request: "POST /orders/{order}/pay", check: {status: 200, body: paid}}
            """;

    static final String LOCATIONS = """
            location ~ ^/items/([0-9]+)$ { default_type application/json; return 200 '{"id": $1, "name": "item $1"}'; }
                    location ~ ^/users/([0-9]+)/cart$ { return 201 'added'; }
                    location ~ ^/users/([0-9]+)/orders$ { default_type application/json; return 201 '{"orderId": \
            "o-$1"}'; }
                    location ~ ^/orders/o-([0-9]+)/pay$ { return 200 'paid'; }
                    location / { return 404; }
            """;

    @TempDir
    Path dir;

    @Test
    void aSeventyTwentyFiveFiveMixAt5000PerSecondIsExactByPathInNginxsLog() throws Exception {
        Path nginx = NginxServer.binary();
        if (nginx == null) {
            if ("1".equals(System.getenv("PACER_REQUIRE_NGINX"))) {
                throw new AssertionError("nginx is required (PACER_REQUIRE_NGINX=1) but not installed: run "
                        + ".ci/nginx.sh");
            }
            System.err.println("!!! SKIPPING the workload nginx test: nginx is not installed (.ci/nginx.sh)");
            Assumptions.abort("nginx is not installed");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.writeString(dir.resolve("shop.yaml"), SHOP.formatted(port));
        NginxServer server = NginxServer.startWithLocations(nginx, dir, List.of(), "127.0.0.1", port, LOCATIONS,
                "'$request_method $uri $status'");
        PacerProcess.Result r;
        try {
            r = PacerProcess.run(dir, 180, "run", "shop.yaml", "--rate", "5k", "--cycles", "20000",
                    "--summary", "shop.json", "--hlog", "shop.hlog", "-q");
        } finally {
            server.close();
        }
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("shop.json").toFile());
        assertEquals(20_000, summary.get("ops").asLong());
        assertEquals(20_000, summary.get("outcomes").get("ok").asLong(), "every check passed: "
                + summary.get("outcomes"));
        assertTrue(r.stdout().lines().anyMatch(l -> l.matches("  browse +14000 +0 .*")), r.stdout());
        assertTrue(r.stdout().lines().anyMatch(l -> l.matches("  checkout +1000 +0 .*")), r.stdout());
        JsonNode perOp = summary.get("perOp");
        assertEquals(List.of(14_000L, 5_000L, 1_000L), List.of(perOp.get("browse").get("ops").asLong(),
                perOp.get("add-to-cart").get("ops").asLong(), perOp.get("checkout").get("ops").asLong()),
                "each op's count, as nginx's log has it below");
        JsonNode steps = perOp.get("checkout").get("steps");
        assertEquals(2, steps.size(), "checkout's two steps, each timed: " + perOp.get("checkout"));
        assertEquals(List.of(1_000L, 1_000L), List.of(steps.get(0).get("count").asLong(),
                steps.get(1).get("count").asLong()));
        assertTrue(r.stdout().lines().anyMatch(l -> l.matches("  checkout #2 +1000 .*")), r.stdout());
        PacerProcess.Result report = PacerProcess.run(dir, 60, "report", "shop.hlog");
        assertEquals(0, report.exitCode(), report.stdout() + report.stderr());
        assertTrue(report.stdout().contains("service.checkout#2"), "the report reads the steps' tags: "
                + report.stdout());

        Map<String, Long> byPath = new TreeMap<>();
        List<String> orders = new java.util.ArrayList<>();
        List<String> pays = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("access.log"))) {
            String[] f = line.split(" ");
            String kind = f[0] + " " + f[1].replaceAll("[0-9]+", "N") + " " + f[2];
            byPath.merge(kind, 1L, Long::sum);
            if (f[1].endsWith("/orders")) {
                orders.add(f[1].replaceAll("\\D", ""));
            } else if (f[1].endsWith("/pay")) {
                pays.add(f[1].replaceAll("\\D", ""));
            }
        }
        assertEquals(Map.of("GET /items/N 200", 14_000L, "POST /users/N/cart 201", 5_000L,
                "POST /users/N/orders 201", 1_000L, "POST /orders/o-N/pay 200", 1_000L), byPath);
        java.util.Collections.sort(orders);
        java.util.Collections.sort(pays);
        assertEquals(orders, pays, "each pay step used the order id its cycle's first step saved");
    }

    @Test
    void fourShardProcessesTogetherSendTheMixExactlyAsOneProcessDoes() throws Exception {
        Path nginx = NginxServer.binary();
        Assumptions.assumeTrue(nginx != null || "1".equals(System.getenv("PACER_REQUIRE_NGINX")), "nginx is not "
                + "installed");
        List<String> one = requests(nginx, dir.resolve("one"), List.of(List.of()));
        List<List<String>> shards = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            shards.add(List.of("--shard", i + "/4"));
        }
        List<String> four = requests(nginx, dir.resolve("four"), shards);
        assertEquals(2_100, one.size(), "2 000 cycles, the 100 checkouts two requests each");
        // the op of a cycle depends on the shard count (each shard's mix is exact in its own windows), its data
        // never does: the requests by op are the same counts, exactly
        Map<String, Long> kinds = Map.of("GET /items/N", 1_400L, "POST /users/N/cart", 500L, "POST /users/N/orders",
                100L,
                "POST /orders/o-N/pay", 100L);
        assertEquals(kinds, byKind(one));
        assertEquals(kinds, byKind(four), "four processes, each exact in its own windows of 20 cycles");
    }

    private static Map<String, Long> byKind(List<String> requests) {
        Map<String, Long> out = new TreeMap<>();
        requests.forEach(r -> out.merge(r.replaceAll("[0-9]+", "N"), 1L, Long::sum));
        return out;
    }

    /** The sorted "method path" lines nginx logged for 2 000 cycles run by these processes at once. */
    private static List<String> requests(Path nginx, Path dir, List<List<String>> processes) throws Exception {
        Files.createDirectories(dir);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // the orders' ids come from the user, so a pay step's path is a function of its cycle too
        Files.writeString(dir.resolve("shop.yaml"), SHOP.formatted(port).replace("check: {status: [200, 201], body: "
                + "added}",
                "check: {status: 201}"));
        NginxServer server = NginxServer.startWithLocations(nginx, dir, List.of(), "127.0.0.1", port, LOCATIONS,
                "'$request_method $uri'");
        try {
            List<PacerProcess> running = new java.util.ArrayList<>();
            for (List<String> extra : processes) {
                List<String> args = new java.util.ArrayList<>(List.of("run", "shop.yaml", "--rate", "1k", "--cycles",
                        "2000",
                        "-q"));
                args.addAll(extra);
                running.add(PacerProcess.start(dir, args.toArray(String[]::new)));
            }
            for (PacerProcess p : running) {
                PacerProcess.Result r = p.await(120);
                assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
            }
        } finally {
            server.close();
        }
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(dir.resolve("access.log")));
        java.util.Collections.sort(lines);
        return lines;
    }

    @Test
    void showPrintsTheRenderedRequestsWithoutSending() throws Exception {
        Files.writeString(dir.resolve("shop.yaml"), SHOP.formatted(9)); // nothing listens on port 9
        PacerProcess.Result r = PacerProcess.run(dir, 60, "show", "shop.yaml", "--cycles", "20");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals(14, r.stdout().lines().filter(l -> l.matches("cycle \\d+: browse")).count(), r.stdout());
        assertTrue(r.stdout().contains("cycle 8: checkout"), r.stdout());
        assertTrue(r.stdout().lines().anyMatch(l -> l.matches("  \\| GET /items/\\d+\\?user=\\d+ HTTP/1.1")),
                r.stdout());
        PacerProcess.Result one = PacerProcess.run(dir, 60, "show", "shop.yaml", "--cycle", "8");
        assertTrue(one.stdout().contains("cycle 8: checkout") && !one.stdout().contains("cycle 7"), one.stdout());
        String eighth = r.stdout().substring(r.stdout().indexOf("cycle 8:"), r.stdout().indexOf("cycle 9:")).strip();
        assertTrue(one.stdout().contains(eighth), "the same cycle renders the same requests");
    }

    @Test
    void aBrokenWorkloadIsOneLineAndExitTwo() throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), SHOP.formatted(9).replace("zipf(${items}, 1.1)", "zipf(${items}, "
                + "0)"));
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "bad.yaml", "--rate", "10", "--cycles", "1");
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        assertEquals(List.of("pacer: bad.yaml:6: binding 'item': zipf(n, s) needs an exponent s > 0, got 0"),
                r.stderr().lines().filter(l -> !l.startsWith("WARNING")).toList());
    }
}
