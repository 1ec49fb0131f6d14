package dev.pacer.engine.op.http;

import dev.pacer.engine.api.SettingException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.op.Ops;
import dev.pacer.ratelimit.api.RateSpec;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The http op against a real server: the JDK's own, started here. No mock of the client. */
class HttpOpTest {

    HttpServer server;
    String base;
    final Set<String> paths = ConcurrentHashMap.newKeySet();
    final List<String> seen = new CopyOnWriteArrayList<>();
    volatile long stallUntil;
    final java.util.concurrent.atomic.AtomicInteger holding = new java.util.concurrent.atomic.AtomicInteger();
    final java.util.concurrent.atomic.AtomicInteger mostHeld = new java.util.concurrent.atomic.AtomicInteger();
    final AtomicLong stallCount = new AtomicLong();
    final AtomicLong requests = new AtomicLong();

    @TempDir
    Path dir;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(16));
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        String path = ex.getRequestURI().getPath();
        paths.add(path);
        byte[] body = ex.getRequestBody().readAllBytes();
        if (path.equals("/echo")) {
            seen.add(ex.getRequestMethod() + " " + ex.getRequestHeaders().getFirst("X-Test") + " "
                    + ex.getRequestHeaders().getFirst("Content-Type") + " " + new String(body, StandardCharsets.UTF_8));
        }
        if (path.equals("/stall") && stallCount.incrementAndGet() == 400) {
            // one second into the run at 400/s: every request for 300 ms waits
            stallUntil = System.nanoTime() + 300_000_000L;
        }
        try {
            long stall = stallUntil - System.nanoTime();
            if (stall > 0 && path.equals("/stall")) {
                Thread.sleep(stall / 1_000_000, (int) (stall % 1_000_000));
            }
            if (path.equals("/slow")) {
                Thread.sleep(500);
            }
            if (path.equals("/hang")) {
                Thread.sleep(3000);
            }
            if (path.equals("/hold")) {
                mostHeld.accumulateAndGet(holding.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(100);
                } finally {
                    holding.decrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int status = switch (path) {
            case "/missing" -> 404;
            case "/error" -> 500;
            case "/moved" -> 302;
            default -> (path.startsWith("/mix/") && Long.parseLong(path.substring(5)) % 4 == 0) ? 500 : 200;
        };
        byte[] out = "ok\n".getBytes(StandardCharsets.UTF_8);
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(status, -1);
            ex.close();
            return;
        }
        ex.sendResponseHeaders(status, path.equals("/chunked") ? 0 : out.length); // 0: chunked
        try (OutputStream o = ex.getResponseBody()) {
            o.write(out);
        }
    }

    Summary run(String rate, int threads, long cycles, Duration duration, Map<String, List<String>> options,
                List<IntervalReport> intervals) throws Exception {
        return run(rate, threads, cycles, duration, options, intervals, RunOptions.DEFAULT_GRACE);
    }

    Summary run(String rate, int threads, long cycles, Duration duration, Map<String, List<String>> options,
                List<IntervalReport> intervals, Duration grace) throws Exception {
        OpSpec spec = OpSpec.parse("http", options);
        ActivityConfig config = new ActivityConfig(spec, threads, false, rate == null ? null : RateSpec.parse(rate),
                duration, cycles);
        try (Op op = Ops.create(spec)) {
            LoadRun run = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(250)).grace(grace).build(),
                    op, new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
            if (intervals != null) {
                run.addIntervalListener(intervals::add);
            }
            return run.run();
        }
    }

    static Map<String, List<String>> url(String url, String... more) {
        Map<String, List<String>> m = new java.util.LinkedHashMap<>();
        m.put("url", List.of(url));
        for (int i = 0; i < more.length; i += 2) {
            m.computeIfAbsent(more[i], k -> new ArrayList<>()).add(more[i + 1]);
        }
        return m;
    }

    @Test
    void responsesAreCountedByStatusClassAndAreNotErrorsUnlessExpectSaysSo() throws Exception {
        Summary missing = run(null, 2, 200, null, url(base + "/missing"), null);
        assertEquals(200L, missing.outcomes().get("4xx"));
        assertEquals(0, missing.errors(), "without --expect a 404 is a response, not an error");

        Summary mixed = run(null, 2, 400, null, url(base + "/mix/{cycle}", "expect", "2xx"), null);
        assertEquals(300L, mixed.outcomes().get("2xx"));
        assertEquals(100L, mixed.errorsByType().get("unexpected-5xx"), "every 4th cycle answers 500");
        assertFalse(mixed.passed(), "25 % errors fails the run");
        assertEquals(Set.of(), Set.of("/mix/0",
                "/mix/399").stream().filter(p -> !paths.contains(p)).collect(java.util.stream.Collectors.toSet()));
        for (long c = 0; c < 400; c++) {
            assertTrue(paths.contains("/mix/" + c), "{cycle} in the URL: request for cycle " + c);
        }

        Summary chunked = run(null, 2, 100, null, url(base + "/chunked"), null);
        assertEquals(100L, chunked.outcomes().get("2xx"), "chunked responses read to their end: " + chunked.outcomes());
        Summary head = run(null, 2, 100, null, url(base + "/head", "method", "HEAD"), null);
        assertEquals(100L, head.outcomes().get("2xx"), "HEAD responses have no body: " + head.outcomes());

        Summary redirect = run(null, 1, 10, null, url(base + "/moved", "expect", "2xx,3xx"), null);
        assertEquals(10L, redirect.outcomes().get("3xx"));
        assertEquals(0, redirect.errors());
    }

    @Test
    void methodHeadersAndBodyReachTheServer() throws Exception {
        Path payload = dir.resolve("payload.json");
        Files.writeString(payload, "{\"a\":1}");
        run(null, 1, 3, null, url(base + "/echo", "method", "POST", "header", "X-Test: yes",
                "header", "Content-Type: application/json", "body", "@" + payload), null);
        assertEquals(List.of("POST yes application/json {\"a\":1}", "POST yes application/json {\"a\":1}",
                "POST yes application/json {\"a\":1}"), seen);
        seen.clear();
        run(null, 1, 1, null, url(base + "/echo", "method", "put", "body", "plain"), null);
        assertEquals(List.of("PUT null null plain"), seen);
    }

    @Test
    void failuresAreCountedByTypeAndTheRunGoesOn() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Summary refused = run("200", 2, 0, Duration.ofMillis(500), url("http://127.0.0.1:" + closed + "/"), null);
        assertTrue(refused.ops() >= 90, "the run went on: " + refused.ops());
        assertEquals(refused.ops(), (long) refused.errorsByType().get("refused"));

        Summary timeouts = run(null, 4, 8, null, url(base + "/slow", "request-timeout", "100ms"), null);
        assertEquals(8L, timeouts.errorsByType().get("timeout"));
        assertTrue(timeouts.latencies().get(Metric.SERVICE).max() < 400_000_000L, "gave up at the timeout, not at 500 "
                + "ms");

        Summary errors = run(null, 2, 50, null, url(base + "/error"), null);
        assertEquals(50L, errors.outcomes().get("5xx"));
        assertTrue(errors.passed(), "a 500 is a response unless --expect says otherwise");
    }

    @Test
    void aServerStallShowsInWaitAndResponseWhileTheRateRecoversAfterwards() throws Exception {
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        // 16 connections: full 40 ms into the 300 ms stall, after which ops wait for one
        Summary s = run("400", 1, 0, Duration.ofSeconds(4), url(base + "/stall", "connections", "16"), intervals);
        long ms = 1_000_000;
        assertTrue(s.latencies().get(Metric.WAIT).max() >= 200 * ms, "the stall made later ops start late: "
                + s.latencies());
        assertTrue(s.latencies().get(Metric.RESPONSE).max() >= 280 * ms, "and users would have waited for it");
        assertTrue(s.latencies().get(Metric.RESPONSE).at("99") >= 100 * ms, "in the tail, not in one op: "
                + s.latencies());
        assertTrue(Math.abs(s.ops() - 1600) <= 32, "the backlog was caught up: 1600 ops ±2 %, got " + s.ops());
        IntervalReport last = intervals.stream().filter(i -> i.stats().seconds() > 0.2).reduce((a,
                b) -> b).orElseThrow();
        assertTrue(Math.abs(last.rate() - 400) <= 0.1 * 400, "back at the target rate after the stall: " + last.rate());
        assertEquals(0, s.errors());
    }

    /** Creating the op refuses the setting, naming it and the value as given. */
    static void refused(Map<String, List<String>> options, String setting, String value) {
        SettingException e = assertThrows(SettingException.class, () -> Ops.create(OpSpec.parse("http", options)));
        assertEquals(setting, e.setting(), e.getMessage());
        assertEquals(value, e.value(), e.getMessage());
        assertTrue(e.getMessage().startsWith(value == null ? "missing " + setting + ": " : "invalid " + setting + " '"
                + value + "': "),
                e.getMessage());
    }

    @Test
    void badSettingsAreOneLineNamingTheValue() {
        refused(Map.of(), "url", null);
        refused(url("ftp://x/"), "url", "ftp://x/");
        refused(url(base, "header", "nocolon"), "header", "nocolon");
        refused(url(base, "header", "Host: x"), "header", "Host: x");
        refused(url(base, "expect", "ok"), "expect", "ok");
        refused(url(base, "body", "@/no/such/file"), "body", "@/no/such/file");
        refused(url(base, "http-version", "3"), "http-version", "3");
        refused(url(base, "request-timeout", "soon"), "request-timeout", "soon");
        refused(url(base, "connections", "0"), "connections", "0");
        refused(url(base, "connections", "many"), "connections", "many");
        refused(url(base, "io-threads", "-1"), "io-threads", "-1");
        refused(url(base, "insecure", "maybe"), "insecure", "maybe");
        refused(url("http://no-such-host.invalid/"), "url", "http://no-such-host.invalid/");
        refused(url(base + "/x", "header", "Bad Name: x"), "header", "Bad Name: x");
    }

    @Test
    void theServerSeesAtMostOneRequestPerConnectionAndTheBoundIsWaitTime() throws Exception {
        // 40 requests scheduled within 200 ms, each held 100 ms by a server with 16 threads: 4 connections
        // carry them 4 at a time (1 s in all), so the later ones wait for a connection, and that is wait time
        Summary s = run("200", 1, 40, null, url(base + "/hold", "connections", "4"), null);
        assertEquals(40L, s.outcomes().get("2xx"), s.outcomes().toString());
        assertTrue(mostHeld.get() <= 4, "at most 4 requests at once at the server: " + mostHeld.get());
        assertTrue(mostHeld.get() >= 2, "and the connections were used together: " + mostHeld.get());
        long ms = 1_000_000;
        assertTrue(s.latencies().get(Metric.WAIT).max() >= 400 * ms, "the last ops waited for a connection: "
                + s.latencies());
        assertTrue(s.latencies().get(Metric.RESPONSE).max() >= 700 * ms, "and their response time includes it: "
                + s.latencies());
    }

    @Test
    void aBoundAboveTheConnectionsQueuesRequestsForThem() throws Exception {
        OpSpec spec = OpSpec.parse("http", url(base + "/hold", "connections", "2"));
        ActivityConfig config = new ActivityConfig(spec, 1, false, RateSpec.parse("200"), null, 20, 8);
        Summary s;
        try (Op op = Ops.create(spec)) {
            s = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(250)).build(), op,
                    new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())).run();
        }
        assertEquals(20L, s.outcomes().get("2xx"), s.outcomes().toString());
        assertTrue(mostHeld.get() <= 2, "8 in flight, but 2 connections: at most 2 at the server: " + mostHeld.get());
    }

    @Test
    void aServerThatResetsConnectionsIsCountedAndTheRunGoesOn() throws Exception {
        AtomicLong served = new AtomicLong();
        AtomicLong reset = new AtomicLong();
        try (ServerSocket rst = new ServerSocket(0, 256, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                while (!rst.isClosed()) {
                    try {
                        java.net.Socket sock = rst.accept();
                        Thread.ofVirtual().start(() -> serveOrReset(sock, served, reset));
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            // POST: a GET reset before its response on a reused connection is sent once more (an idle close may
            // have crossed it), a POST is not, so each reset the server makes is one op's outcome
            Summary s = run("500", 1, 0, Duration.ofSeconds(2), url("http://127.0.0.1:" + rst.getLocalPort() + "/r",
                    "method", "POST", "body", "x"), null);
            acceptor.interrupt();
            long resets = s.errorsByType().getOrDefault("reset", 0L);
            long ok = s.outcomes().getOrDefault("2xx", 0L);
            assertEquals(s.ops(), ok + resets, "every op is a response or a reset: " + s.outcomes());
            assertTrue(Math.abs(s.ops() - 1000) <= 20, "the run went on at its rate: 1000 ops ±2 %, got " + s.ops());
            assertTrue(resets >= 0.2 * s.ops() && resets <= 0.45 * s.ops(), "every 3rd request reset: " + s.outcomes());
            assertEquals(reset.get(), resets, "the client counted every reset the server made");
        }
    }

    /** Answers requests on one connection with 200, but resets the connection at every 3rd request it reads. */
    private static void serveOrReset(java.net.Socket sock, AtomicLong served, AtomicLong reset) {
        try (sock) {
            java.io.InputStream in = sock.getInputStream();
            OutputStream out = sock.getOutputStream();
            int state = 0; // how much of CR LF CR LF has been seen
            for (int b; (b = in.read()) >= 0; ) {
                state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state
                        + 1 : 0;
                if (state == 4) {
                    state = 0;
                    if ((served.get() + reset.get()) % 3 == 2) {
                        reset.incrementAndGet();
                        sock.setSoLinger(true, 0); // close with RST
                        return;
                    }
                    served.incrementAndGet();
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            }
        } catch (IOException e) {
            // the client closed
        }
    }

    @Test
    void opsInFlightAtTheRunsEndCompleteWithinTheGraceOrAreCancelled() throws Exception {
        Summary late = run(null, 1, 4, null, url(base + "/slow"), null, Duration.ofSeconds(5));
        assertEquals(4L, late.outcomes().get("2xx"), "completed after the last start, within the grace: "
                + late.outcomes());

        // the server holds each request 3 s: with a 300 ms grace the run ends first, every op cancelled (had the
        // run waited for the server they would be 2xx)
        Summary cut = run(null, 1, 4, null, url(base + "/hang"), null, Duration.ofMillis(300));
        assertEquals(4L, cut.ops(), cut.outcomes().toString());
        assertEquals(4L, cut.errorsByType().get("cancelled"), "still in flight after the grace: " + cut.outcomes());
        assertTrue(cut.durationSeconds() < 2.0, "the run ended at the grace, not at the server's answer: "
                + cut.durationSeconds() + " s");
    }

    /** Direct memory in use: the JDK's direct buffers and Netty's unpooled ones (the pooled arenas are apart). */
    static long directMemory() {
        long jdk = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                jdk += pool.getMemoryUsed();
            }
        }
        return jdk + io.netty.buffer.UnpooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
    }

    @Test
    void aFileBodyIsHeldOnceNotCopiedPerConnection() throws Exception {
        int mb = 1 << 20;
        Path payload = dir.resolve("payload.bin");
        Files.write(payload, new byte[mb]);
        OpSpec spec = OpSpec.parse("http", url(base + "/hold", "method", "POST", "body", "@" + payload,
                "connections", "24"));
        // 48 ops, 24 in flight at a time, each held 100 ms by the server: every connection sends the body
        ActivityConfig config = new ActivityConfig(spec, 1, false, null, null, 48, 24);
        long before = directMemory();
        try (Op op = Ops.create(spec)) {
            Summary s = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(250)).build(), op,
                    new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())).run();
            assertEquals(48L, s.outcomes().get("2xx"), s.outcomes().toString());
            assertTrue(mostHeld.get() >= 12, "the connections were used together: " + mostHeld.get());
            long used = directMemory() - before;
            assertTrue(used < 4L * mb, "one shared 1 MB body, not one per connection (24 MB): " + used / mb + " MB");
        }
    }

    @Test
    void aFixedRequestsConnectionsAreReadyWhenOpenedAheadSoTheRunAllocatesNoDirectMemory() throws Exception {
        OpSpec spec = OpSpec.parse("http", url(base + "/hold", "connections", "24"));
        // 48 ops, 24 in flight at a time, each held 100 ms by the server: every connection sends its first request
        ActivityConfig config = new ActivityConfig(spec, 1, false, null, null, 48, 24);
        AtomicLong atFirstOp = new AtomicLong(-1);
        try (AsyncOp http = (AsyncOp) Ops.create(spec)) {
            AsyncOp op = new AsyncOp() { // the http op, noting the direct bytes once its warm-up is over
                @Override
                public void start(long cycle, Completion completion) throws Exception {
                    atFirstOp.compareAndSet(-1, UnpooledByteBufAllocator.DEFAULT.metric().usedDirectMemory());
                    http.start(cycle, completion);
                }

                @Override
                public int capacity() {
                    return http.capacity();
                }

                @Override
                public void warmUp() throws Exception {
                    http.warmUp();
                }
            };
            Summary s = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(250)).build(), op,
                    new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())).run();
            assertEquals(48L, s.outcomes().get("2xx"), s.outcomes().toString());
            assertTrue(mostHeld.get() >= 12, "the connections were used together: " + mostHeld.get());
            // made at the first request, each connection's head cost a direct allocation on the event loop, and
            // the JDK generated code for Netty's malloc handle there: milliseconds in a run's first 20 ms
            assertEquals(atFirstOp.get(), UnpooledByteBufAllocator.DEFAULT.metric().usedDirectMemory(),
                    "direct bytes at the first op (the connections opened ahead) and after the run");
        }
    }

    @Test
    void aBodyFileOver64MiBIsRefusedUnread() {
        refused(url(base, "body", "@/dev/zero"), "body", "@/dev/zero");
        refused(url(base, "body", "@"), "body", "@");
        refused(url(base, "body", "@" + dir), "body", "@" + dir);
        SettingException e = assertThrows(SettingException.class,
                () -> Ops.create(OpSpec.parse("http", url(base, "body", "@/dev/zero"))));
        assertTrue(e.getMessage().contains("64 MiB"), "the bound is stated: " + e.getMessage());
    }

    @Test
    void http2ToAnHttp11OnlyServerIsAProtocolErrorNotAReset() throws Exception {
        // an HTTP/1.1-only server as nginx is one: the preface's "PRI * HTTP/2.0" line is a bad request, answered
        // 400, then a graceful close that reads what the client still sends (no reset that could discard the 400)
        AtomicLong answered = new AtomicLong();
        try (ServerSocket h1 = new ServerSocket(0, 256, java.net.InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                while (!h1.isClosed()) {
                    try {
                        java.net.Socket sock = h1.accept();
                        Thread.ofVirtual().start(() -> {
                            try (sock) {
                                java.io.InputStream in = sock.getInputStream();
                                while (in.read() != '\n') {
                                    // the request line
                                }
                                sock.getOutputStream().write(("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n"
                                        + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                                answered.incrementAndGet();
                                sock.shutdownOutput();
                                in.transferTo(OutputStream.nullOutputStream());
                            } catch (IOException e) {
                                // the client reset
                            }
                        });
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            Summary s = run(null, 1, 5, null, url("http://127.0.0.1:" + h1.getLocalPort() + "/", "http-version", "2"),
                    null);
            assertEquals(5L, s.ops());
            assertEquals(5L, s.errorsByType().get("protocol-error"), "the server does not speak HTTP/2: "
                    + s.outcomes());
            assertTrue(answered.get() >= 1, "the server answered the preface with its 400");
        }
    }

    @Test
    void aRequestCrossingAKeepAliveIdleCloseIsResentOnceAndCountedOnce() throws Exception {
        try (DropsSecondRequestServer server = new DropsSecondRequestServer()) {
            String url = server.base() + "/";
            Summary get = run(null, 1, 30, null, url(url, "connections", "1"), null);
            assertEquals(30L, get.ops());
            assertEquals(30L, get.outcomes().get("2xx"), "each GET the server dropped went again: " + get.outcomes());
            assertEquals(30L, server.answered.get(), "the server answered each op once");
            assertTrue(server.dropped.get() >= 25, "and dropped the second request of each connection: "
                    + server.dropped.get());
            // the run says so after its summary: the server got more requests than the ops counted
            server.reset();
            OpSpec spec = OpSpec.parse("http", url(url, "connections", "1"));
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            try (Op op = Ops.create(spec)) {
                new LoadRun(RunOptions.builder(new ActivityConfig(spec, 1, false, null, null, 10)).announce(true)
                        .build(), op, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true)).run();
            }
            assertTrue(err.toString().contains(RequestClient.resentLine(server.dropped.get())), server.dropped.get()
                    + " dropped and resent: " + err);

            server.reset();
            // a POST may have been processed: it is not sent again, and each drop is one reset
            Summary post = run(null, 1, 30, null, url(url, "connections", "1", "method", "POST", "body", "x"), null);
            assertEquals(30L, post.ops());
            assertEquals(server.answered.get(), (long) post.outcomes().get("2xx"), post.outcomes().toString());
            assertEquals(server.dropped.get(), (long) post.errorsByType().get("reset"), post.outcomes().toString());
        }
    }

    @Test
    void opsThatNeverGotAFreeConnectionBeforeTheEndAreCountedNotSentWithTheirWait() throws Exception {
        AtomicLong accepted = new AtomicLong();
        try (ServerSocket silent = new ServerSocket(0, 256, java.net.InetAddress.getLoopbackAddress())) {
            List<java.net.Socket> held = new CopyOnWriteArrayList<>();
            Thread.ofVirtual().start(() -> {
                while (!silent.isClosed()) {
                    try {
                        held.add(silent.accept()); // never answers
                        accepted.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            // 300 slots in 3 s; 20 connections are all held after 0.2 s, and the 280 slots after them never get one
            Summary s = run("100", 1, 0, Duration.ofSeconds(3), url("http://127.0.0.1:" + silent.getLocalPort() + "/",
                    "connections", "20"), null, Duration.ofMillis(300));
            for (java.net.Socket sock : held) {
                sock.close();
            }
            assertEquals(20, accepted.get(), "the server held 20 connections");
            assertEquals(20L, s.errorsByType().get("cancelled"), "the 20 sent were cancelled: " + s.outcomes());
            long notSent = s.errorsByType().getOrDefault("not-sent", 0L);
            assertEquals(300, s.ops(), "every slot of the schedule is counted once: " + s.outcomes());
            assertEquals(s.ops() - 20, notSent, s.outcomes().toString());
            assertEquals(20 / 3.0, s.achievedRate(), 0.01, "the rate is of the 20 sent in 3 s");
            long ms = 1_000_000;
            assertTrue(s.latencies().get(Metric.WAIT).max() >= 2_500 * ms,
                    "the first unsent waited ~2.8 s: " + s.latencies());
            assertTrue(s.latencies().get(Metric.RESPONSE).at("50") >= 1_000 * ms,
                    "the tail shows them: " + s.latencies());

            // more in flight than connections: the requests queued in the client for one were never written either
            accepted.set(0);
            OpSpec spec = OpSpec.parse("http", url("http://127.0.0.1:" + silent.getLocalPort() + "/", "connections",
                    "2"));
            ActivityConfig config = new ActivityConfig(spec, 1, false, RateSpec.parse("100"), Duration.ofSeconds(1), 0,
                    10);
            Summary q;
            try (Op op = Ops.create(spec)) {
                PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
                q = new LoadRun(RunOptions.builder(config).grace(Duration.ofMillis(300)).build(), op, quiet, quiet)
                        .run();
            }
            for (java.net.Socket sock : held) {
                sock.close();
            }
            assertEquals(2, accepted.get(), "two connections, each with its one request");
            assertEquals(Map.of("cancelled", 2L, "not-sent", 98L), q.outcomes(), "2 written and cancelled; 8 queued in "
                    + "the client and 90 slots after them never sent");
            assertTrue(q.latencies().get(Metric.WAIT).min() <= 10 * ms && q.latencies().get(Metric.SERVICE).max()
                    >= 900 * ms, "the two sent waited for nothing: " + q.latencies());
            assertEquals(2, q.latencies().get(Metric.SERVICE).count(), "only the two written have a service time");
        }
    }
}
