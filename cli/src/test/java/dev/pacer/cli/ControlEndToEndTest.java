package dev.pacer.cli;

import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.hlog.HlogFile;
import dev.pacer.engine.hlog.HlogReader;
import dev.pacer.engine.hlog.Marker;
import dev.pacer.ratelimit.api.RateSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Changing a running {@code pacer run}: over HTTP, with {@code pacer control}, and through stdin. */
class ControlEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;


    static JsonNode status(HttpClient client, int port) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/status")).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    static void awaitElapsed(HttpClient client, int port, double seconds) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                if (status(client, port).get("elapsedSeconds").asDouble() >= seconds) {
                    return;
                }
            } catch (java.io.IOException notYet) {
                // the endpoint is not up yet
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the run did not reach " + seconds + " s");
    }

    /** Interval (start s, end s, ops) triples of the response tag, relative to the log's start. */
    record Interval(double start, double end, long ops) {
        double rate() {
            return ops / (end - start);
        }
    }

    @Test
    void theConsolePageIsSentTheReportPageOfTheRunsLogAtItsEnd() throws Exception {
        int port = Fixtures.freePort();
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "200", "--duration", "3s",
                "--control", Integer.toString(port), "--hlog", "page.hlog", "-q");
        JsonNode end = null;
        try (HttpClient client = HttpClient.newHttpClient()) {
            awaitElapsed(client, port, 0.2);
            HttpResponse<java.io.InputStream> events = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/events")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (var in = new java.io.BufferedReader(new java.io.InputStreamReader(events.body(),
                    StandardCharsets.UTF_8))) {
                for (String line; end == null && (line = in.readLine()) != null; ) {
                    if (line.startsWith("data: {\"type\":\"end\"")) {
                        end = JSON.readTree(line.substring("data: ".length()));
                    }
                }
            }
        }
        PacerProcess.Result r = p.await(60);
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(end != null, "the stream ends with the run's end");
        assertEquals("pacer report page.hlog --plot page.html", end.get("reportCommand").asText());
        assertEquals("page.html", end.get("reportName").asText());
        String page = end.get("reportPage").asText();
        assertTrue(page.startsWith("<!doctype html>") && page.contains("<title>pacer report: page.hlog</title>"),
                "the page 'pacer report page.hlog --plot' makes: " + page.substring(0, Math.min(300, page.length())));
    }

    @Test
    void steppingTheRateOverHttpHoldsEachTargetAndIsLogged() throws Exception {
        int port = Fixtures.freePort();
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "1000", "--threads", "2", "--duration", "12s",
                "--control", Integer.toString(port), "--hlog", "steps.hlog", "--summary", "steps.json", "-q");
        try (HttpClient client = HttpClient.newHttpClient()) {
            awaitElapsed(client, port, 3.4);
            PacerProcess.Result up = PacerProcess.run(dir, 30, "control", "--to", "127.0.0.1:" + port, "rate", "5000");
            assertEquals(0, up.exitCode(), up.stderr());
            assertTrue(up.stdout().startsWith("ok: rate 5000,0 (http)"), up.stdout());
            awaitElapsed(client, port, 7.4);
            HttpResponse<String> down = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/rate"))
                    .POST(HttpRequest.BodyPublishers.ofString("500")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, down.statusCode(), down.body());
        }
        PacerProcess.Result r = p.await(60);
        assertEquals(0, r.exitCode(), r.stderr());

        // the changes, as the .hlog recorded them
        List<double[]> changes = new ArrayList<>(); // {at, rate}
        changes.add(new double[] {0, 1000});
        HlogFile log = HlogReader.read(dir.resolve("steps.hlog"));
        for (Marker m : log.markers()) {
            if (m.kind() == ChangeKind.RATE) {
                changes.add(new double[] {m.atSec() - log.startSec(), RateSpec.parse(m.value()).opsPerSecond()});
            }
        }
        assertEquals(3, changes.size(), "two rate changes are in the log as comments");

        List<Interval> intervals = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(dir.resolve("steps.hlog").toFile());
        long total = 0;
        for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
            if ("response".equals(h.getTag())) {
                long ops = ((AbstractHistogram) h).getTotalCount();
                intervals.add(new Interval(h.getStartTimeStamp() / 1000.0, h.getEndTimeStamp() / 1000.0, ops));
                total += ops;
            }
        }
        reader.close();
        JsonNode summary = JSON.readTree(dir.resolve("steps.json").toFile());
        assertEquals(summary.get("ops").asLong(), total, "total ops equal the sum of the intervals");
        assertEquals(3, summary.get("changes").size() + 1 - countStops(summary), summary.get("changes").toString());

        // from the second whole interval after each change until the next change: within ±3 % of target
        int checked = 0;
        for (int c = 0; c < changes.size(); c++) {
            double from = c == 0 ? 1.0 : Math.ceil(changes.get(c)[0]) + 1.0;
            double until = c + 1 < changes.size() ? changes.get(c + 1)[0] : Double.MAX_VALUE;
            double target = changes.get(c)[1];
            double base = intervals.get(0).start();
            for (Interval i : intervals) {
                double s = i.start() - base;
                double e = i.end() - base;
                if (s >= from - 0.01 && e <= until && e - s > 0.9) {
                    double rate = i.rate();
                    assertTrue(Math.abs(rate - target) <= 0.03 * target,
                            String.format("interval %.1f-%.1fs ran at %.1f ops/s, target %.0f", s, e, rate, target));
                    checked++;
                }
            }
        }
        assertTrue(checked >= 5, "checked " + checked + " whole intervals");
    }

    private static int countStops(JsonNode summary) {
        int n = 0;
        for (JsonNode c : summary.get("changes")) {
            n += c.get("kind").asText().equals("rate") ? 0 : 1;
        }
        return n;
    }

    @Test
    void consoleCommandsOnStdinTakeEffectAndAreAcknowledged() throws Exception {
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "1000", "--duration", "60s", "--summary",
                "console.json");
        OutputStream stdin = p.process.getOutputStream();
        for (String line : new String[] {"rate 2000", "warp 9", "rate -5", "threads 3", "status"}) {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        }
        Thread.sleep(1500);
        stdin.write("stop\n".getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        PacerProcess.Result r = p.await(60);
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("ok: rate 2000,0 (console)"), r.stderr());
        assertTrue(r.stderr().contains("error: unknown command 'warp'"), r.stderr());
        assertTrue(r.stderr().contains("error: invalid rate '-5'"), r.stderr());
        assertTrue(r.stderr().contains("ok: threads 3 (console)"), r.stderr());
        assertTrue(r.stderr().contains("status: target 2000"), r.stderr());
        JsonNode s = JSON.readTree(dir.resolve("console.json").toFile());
        assertEquals("control", s.get("stopReason").asText());
        assertEquals("console", s.get("stoppedBy").asText());
        List<String> kinds = new ArrayList<>();
        s.get("changes").forEach(c -> kinds.add(c.get("kind").asText() + "/" + c.get("source").asText()));
        assertEquals(List.of("rate/console", "threads/console", "stop/console"), kinds);
        assertEquals(3, s.get("threads").asInt());
    }

    @Test
    void stdinWithoutNewlinesCostsABoundedBufferNotTheHeap() throws Exception {
        PacerProcess p = PacerProcess.start(dir, List.of("-Xmx128m"), "run", "--rate", "100", "--duration", "60s",
                "--summary", "zeros.json", "-q");
        try (OutputStream stdin = p.process.getOutputStream()) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 512; i++) { // 512 MB without a newline, as head -c 512M /dev/zero | pacer run would
                stdin.write(zeros);
            }
            stdin.write("\nstop\n".getBytes(StandardCharsets.UTF_8));
        } catch (java.io.IOException pipeClosed) {
            // the old console died of OutOfMemoryError and stopped reading; the asserts below say so
        }
        PacerProcess.Result r = p.await(90);
        assertEquals(0, r.exitCode(), r.stderr());
        assertFalse(r.stderr().contains("Error") || r.stderr().contains("Exception"), r.stderr());
        assertTrue(r.stderr().contains("error: line 1: over 4096 bytes, ignored"), r.stderr());
        assertEquals("control", JSON.readTree(dir.resolve("zeros.json").toFile()).get("stopReason").asText(),
                "the command after the long line was read");
    }

    @Test
    void aNonLoopbackBindWithoutATokenExitsTwoBeforeTheRunStarts() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 30, "run", "--rate", "100", "--duration", "30s",
                "--control", "0.0.0.0:" + Fixtures.freePort(), "--summary", "never.json");
        assertEquals(2, r.exitCode());
        assertFalse(r.stderr().strip().contains("\n"), r.stderr());
        assertTrue(r.stderr().contains("--control-token"), r.stderr());
        assertFalse(Files.exists(dir.resolve("never.json")), "the run never started");
    }

    @Test
    void pacerControlWithAWrongTokenIsRefusedAndTheRightOneWorks() throws Exception {
        int port = Fixtures.freePort();
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "200", "--duration", "60s", "--control",
                "127.0.0.1:" + port, "--control-token", "s3cret", "-q", "--no-console");
        try (HttpClient client = HttpClient.newHttpClient()) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline) {
                try {
                    client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status")).build(),
                            HttpResponse.BodyHandlers.discarding());
                    break;
                } catch (java.io.IOException notYet) {
                    Thread.sleep(50);
                }
            }
        }
        String to = "127.0.0.1:" + port;
        PacerProcess.Result wrong = PacerProcess.run(dir, 30, "control", "--to", to, "--token", "guess", "rate", "300");
        assertEquals(1, wrong.exitCode(), wrong.stderr());
        assertTrue(wrong.stderr().contains("401"), wrong.stderr());
        PacerProcess.Result bad = PacerProcess.run(dir, 30, "control", "--to", to, "--token", "s3cret", "threads",
                "100000");
        assertEquals(2, bad.exitCode(), bad.stderr());
        assertTrue(bad.stderr().contains("100000"), bad.stderr());
        PacerProcess.Result stop = PacerProcess.run(dir, 30, "control", "--to", to, "--token", "s3cret", "stop");
        assertEquals(0, stop.exitCode(), stop.stderr());
        PacerProcess.Result r = p.await(60);
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().contains("stopped by http"), r.stdout());
    }
}
