package dev.pacer.engine.control;

import dev.pacer.engine.api.ControlEndpoint;

import dev.pacer.engine.api.SettingException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.text.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The control endpoint against a real in-process run, through the JDK's HTTP client. */
class HttpControlServerTest {

    LoadRun run;
    Thread runner;
    RunController controller;
    final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void startRun() throws Exception {
        ActivityConfig config = new ActivityConfig(OpSpec.parse("noop"), 2, false, RateSpec.parse("1000"), null, 0);
        run = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(100)).build(),
                cycle -> null, new PrintStream(new ByteArrayOutputStream()),
                        new PrintStream(new ByteArrayOutputStream()));
        controller = run.controller();
        runner = new Thread(() -> {
            try {
                run.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        runner.start();
        assertTrue(run.activity().awaitStarted(10, TimeUnit.SECONDS));
    }

    @AfterEach
    void stopRun() throws Exception {
        run.requestStop(StopReason.CONTROL, "test");
        runner.join(10_000);
        client.close();
    }

    HttpResponse<String> send(HttpControlServer s, String method, String path, String body, String authorization)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.address().getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode json(HttpResponse<String> r) throws Exception {
        return Json.MAPPER.readTree(r.body());
    }

    @Test
    void statusReportsSettingsAndTheLastInterval() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), null, controller)) {
            Thread.sleep(250);
            HttpResponse<String> r = send(s, "GET", "/status", null, null);
            assertEquals(200, r.statusCode());
            JsonNode status = json(r);
            assertEquals(1000.0, status.get("targetRate").asDouble());
            assertEquals(0.0, status.get("strictness").asDouble());
            assertEquals(2, status.get("threads").asInt());
            assertTrue(status.get("ops").asLong() > 0, r.body());
            assertTrue(status.get("interval").get("wait").has("p99"));
            assertTrue(status.get("interval").get("response").has("max"));
        }
    }

    @Test
    void postsChangeTheRunAndSayWhatChanged() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("127.0.0.1:0"), null, controller)) {
            HttpResponse<String> rate = send(s, "POST", "/rate", "\"5k,0.5\"", null);
            assertEquals(200, rate.statusCode(), rate.body());
            assertEquals(RateSpec.parse("5000,0.5"), run.activity().rate());
            assertTrue(json(rate).get("change").asText().startsWith("rate 5000,0.5 (http)"));

            assertEquals(200, send(s, "POST", "/strictness", "{\"strictness\": 1}", null).statusCode());
            assertEquals(1.0, run.activity().rate().strictness());
            assertEquals(200, send(s, "POST", "/threads", "{\"threads\": 3}", null).statusCode());
            assertEquals(3, run.activity().threads());
            assertEquals(200, send(s, "POST", "/pause", null, null).statusCode());
            assertTrue(run.activity().isPaused());
            assertEquals(200, send(s, "POST", "/resume", null, null).statusCode());
            assertTrue(!run.activity().isPaused());
            assertEquals(List.of(ChangeKind.RATE, ChangeKind.STRICTNESS, ChangeKind.THREADS, ChangeKind.PAUSE,
                    ChangeKind.RESUME), run.activity().changes().stream().map(c -> c.kind()).toList());
        }
    }

    @Test
    void badBodiesAndValuesGet400AndChangeNothing() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), null, controller)) {
            for (String[] c : new String[][] {
                    {"/rate", "{bad json"}, {"/rate", "-5"}, {"/rate", ""}, {"/rate", "{\"speed\": 5}"},
                    {"/threads", "100000"}, {"/threads", "0"}, {"/threads", "\"many\""}, {"/strictness", "101"}}) {
                HttpResponse<String> r = send(s, "POST", c[0], c[1], null);
                assertEquals(400, r.statusCode(), c[0] + " " + c[1] + " -> " + r.body());
                assertTrue(json(r).get("error").asText().length() > 5, r.body());
            }
            assertEquals(404, send(s, "POST", "/warp", "1", null).statusCode());
            assertEquals(405, send(s, "GET", "/rate", null, null).statusCode());
            assertEquals(405, send(s, "POST", "/status", null, null).statusCode());
            assertEquals(RateSpec.parse("1000"), run.activity().rate());
            assertEquals(2, run.activity().threads());
            assertTrue(run.activity().changes().isEmpty(), "nothing changed");
        }
    }

    @Test
    void withATokenEveryRequestNeedsItAndWrongOnesChangeNothing() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), "s3cret", controller)) {
            assertEquals(401, send(s, "POST", "/rate", "5000", null).statusCode());
            assertEquals(401, send(s, "POST", "/rate", "5000", "Bearer wrong").statusCode());
            assertEquals(401, send(s, "POST", "/rate", "5000", "s3cret").statusCode());
            assertEquals(401, send(s, "GET", "/status", null, "Bearer s3cre").statusCode());
            assertEquals(RateSpec.parse("1000"), run.activity().rate());
            assertEquals(200, send(s, "POST", "/rate", "5000", "Bearer s3cret").statusCode());
            assertEquals(5000, run.activity().rate().opsPerSecond());
        }
    }

    /** Connections that send a few bytes of a request and then nothing, as a stalled or hostile client does. */
    static List<Socket> halfOpen(HttpControlServer s, int n, String sent) throws Exception {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Socket socket = new Socket();
            socket.connect(s.address(), 5_000);
            socket.getOutputStream().write(sent.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            sockets.add(socket);
        }
        return sockets;
    }

    HttpResponse<String> sendWithin5s(HttpControlServer s, String method, String path, String body,
            String authorization)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.address().getPort() + path))
                .timeout(Duration.ofSeconds(5))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Timeout(60)
    void aHalfOpenConnectionDoesNotBlockOtherRequests() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), null, controller)) {
            List<Socket> stalled = halfOpen(s, 1, "G");
            assertEquals(200, sendWithin5s(s, "GET", "/status", null, null).statusCode());
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    @Timeout(60)
    void moreHalfOpenConnectionsThanTheBacklogDoNotLockTheEndpoint() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), null, controller)) {
            List<Socket> stalled = halfOpen(s, 40, "GET /sta");
            assertEquals(200, sendWithin5s(s, "POST", "/rate", "3000", null).statusCode());
            assertEquals(3000, run.activity().rate().opsPerSecond());
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    @Timeout(60)
    void anUnauthenticatedStalledClientDoesNotBlockAnAuthorizedOne() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), "s3cret", controller)) {
            List<Socket> stalled = halfOpen(s, 20, "POST /rate HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n");
            assertEquals(200, sendWithin5s(s, "POST", "/rate", "4000", "Bearer s3cret").statusCode());
            assertEquals(4000, run.activity().rate().opsPerSecond());
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void aPlainTextBodyIsTheValueAsTheReadmeSays() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), null, controller)) {
            HttpResponse<String> rate = send(s, "POST", "/rate", "8k,0.5", null); // curl -d 8k,0.5
            assertEquals(200, rate.statusCode(), rate.body());
            assertEquals(RateSpec.parse("8000,0.5"), run.activity().rate());
            assertEquals(200, send(s, "POST", "/strictness", " 1\n", null).statusCode());
            assertEquals(1.0, run.activity().rate().strictness());
        }
    }

    @Test
    void theBearerSchemeIsCaseInsensitive() throws Exception {
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), "s3cret", controller)) {
            assertEquals(200, send(s, "GET", "/status", null, "bearer s3cret").statusCode());
            assertEquals(200, send(s, "GET", "/status", null, "BEARER s3cret").statusCode());
            assertEquals(401, send(s, "GET", "/status", null, "bearer S3CRET").statusCode(), "the token itself is "
                    + "exact");
        }
    }

    @Test
    void aNonLoopbackBindWithoutATokenIsRefused() {
        SettingException e = assertThrows(SettingException.class,
                () -> HttpControlServer.start(ControlEndpoint.parse("0.0.0.0:0"), null, controller));
        assertEquals("control", e.setting());
        assertEquals("invalid --control '0.0.0.0:0': listens beyond this machine, so it needs --control-token",
                e.render(setting -> "--" + setting), "a front end names both settings its own way");
    }

    @Test
    void consoleCommandsAnswerOnOneLine() {
        ConsoleControl console = new ConsoleControl(controller, System.in, System.out);
        assertEquals("ok: rate 2000,0 (console)", console.execute("rate 2000").replaceAll(" at .*", ""));
        assertTrue(console.execute("warp 9").startsWith("error: unknown command 'warp'"));
        assertTrue(console.execute("rate -5").startsWith("error: invalid rate '-5'"));
        assertTrue(console.execute("threads").startsWith("error: 'threads' needs a value"));
        assertTrue(console.execute("status").startsWith("status: target 2000"));
        assertEquals(2000, run.activity().rate().opsPerSecond());
    }

    @Test
    void endpointsParseAsUsersWriteThem() {
        assertTrue(ControlEndpoint.parse("7070").isLoopback());
        assertEquals(7070, ControlEndpoint.parse("127.0.0.1:7070").port());
        assertTrue(ControlEndpoint.parse("[::1]:7070").isLoopback());
        assertTrue(!ControlEndpoint.parse("0.0.0.0:7070").isLoopback());
        assertThrows(IllegalArgumentException.class, () -> ControlEndpoint.parse("70700"));
        assertThrows(IllegalArgumentException.class, () -> ControlEndpoint.parse("host:"));
        assertThrows(IllegalArgumentException.class, () -> ControlEndpoint.parse("seven"));
    }

    @Test
    void aHeadRequestIsAnsweredWithoutABodyAndTheJdkServerWritesNothingOfItToStderr() throws Exception {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger("com.sun.net.httpserver");
        List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler catcher = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (log.isLoggable(r.getLevel())) {
                    records.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(catcher);
        try (HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), "s3cret", controller)) {
            HttpResponse<String> status = send(s, "HEAD", "/status", null, "Bearer s3cret");
            assertEquals(405, status.statusCode(), "status is read with GET");
            assertEquals("", status.body());
            assertEquals(401, send(s, "HEAD", "/status", null, null).statusCode());
            assertEquals(List.of(), records.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList(),
                    "what the JDK server logged (its console handler prints it on stderr)");
        } finally {
            log.removeHandler(catcher);
        }
    }

    @Test
    void aJsonBodyIsOneNamedValueAndNothingElse() {
        assertEquals("8000,0.5", HttpControlServer.value("rate", "{\"rate\": \"8000,0.5\"}"));
        assertEquals("3", HttpControlServer.value("threads", "{\"threads\": 3}"));
        assertEquals("2", HttpControlServer.value("threads", "{\"value\": 2}"));
        assertEquals("1E-400", HttpControlServer.value("rate", "{\"rate\": 1e-400}"), "as written, not 0.0");
        for (String[] c : new String[][] {
                {"{\"rate\": \"1k\", \"strictness\": 5}", "body takes one key, 'rate' (or 'value'), not 'strictness' "
                        + "beside it"},
                {"{\"strictness\": 5}", "body takes one key, 'rate' (or 'value'), not 'strictness';"},
                {"{\"rate\": 5, \"value\": 6}", "not 'value' beside it"},
                {"{\"rate\": \"5\"}garbage", "malformed JSON body"},
                {"{\"rate\": \"5\"}{\"rate\": \"6\"}", "malformed JSON body"},
                {"{\"rate\": \"5\", \"rate\": \"6\"}", "malformed JSON body for /rate: Duplicate field 'rate'"}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HttpControlServer.value("rate", c[0]));
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
        }
    }
}
