package dev.pacer.engine.workload;

import dev.pacer.engine.api.RunClock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.op.http.ClosesIdleTlsServer;
import dev.pacer.engine.op.http.DropsSecondRequestServer;
import dev.pacer.engine.op.http.SelfSignedKeys;
import dev.pacer.engine.op.http.RequestClient;
import dev.pacer.engine.api.OpSummary;
import dev.pacer.engine.api.Summary;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A workload's requests, checks and saves against the JDK's HTTP server on loopback. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkloadOpTest {

    private HttpServer server;
    private String base;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, String> bodies = new ConcurrentHashMap<>();
    private final AtomicInteger orders = new AtomicInteger();
    /** The Cookie header of each request to /me. */
    private final List<String> cookies = new CopyOnWriteArrayList<>();
    /** The client's port of the connection each order was created on ("o-1" -> port) and each path came on. */
    private final Map<String, Integer> createdOn = new ConcurrentHashMap<>();
    private final Map<String, Integer> pathOn = new ConcurrentHashMap<>();

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/", this::handle);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getRawPath();
        byte[] in = x.getRequestBody().readAllBytes();
        requests.add(x.getRequestMethod() + " " + x.getRequestURI().getRawPath()
                + (x.getRequestURI().getRawQuery() == null ? "" : "?" + x.getRequestURI().getRawQuery()));
        bodies.put(path, new String(in, StandardCharsets.UTF_8));
        pathOn.put(path, x.getRemoteAddress().getPort());
        int status = 200;
        String body = "";
        if (path.startsWith("/chunked/")) { // a length of 0: the JDK's server sends the body chunked
            x.getResponseHeaders().add("Content-Type", "application/json");
            x.sendResponseHeaders(200, 0);
            try (java.io.OutputStream o = x.getResponseBody()) {
                String id = path.substring("/chunked/".length());
                o.write(("{\"id\": " + (id.equals("13") ? 0 : id) + ", \"pad\": \"").getBytes(StandardCharsets.UTF_8));
                o.flush();
                o.write(("x".repeat(5000) + "\"}").getBytes(StandardCharsets.UTF_8));
            }
            return;
        } else if (path.equals("/big")) {
            byte[] big = new byte[RequestClient.MAX_BODY + 1];
            java.util.Arrays.fill(big, (byte) 'x');
            x.sendResponseHeaders(200, big.length);
            try (java.io.OutputStream o = x.getResponseBody()) {
                o.write(big);
            }
            return;
        } else if (path.startsWith("/items/")) {
            String id = path.substring("/items/".length());
            body = "{\"id\": " + (id.equals("13") ? 0 : id) + ", \"name\": \"item " + id + "\"}";
        } else if (path.equals("/orders")) {
            int n = orders.incrementAndGet();
            createdOn.put("o-" + n, x.getRemoteAddress().getPort());
            status = 201;
            body = in.length > 0 && new String(in, StandardCharsets.UTF_8).contains("\"ref\":7") ? "{}"
                    : "{\"orderId\": \"o-" + n + "\"}";
            x.getResponseHeaders().add("Location", "/orders/o-" + n);
        } else if (path.equals("/cart")) {
            body = "{\"cart\": {\"items\": [1, 2.5], \"note\": \"a\\\"b\"}, \"open\": true}";
        } else if (path.equals("/login")) { // the session cookie set twice (the last wins), among others
            x.getResponseHeaders().add("Set-Cookie", "theme=dark; Path=/");
            x.getResponseHeaders().add("Set-Cookie", "sid=first; Path=/");
            x.getResponseHeaders().add("Set-Cookie", " sid = s-" + orders.incrementAndGet() + " ; HttpOnly; Path=/");
            x.getResponseHeaders().add("Set-Cookie2", "sid=not-this");
        } else if (path.equals("/me")) {
            cookies.add(String.valueOf(x.getRequestHeaders().getFirst("Cookie")));
        } else if (path.equals("/never")) {
            return; // no response: the client's request timeout ends it
        } else if (path.startsWith("/slow/")) { // answers after this many milliseconds
            try {
                Thread.sleep(Long.parseLong(path.substring("/slow/".length())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else if (path.startsWith("/status/")) {
            status = Integer.parseInt(path.substring("/status/".length()));
        }
        byte[] out = body.getBytes(StandardCharsets.UTF_8);
        x.sendResponseHeaders(status, out.length == 0 ? -1 : out.length);
        if (out.length > 0) {
            x.getResponseBody().write(out);
        }
        x.close();
    }

    private WorkloadOp op(String yaml) throws IOException {
        return op(base, yaml, Duration.ofSeconds(10));
    }

    private WorkloadOp op(String url, String yaml, Duration timeout) throws IOException {
        Workload w = WorkloadParser.parse("base: " + url + "\n" + yaml, "w.yaml", dir, Map.of());
        return new WorkloadOp(w, 1, Duration.ofSeconds(5), timeout, 16, false, RunClock.system());
    }

    @Test
    void noResponseIsATimeoutAndNoServerIsRefused() throws Exception {
        try (WorkloadOp op = op(base, "ops: {a: {weight: 1, request: GET /never}}", Duration.ofMillis(300))) {
            assertEquals(CheckOutcomes.TIMEOUT, run(op, 0));
        }
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        try (WorkloadOp op = op("http://127.0.0.1:" + closed, "ops: {a: {weight: 1, request: GET /}}",
                Duration.ofSeconds(5))) {
            assertEquals(CheckOutcomes.REFUSED, run(op, 0));
        }
    }

    @Test
    void eachOpsCyclesAndErrorsAreCountedUnderItsNameAndAddUpToTheRun() throws Exception {
        Path file = dir.resolve("w.yaml");
        java.nio.file.Files.writeString(file, "base: " + base + "\n" + """
                ops:
                  browse: {weight: 3, request: "GET /items/{cycle}", check: {json: {/id: "{cycle}"}}}
                  fail: {weight: 1, request: "GET /status/500", check: {status: 200}}
                """);
        Summary s = LoadTest.rate(1000).workload(file).cycles(16).output(QUIET, QUIET).run().summary();
        assertEquals(List.of("browse", "fail"), s.perOp().stream().map(OpSummary::op).toList());
        OpSummary browse = s.perOp().get(0);
        OpSummary fail = s.perOp().get(1);
        assertEquals(12, browse.figures().ops());
        assertEquals(Map.of("check-json", 1L), browse.errorsByType(), "cycle 13's body is wrong");
        assertEquals(4, fail.figures().ops());
        assertEquals(Map.of("check-status", 4L), fail.errorsByType());
        assertEquals(s.ops(), browse.figures().ops() + fail.figures().ops(), "the ops add up to the run");
        assertEquals(s.errors(), browse.figures().errors() + fail.figures().errors());
        assertEquals(browse.figures().ops(),
                browse.figures().latencies().get(dev.pacer.engine.api.Metric.RESPONSE).count());
    }

    /**
     * Each step of a multi-step op records its own service time (WORKLOADS.md's contract 5): a slow second step
     * shows in step 2's figures, not in the others'; they add up to the op's; the .hlog tags them.
     */
    @Test
    void eachStepOfAnOpRecordsItsOwnServiceTime() throws Exception {
        Path file = dir.resolve("w.yaml");
        java.nio.file.Files.writeString(file, "base: " + base + "\n" + """
                ops:
                  browse: {weight: 1, request: "GET /items/{cycle}"}
                  checkout:
                    weight: 1
                    steps:
                      - {request: "GET /items/1"}
                      - {request: "GET /slow/80"}
                      - {request: "GET /items/2"}
                """);
        Path hlog = dir.resolve("w.hlog");
        Summary s = LoadTest.rate(40).workload(file).cycles(20).hlog(hlog).output(QUIET, QUIET).run().summary();
        OpSummary browse = s.perOp().get(0);
        OpSummary checkout = s.perOp().get(1);
        assertEquals(List.of(), browse.steps(), "an op of one step has no step figures");
        assertEquals(10, checkout.figures().ops());
        assertEquals(3, checkout.steps().size());
        for (dev.pacer.engine.api.LatencySummary step : checkout.steps()) {
            assertEquals(10, step.count(), "each cycle timed each step: " + checkout.steps());
        }
        long slow = checkout.steps().get(1).at("50");
        assertTrue(slow >= 80_000_000, "the slow step's p50 " + slow + " ns: its server waited 80 ms");
        assertTrue(checkout.steps().get(0).at("50") < slow && checkout.steps().get(2).at("50") < slow,
                "the fast steps are faster: " + checkout.steps());
        long sum = checkout.steps().stream().mapToLong(l -> (long) (l.mean() * l.count())).sum();
        double whole = checkout.figures().latencies().get(dev.pacer.engine.api.Metric.SERVICE).mean() * 10;
        assertEquals(whole, sum, whole * 0.01, "the steps' service times add up to the op's");
        String log = java.nio.file.Files.readString(hlog);
        assertTrue(log.contains("Tag=service.checkout#1,") && log.contains("Tag=service.checkout#3,")
                && !log.contains("Tag=service.browse#"), "the .hlog tags each step of checkout only");
    }

    private static final java.io.PrintStream QUIET = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());

    @Test
    void aCycleInFlightWhenTheOpClosesCompletesAsCancelled() throws Exception {
        WorkloadOp op = op(base, "ops: {a: {weight: 1, request: GET /never}}", Duration.ofSeconds(30));
        java.util.concurrent.CompletableFuture<Outcome> done = new java.util.concurrent.CompletableFuture<>();
        op.start(0, done::complete);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (requests.isEmpty() && System.nanoTime() < deadline) { // the request reached the server
            Thread.sleep(5);
        }
        op.close();
        assertEquals(Outcome.CANCELLED, done.get(10, TimeUnit.SECONDS));
    }

    @Test
    void manyCyclesInFlightAtOnceEachCompleteOnceOverSixteenConnections() throws Exception {
        try (WorkloadOp op = op("ops: {a: {weight: 1, request: \"GET /items/{cycle}\", "
                + "check: {json: {/id: \"{cycle}\"}}}}")) {
            java.util.Queue<Outcome> outcomes = new java.util.concurrent.ConcurrentLinkedQueue<>();
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(500);
            for (long c = 1000; c < 1500; c++) {
                op.start(c, o -> {
                    outcomes.add(o == null ? Outcome.OK : o);
                    done.countDown();
                });
            }
            assertTrue(done.await(30, TimeUnit.SECONDS));
            assertEquals(500, outcomes.size());
            assertTrue(outcomes.stream().allMatch(o -> o == Outcome.OK), outcomes.toString());
            assertEquals(500, requests.size());
        }
    }

    private static Outcome run(WorkloadOp op, long cycle) throws Exception {
        return op.run(cycle);
    }

    @Test
    void aStepCrossingAKeepAliveCloseIsResentOnceIfIdempotentAndCountedOnce() throws Exception {
        try (DropsSecondRequestServer server = new DropsSecondRequestServer()) {
            // two steps a cycle on one connection: every step after a connection's first is dropped once
            Workload get = WorkloadParser.parse("base: " + server.base() + "\nops: {a: {weight: 1, steps: ["
                    + "{request: GET /a}, {request: DELETE /b}]}}", "w.yaml", dir, Map.of());
            try (WorkloadOp op = new WorkloadOp(get, 1, Duration.ofSeconds(5), Duration.ofSeconds(10), 1, false,
                    RunClock.system())) {
                for (long c = 0; c < 20; c++) {
                    assertEquals(Outcome.OK, run(op, c), "cycle " + c);
                }
                assertEquals(RequestClient.resentLine(39), op.endLine(), "the run says what the server got twice");
            }
            assertEquals(40, server.answered.get(), "each step answered once");
            assertEquals(39, server.dropped.get(), "each connection's second request dropped, but the last's");

            server.reset();
            // a POST may have been processed: it is not sent again, and its cycle ends as a reset
            Workload post = WorkloadParser.parse("base: " + server.base() + "\nops: {a: {weight: 1, "
                    + "request: POST /b, body: x}}", "w.yaml", dir, Map.of());
            try (WorkloadOp op = new WorkloadOp(post, 1, Duration.ofSeconds(5), Duration.ofSeconds(10), 1, false,
                    RunClock.system())) {
                for (long c = 0; c < 6; c++) { // a new connection, then the same one again
                    assertEquals(c % 2 == 0 ? Outcome.OK : CheckOutcomes.RESET, run(op, c), "cycle " + c);
                }
            }
            assertEquals(3, server.answered.get());
            assertEquals(3, server.dropped.get());
        }
    }

    @Test
    void anHttpsBaseIsReachedWithInsecureAndAnUntrustedCertificateIsTls() throws Exception {
        javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLS");
        tls.init(SelfSignedKeys.in(dir).getKeyManagers(), null, null);
        com.sun.net.httpserver.HttpsServer secure = com.sun.net.httpserver.HttpsServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        secure.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(tls));
        secure.setExecutor(Executors.newFixedThreadPool(2));
        secure.createContext("/", this::handle);
        secure.start();
        try {
            Workload w = WorkloadParser.parse("base: https://127.0.0.1:" + secure.getAddress().getPort() + "\n"
                    + "ops: {a: {weight: 1, steps: [{request: \"GET /items/{cycle}\", "
                    + "check: {json: {/id: \"{cycle}\"}}}, {request: POST /orders, json: {ref: 1}, "
                    + "check: {status: 201}}]}}", "w.yaml", dir, Map.of());
            try (WorkloadOp op = new WorkloadOp(w, 1, Duration.ofSeconds(5), Duration.ofSeconds(10), 2, true,
                    RunClock.system())) {
                for (long c = 0; c < 10; c++) {
                    assertEquals(Outcome.OK, run(op, c), "cycle " + c);
                }
            }
            assertEquals(20, requests.size(), "both steps of each cycle reached the server: " + requests);
            assertEquals(10, orders.get());

            requests.clear();
            try (WorkloadOp op = new WorkloadOp(w, 1, Duration.ofSeconds(5), Duration.ofSeconds(10), 2, false,
                    RunClock.system())) {
                assertEquals(CheckOutcomes.TLS, run(op, 0), "the JDK's trust store does not hold the certificate");
            }
            assertEquals(List.of(), requests, "and nothing reached the server");
        } finally {
            secure.stop(0);
            ((java.util.concurrent.ExecutorService) secure.getExecutor()).shutdownNow();
        }
    }

    @Test
    void aTwoHundredWithAWrongBodyIsCheckJson() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  browse: {weight: 1, request: "GET /items/{cycle}", check: {status: 200, json: {/id: "{cycle}"}}}
                """)) {
            for (long c = 10; c < 16; c++) {
                assertEquals(c == 13 ? CheckOutcomes.CHECK_JSON : Outcome.OK, run(op, c), "cycle " + c);
            }
        }
    }

    /** A step that names no status takes 2xx or 304, as Gatling's implicit check: not a 404, a 500 or a redirect. */
    @Test
    void aStepThatNamesNoStatusTakes2xxOr304() throws Exception {
        for (Object[] c : new Object[][] {
                {"", 204, Outcome.OK}, {"", 304, Outcome.OK}, {"", 302, CheckOutcomes.CHECK_STATUS},
                {"", 404, CheckOutcomes.CHECK_STATUS}, {"", 500, CheckOutcomes.CHECK_STATUS},
                {", check: {regex: 'x*'}", 404, CheckOutcomes.CHECK_STATUS},
                {", check: {status: [2xx, 302]}", 302, Outcome.OK}, {", check: {status: 404}", 404, Outcome.OK},
                {", check: {warn: true}", 500, CheckOutcomes.WARN_STATUS}}) {
            try (WorkloadOp op = op("ops:\n  a: {weight: 1, request: GET /status/" + c[1] + c[0] + "}\n")) {
                assertEquals(c[2], run(op, 0), c[1] + " with" + c[0]);
            }
        }
    }

    @Test
    void aWrongStatusIsCheckStatusAndBodyChecksUseContainsAndRegex() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  a: {weight: 1, request: "GET /status/503", check: {status: [200, 2xx]}}
                """)) {
            assertEquals(CheckOutcomes.CHECK_STATUS, run(op, 0));
        }
        try (WorkloadOp op = op("""
                ops:
                  a: {weight: 1, request: "GET /items/{cycle}", check: {body: "item {cycle}", regex: '"id": [0-9]+'}}
                """)) {
            assertEquals(Outcome.OK, run(op, 4));
        }
        try (WorkloadOp op = op("""
                ops:
                  a: {weight: 1, request: "GET /items/{cycle}", check: {body: "nothing like it"}}
                """)) {
            assertEquals(CheckOutcomes.CHECK_BODY, run(op, 4));
        }
    }

    @Test
    void aSavedValueCarriesToTheNextStepAndJsonIsTyped() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  checkout:
                    weight: 1
                    steps:
                      - request: POST /orders
                        json: {ref: "{cycle}"}
                        check: {status: 201}
                        save: {order: json(/orderId), where: header(Location)}
                      - request: POST /orders/{order}/pay
                        json: {order: "{order}", at: "{where}"}
                        check: {status: 200}
                """)) {
            assertEquals(Outcome.OK, run(op, 3));
            assertEquals(List.of("POST /orders", "POST /orders/o-1/pay"), requests);
            assertEquals("{\"ref\":3}", bodies.get("/orders"));
            assertEquals("{\"order\":\"o-1\",\"at\":\"/orders/o-1\"}", bodies.get("/orders/o-1/pay"));
        }
    }

    @Test
    void aSavedObjectOrArrayGoesIntoAJsonBodyAsJsonAndAStringQuoted() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  checkout:
                    weight: 1
                    steps:
                      - request: GET /cart
                        save: {cart: json(/cart), items: json(/cart/items), note: json(/cart/note), open: json(/open)}
                      - request: POST /checkout
                        json: {cart: "{cart}", items: "{items}", note: "{note}", open: "{open}", first: "{items}"}
                """)) {
            assertEquals(Outcome.OK, run(op, 0));
            assertEquals("{\"cart\":{\"items\":[1,2.5],\"note\":\"a\\\"b\"},\"items\":[1,2.5],"
                    + "\"note\":\"a\\\"b\",\"open\":true,\"first\":[1,2.5]}", bodies.get("/checkout"));
        }
    }

    @Test
    void aSavedCookieIsTheLastSetCookiesValueAndAMissingOneEndsTheCycle() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  session:
                    weight: 1
                    steps:
                      - {request: POST /login, save: {sid: cookie(sid), theme: cookie(theme)}}
                      - {request: GET /me, headers: {Cookie: "sid={sid}; theme={theme}"}}
                """)) {
            assertEquals(Outcome.OK, run(op, 0));
            assertEquals(Outcome.OK, run(op, 1));
        }
        assertEquals(List.of("sid=s-1; theme=dark", "sid=s-2; theme=dark"), cookies);
        try (WorkloadOp op = op("""
                ops:
                  session:
                    weight: 1
                    steps:
                      - {request: POST /login, save: {sid: cookie(SID)}}
                      - {request: GET /me, headers: {Cookie: "sid={sid}"}}
                """)) {
            assertEquals(CheckOutcomes.EXTRACT_MISSING, run(op, 0), "a cookie's name is case-sensitive");
        }
        assertEquals(2, cookies.size(), "and the step after it was not sent");
    }

    @Test
    void aMissingExtractionEndsTheCycleAndTheLaterStepIsNotSent() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  checkout:
                    weight: 1
                    steps:
                      - {request: "POST /orders", json: {ref: "{cycle}"}, save: {order: json(/orderId)}}
                      - {request: "POST /orders/{order}/pay"}
                """)) {
            assertEquals(CheckOutcomes.EXTRACT_MISSING, run(op, 7));
            assertEquals(List.of("POST /orders"), requests, "the pay step was not sent");
        }
    }

    @Test
    void aFailedCheckEndsTheCycleButAWarnCheckOnlyCounts() throws Exception {
        String steps = """
                ops:
                  two:
                    weight: 1
                    steps:
                      - {request: "GET /status/500", check: {status: 200%s}}
                      - {request: "GET /items/{cycle}"}
                """;
        try (WorkloadOp op = op(steps.formatted(""))) {
            assertEquals(CheckOutcomes.CHECK_STATUS, run(op, 1));
            assertEquals(List.of("GET /status/500"), requests);
        }
        requests.clear();
        try (WorkloadOp op = op(steps.formatted(", warn: true"))) {
            Outcome o = run(op, 1);
            assertEquals(CheckOutcomes.WARN_STATUS, o);
            assertFalse(o.isError());
            assertEquals(List.of("GET /status/500", "GET /items/1"), requests);
        }
    }

    @Test
    void theSameCycleSendsTheSameRequestWhateverTheShardCount() throws Exception {
        String yaml = """
                bindings: {user: "uniform(1, 1000)", item: "zipf(500, 1.1) | permute"}
                ops:
                  browse: {weight: 3, request: "GET /items/{item}?user={user}"}
                  other: {weight: 1, request: "GET /status/204?user={user}"}
                """;
        Workload w = WorkloadParser.parse("base: " + base + "\n" + yaml, "w.yaml", dir, Map.of());
        for (long c = 0; c < 40; c++) {
            CycleState st = new CycleState(c, 0);
            String one = Rendered.of(w.ops().get(0).steps().get(0), st, new Bytes(8)).target();
            Workload again = WorkloadParser.parse("base: " + base + "\n" + yaml, "w.yaml", dir, Map.of());
            assertEquals(one, Rendered.of(again.ops().get(0).steps().get(0), st, new Bytes(8)).target());
        }
        try (WorkloadOp op = new WorkloadOp(w, 4, Duration.ofSeconds(5), Duration.ofSeconds(10), 4, false,
                RunClock.system())) {
            for (long c = 0; c < 8; c++) {
                assertEquals(Outcome.OK, run(op, c));
            }
            // with 4 shards, cycles 0-3 are each shard's first op (browse), 4-7 their second (browse)
            assertTrue(requests.stream().allMatch(r -> r.startsWith("GET /items/")), requests.toString());
        }
    }

    @Test
    void aCycleSendsItsStepsOnOneConnection() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  checkout:
                    weight: 1
                    steps:
                      - {request: "POST /orders", json: {ref: "{cycle}"}, save: {order: json(/orderId)}}
                      - {request: "POST /orders/{order}/pay", check: {status: 200}}
                """)) {
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(40);
            java.util.Queue<Outcome> outcomes = new java.util.concurrent.ConcurrentLinkedQueue<>();
            for (long c = 100; c < 140; c++) { // the server gives no orderId for a "ref" starting with 7
                op.start(c, o -> {
                    outcomes.add(o == null ? Outcome.OK : o);
                    done.countDown();
                });
            }
            assertTrue(done.await(30, TimeUnit.SECONDS));
            assertTrue(outcomes.stream().allMatch(o -> o == Outcome.OK), outcomes.toString());
            // each order's pay step came on the connection that created the order (the server's handlers run on
            // four threads: ports are paired with orders where they are made, not by the order requests were listed)
            assertEquals(40, createdOn.size(), requests.toString());
            for (Map.Entry<String, Integer> order : createdOn.entrySet()) {
                assertEquals(order.getValue(), pathOn.get("/orders/" + order.getKey() + "/pay"), order.getKey());
            }
        }
    }

    @Test
    void aChunkedBodyIsCheckedWhole() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  a:
                    weight: 1
                    request: GET /chunked/{cycle}
                    check: {status: 200, json: {/id: "{cycle}"}, body: "xx\\"}"}
                """)) {
            assertEquals(Outcome.OK, run(op, 42));
            assertEquals(CheckOutcomes.CHECK_JSON, run(op, 13), "cycle 13's id is 0");
        }
    }

    @Test
    void aKeptBodyOverTheLimitFailsButABodyNoCheckNeedsHasNoLimit() throws Exception {
        try (WorkloadOp op = op("ops: {a: {weight: 1, request: GET /big, check: {body: xxx}}}")) {
            assertEquals(CheckOutcomes.BODY_TOO_LARGE, run(op, 0));
        }
        try (WorkloadOp op = op("ops: {a: {weight: 1, request: GET /big, check: {status: 200}}}")) {
            assertEquals(Outcome.OK, run(op, 0));
        }
    }

    @Test
    void aResponseThatIsNotHttpIsAProtocolError() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 4, InetAddress.getLoopbackAddress())) {
            Thread t = Thread.ofPlatform().daemon(true).start(() -> {
                try (java.net.Socket c = s.accept()) {
                    c.getInputStream().read(new byte[4096]);
                    c.getOutputStream().write("SSH-2.0-OpenSSH\r\n".getBytes(StandardCharsets.US_ASCII));
                    c.getInputStream().read(); // until the client closes
                } catch (IOException e) {
                    // the test fails on the outcome
                }
            });
            try (WorkloadOp op = op("http://127.0.0.1:" + s.getLocalPort(), "ops: {a: {weight: 1, request: GET /}}",
                    Duration.ofSeconds(10))) {
                assertEquals(CheckOutcomes.PROTOCOL, run(op, 0));
            }
            t.join(5000);
        }
    }

    @Test
    void theWarmUpRunsWholeCyclesOffTheTargetWithinItsBound() throws Exception {
        try (WorkloadOp op = op("""
                bindings: {item: "uniform(1, 100000)", user: "uniform(1, 50000)"}
                ops:
                  browse:
                    weight: 7
                    request: "GET /items/{item}"
                    check: {status: 200, json: {/id: "{item}"}, regex: '"name": "item [0-9]+"'}
                  cart:
                    weight: 2
                    request: POST /users/{user}/cart
                    json: {item: "{item}"}
                    check: {status: [200, 201], body: added}
                  checkout:
                    weight: 1
                    steps:
                      - request: POST /users/{user}/orders
                        json: {ref: "{cycle}"}
                        check: {status: 201}
                        save: {order: json(/orderId), where: header(Location)}
                      - {request: "POST /orders/{order}/pay?at={where}", check: {status: 2xx}}
                """)) {
            long t0 = System.nanoTime();
            op.warmUp();
            double seconds = (System.nanoTime() - t0) / 1e9;
            WorkloadWarmUp.Result warm = op.lastWarmUp;
            assertEquals(List.of(), requests, "the target saw nothing before the run's first cycle");
            assertTrue(warm.cycles() > 100 && warm.answered() >= warm.cycles(), warm.toString());
            // a regex has no answer made for it: it runs, and its failure is let pass (7 cycles in 10 failed on it)
            assertTrue(warm.ok() >= warm.cycles() * 0.9, "its cycles passed their checks, steps and saves: " + warm);
            double bound = (WorkloadWarmUp.CLOSED.plus(WorkloadWarmUp.PACED).plus(WorkloadWarmUp.SETTLE_MAX)
                    .toMillis() + 2 * WorkloadWarmUp.GIVE_UP_MILLIS + WorkloadOp.OPEN_TIMEOUT_MILLIS) / 1e3;
            assertTrue(seconds < bound, seconds + " s");
            assertEquals(Outcome.OK, run(op, 0)); // cycle 0 is a browse
            assertEquals(1, requests.size(), requests.toString());
        }
    }

    /** A run that starts at an instant bounds the warm-up, which otherwise takes 2.5 s of rounds at least. */
    @Test
    void aWarmUpGivenADeadlineEndsByIt() throws Exception {
        try (WorkloadOp op = op("""
                ops:
                  browse: {weight: 1, request: "GET /items/{cycle}", check: {status: 200}}
                """)) {
            long t0 = System.nanoTime();
            op.warmUp(java.time.Duration.ofMillis(300));
            double seconds = (System.nanoTime() - t0) / 1e9;
            WorkloadWarmUp.Result warm = op.lastWarmUp;
            // unbounded, its rounds alone take 2.5 s: 2.2 s tells them apart with room for a loaded machine
            assertTrue(seconds < 2.2, "given 0.3 s: " + seconds + " s");
            assertTrue(warm.cycles() > 0, "it warmed for what it had: " + warm);
            assertEquals(List.of(), requests, "the target saw nothing before the run's first cycle");
        }
    }

    /**
     * An https server that ended the idle connection with a close_notify, its FIN not sent: the next cycle's GET
     * went out on the dead session and waited its whole timeout. It now goes on a new connection, as after a FIN.
     */
    @Test
    void aGetAfterTheServersCloseNotifyOnTheIdleConnectionGoesOnANewOne() throws Exception {
        try (ClosesIdleTlsServer tls = new ClosesIdleTlsServer(dir)) {
            Workload w = WorkloadParser.parse("base: https://127.0.0.1:" + tls.port()
                    + "\nops: {a: {weight: 1, request: GET /a}}", "w.yaml", dir, Map.of());
            try (WorkloadOp op = new WorkloadOp(w, 1, Duration.ofSeconds(5), Duration.ofSeconds(4), 1, true,
                    RunClock.system())) {
                for (int i = 0; i < 3; i++) {
                    assertEquals(Outcome.OK, run(op, i), "cycle " + i);
                    while (tls.closedIdle.get() < i + 1) {
                        Thread.sleep(5); // the server has sent its close_notify: the connection is idle and over
                    }
                }
            }
            assertEquals(3, tls.answered.get());
            assertEquals(3, tls.connections.get(), "a connection each");
        }
    }
}
