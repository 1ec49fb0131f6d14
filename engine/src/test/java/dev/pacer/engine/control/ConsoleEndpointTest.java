package dev.pacer.engine.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.hlog.HlogPageRenderer;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.text.Json;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The console's side of the control endpoint over HTTP: the page, the stream, page commands, and who may use them. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleEndpointTest {

    /** The headers the console page's fetch of {@code /command} carries. */
    static final String[] PAGE = {"Pacer-Page", "1", "Sec-Fetch-Site", "same-origin"};

    final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    LoadTest.Running run;

    int start(String endpoint, String token) throws Exception {
        run = LoadTest.rate(200).op("noop").duration(Duration.ofSeconds(60)).interval(Duration.ofMillis(100))
                .control(endpoint, token).start();
        return ConsolePageInBrowserTest.port(run);
    }

    @AfterEach
    void stop() throws Exception {
        if (run != null) {
            run.stop();
            run.await(Duration.ofSeconds(30));
        }
    }

    HttpResponse<String> send(int port, String method, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPostFromAnotherSitesPageIsRefusedAndChangesNothing() throws Exception {
        int port = start("127.0.0.1:0", null);
        HttpResponse<String> forged = send(port, "POST", "/rate", "{\"rate\": \"5\", \"x\": \"=\"}",
                "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site", "Content-Type", "text/plain");
        assertEquals(403, forged.statusCode(), forged.body());
        assertEquals(403, send(port, "POST", "/command", "threads 7", "Origin", "http://localhost:1").statusCode(),
                "an Origin that is not this endpoint's, even without Sec-Fetch-Site");
        assertEquals(403, send(port, "POST", "/pause", null, "Sec-Fetch-Site", "same-site").statusCode(),
                "another site of the same domain");
        assertEquals(403, send(port, "GET", "/events", null, "Sec-Fetch-Site", "cross-site").statusCode());
        assertEquals(200, run.facts().target().opsPerSecond(), 0.0);
        assertEquals(1, run.facts().threads());
        assertFalse(run.facts().paused());

        assertEquals(200, send(port, "POST", "/threads", "2", "Origin", "http://127.0.0.1:" + port,
                "Sec-Fetch-Site", "same-origin").statusCode(), "this endpoint's own page");
        assertEquals(200, send(port, "POST", "/threads", "3").statusCode(), "curl sends neither");
        assertEquals(3, run.facts().threads());
    }

    @Test
    void aLoopbackEndpointRefusesAHostNamingAnotherMachine() throws Exception {
        int port = start("127.0.0.1:0", null);
        assertTrue(raw(port, "POST /pause HTTP/1.1\r\nHost: rebound.example:" + port + "\r\nContent-Length: 0\r\n\r\n")
                .startsWith("HTTP/1.1 403"), "a name rebound to 127.0.0.1");
        assertFalse(run.facts().paused());
        assertTrue(raw(port, "POST /pause HTTP/1.1\r\nHost: localhost:" + port + "\r\nContent-Length: 0\r\n\r\n")
                .startsWith("HTTP/1.1 200"));
        assertTrue(raw(port, "GET /status HTTP/1.1\r\nHost: [::1]:" + port + "\r\n\r\n").startsWith("HTTP/1.1 200"));
        assertTrue(run.facts().paused());
    }

    @Test
    void withATokenThePageIsServedButTheStreamAndCommandsNeedIt() throws Exception {
        int port = start("127.0.0.1:0", "s3cret");
        HttpResponse<String> page = send(port, "GET", "/", null);
        assertEquals(200, page.statusCode());
        assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(page.headers().firstValue("Content-Security-Policy").orElseThrow().contains("connect-src 'self'"));
        assertFalse(page.body().contains("s3cret"), "the page holds nothing of the run");
        assertEquals(401, send(port, "GET", "/events", null).statusCode());
        assertEquals(401, send(port, "POST", "/command", "pause").statusCode());
        assertEquals(401, send(port, "GET", "/events", null, "Authorization", "Bearer wrong").statusCode());
        assertFalse(run.facts().paused());

        HttpRequest authorized = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/events"))
                .header("Authorization", "Bearer s3cret").build();
        HttpResponse<InputStream> stream = client.send(authorized, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, stream.statusCode());
        assertEquals("text/event-stream; charset=utf-8", stream.headers().firstValue("Content-Type").orElseThrow());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            JsonNode first = Json.MAPPER.readTree(in.readLine().substring("data: ".length()));
            assertEquals("start", first.get("type").asText());
            assertEquals("noop", first.get("op").asText());
            assertEquals(60, first.get("durationSec").asDouble());
            assertEquals("", in.readLine(), "one event per record");
            String next = in.readLine();
            assertTrue(next.startsWith("data: {\"type\":\"interval\""), next);
        }
    }

    @Test
    void aCommandIsAnsweredWithTheConsolesLine() throws Exception {
        int port = start("127.0.0.1:0", null);
        JsonNode ok = Json.MAPPER.readTree(send(port, "POST", "/command", "threads 3", PAGE).body());
        assertTrue(ok.get("ok").asBoolean());
        assertTrue(ok.get("line").asText().matches("ok: threads 3 \\(page\\) at \\d+\\.\\d{3}s"), ok.toString());
        JsonNode refused = Json.MAPPER.readTree(send(port, "POST", "/command", "threads many", PAGE).body());
        assertFalse(refused.get("ok").asBoolean());
        assertEquals(run.execute("threads many"), refused.get("line").asText(), "the console's own refusal");
        JsonNode twoLines = Json.MAPPER.readTree(send(port, "POST", "/command", "pause\nstop", PAGE).body());
        assertTrue(twoLines.get("error").asText().endsWith("line break; expected one value, e.g. rate 8000 (a "
                + "console line)"), "the command's example, not threads': " + twoLines);
        assertFalse(run.facts().paused());
        JsonNode status = Json.MAPPER.readTree(send(port, "GET", "/status", null).body());
        assertEquals(0, status.get("viewers").get("open").asInt());
    }

    @Test
    void aChangeIsRecordedAsFromThePageOnlyWhenThePageSaysSoAndAsHttpOtherwise() throws Exception {
        int port = start("127.0.0.1:0", null);
        String curl = Json.MAPPER.readTree(send(port, "POST", "/command", "threads 2").body()).get("line").asText();
        assertTrue(curl.startsWith("ok: threads 2 (http) at "), "curl posting a console line: " + curl);
        String page = Json.MAPPER.readTree(send(port, "POST", "/command", "threads 3", PAGE).body())
                .get("line").asText();
        assertTrue(page.startsWith("ok: threads 3 (page) at "), "the page's own request: " + page);
        String rate = Json.MAPPER.readTree(send(port, "POST", "/rate", "300").body()).get("change").asText();
        assertTrue(rate.startsWith("rate 300,0 (http) at "), "pacer control's request: " + rate);
        assertEquals(403, send(port, "POST", "/command", "threads 4", "Pacer-Page", "1",
                "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site").statusCode(),
                "the page's header from another site's page is refused like any request from it");

        run.stop();
        Summary summary = run.await(Duration.ofSeconds(30)).summary();
        run = null;
        assertEquals(List.of("threads 2 http", "threads 3 page", "rate 300,0 http", "stop  api"),
                summary.changes().stream().filter(c -> c.kind() != ChangeKind.PHASE)
                        .map(c -> c.kind().label() + " " + c.value() + " " + c.source()).toList(),
                "the summary's changes, each with who made it");
    }

    @Test
    void theEndCarriesTheReportPageOfTheLogOrOnlyItsCommandWhenThePageCannotBeSent(@TempDir Path dir)
            throws Exception {
        String made = "<!doctype html><title>report</title>";
        JsonNode sent = endOf(dir.resolve("made.hlog"), log -> made + Files.size(log), null);
        assertEquals(made + Files.size(dir.resolve("made.hlog")), sent.get("reportPage").asText(),
                "the page, made from the whole log");
        assertEquals("made.html", sent.get("reportName").asText());

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        JsonNode failed = endOf(dir.resolve("failed.hlog"), log -> {
            throw new java.io.IOException("unreadable");
        }, err);
        assertTrue(failed.get("reportPage").isNull());
        assertEquals("pacer report " + dir.resolve("failed.hlog") + " --plot " + dir.resolve("failed.html"),
                failed.get("reportCommand").asText(), "the command is still shown");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("report of " + dir.resolve("failed.hlog")
                + " could not be made: unreadable"), err.toString(StandardCharsets.UTF_8));

        err.reset();
        JsonNode tooLarge = endOf(dir.resolve("large.hlog"),
                log -> "x".repeat(LiveFeed.MAX_REPORT_PAGE_CHARS + 1), err);
        assertTrue(tooLarge.get("reportPage").isNull());
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("is over 16 MB"),
                err.toString(StandardCharsets.UTF_8));
    }

    /** The end record of a short run with a log and a report page made by {@code renderer}; err to {@code err}. */
    JsonNode endOf(Path hlog, HlogPageRenderer renderer, ByteArrayOutputStream err) throws Exception {
        LoadTest test = LoadTest.rate(200).op("noop").duration(Duration.ofMillis(500)).interval(Duration.ofMillis(100))
                .hlog(hlog).reportPage(renderer).control("127.0.0.1:0", null);
        if (err != null) {
            test.output(new PrintStream(OutputStream.nullOutputStream()),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        LoadTest.Running running = test.start();
        HttpRequest events = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ConsolePageInBrowserTest
                .port(running) + "/events")).build();
        JsonNode end = null;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                client.send(events, HttpResponse.BodyHandlers.ofInputStream()).body(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("data: {\"type\":\"end\"")) {
                    end = Json.MAPPER.readTree(line.substring("data: ".length()));
                }
            }
        }
        running.await(Duration.ofSeconds(30));
        assertTrue(end != null, "the stream ends with the end record");
        return end;
    }

    @Test
    void thePageLoadsNothingFromElsewhere() throws Exception {
        String page;
        try (InputStream in = ConsolePage.class.getResourceAsStream("console.html")) {
            page = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertFalse(page.contains("<link") || page.contains(" src=") || page.contains("@import"), "no external file");
        Matcher urls = Pattern.compile("(https?:)?//[a-z0-9.-]+\\.[a-z]{2,}").matcher(page);
        assertFalse(urls.find(), "no remote URL");
        assertTrue(page.contains("prefers-color-scheme: dark"), "a dark scheme");
    }

    /** One request on a raw socket (to send a Host header of its own); the status line and headers of the answer. */
    static String raw(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            return in.readLine();
        }
    }
}
