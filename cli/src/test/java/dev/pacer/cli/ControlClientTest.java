package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code pacer control} against what is not a pacer run, and against a run still warming up. */
@Timeout(120)
class ControlClientTest {

    @TempDir
    Path dir;

    /** A service on loopback answering every request 200 with {@code body}. */
    static HttpServer answering(String body) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        });
        server.start();
        return server;
    }

    @Test
    void aServiceAnsweringTwoHundredButNotAsARunIsOneLineAndAFailure() throws Exception {
        Map<String, String> answers = Map.of("{}", "in '{}'", "", "in an empty body", "{\"change\":null}",
                "in '{\"change\":null}'", "<html>hello</html>", "in '<html>hello</html>'");
        for (Map.Entry<String, String> a : answers.entrySet()) {
            HttpServer server = answering(a.getKey());
            try {
                String to = "127.0.0.1:" + server.getAddress().getPort();
                PacerProcess.Result rate = NewUserTest.pacer("control", "--to", to, "rate", "100");
                assertEquals(1, rate.exitCode(), a.getKey() + ": " + rate.stdout() + rate.stderr());
                assertEquals("", rate.stdout(), "no 'ok: null'");
                Fixtures.assertOneLineNaming(rate, "pacer control: " + to + " answered 200 but not as a pacer run"
                        + " does (no 'change' " + a.getValue() + ")");
                PacerProcess.Result status = NewUserTest.pacer("control", "--to", to, "status");
                assertEquals(1, status.exitCode(), a.getKey() + ": " + status.stdout() + status.stderr());
                Fixtures.assertOneLineNaming(status, "answered 200 but not as a pacer run does (no 'running'");
            } finally {
                server.stop(0);
            }
        }
    }

    @Test
    void aTokenWithALineBreakIsRefusedInOneLineNotSentAndNotShown() throws Exception {
        HttpServer server = answering("{\"running\": true}");
        try {
            String to = "127.0.0.1:" + server.getAddress().getPort();
            PacerProcess.Result r = NewUserTest.pacer("control", "--to", to, "--token", "s3cret\n", "status");
            assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
            Fixtures.assertOneLineNaming(r, "invalid --token '(not shown)': holds a line break");
            assertFalse(r.stderr().contains("s3cret"), r.stderr());
            PacerProcess.Result env = PacerProcess.run(dir, Map.of("PACER_CONTROL_TOKEN", "s3cret\n"), 60,
                    "control", "--to", to, "status");
            assertEquals(2, env.exitCode(), env.stdout() + env.stderr());
            Fixtures.assertOneLineNaming(env, "invalid PACER_CONTROL_TOKEN '(not shown)'");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void stopDuringTheWarmUpIsAnsweredAndStopsTheRunCleanly() throws Exception {
        int port = Fixtures.freePort();
        Path gate = dir.resolve("go");
        PacerProcess run = PacerProcess.start(dir, "run", "--op", "gated-warmup:" + gate, "--rate", "100",
                "--duration", "30s", "--control", Integer.toString(port), "--summary", "s.json", "-q", "--no-console");
        try (HttpClient client = HttpClient.newHttpClient()) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (true) { // the endpoint is up while the op warms up
                try {
                    assertFalse(ControlEndToEndTest.status(client, port).get("running").isNull());
                    break;
                } catch (java.io.IOException notYet) {
                    assertTrue(System.nanoTime() < deadline, "the control endpoint did not come up");
                    Thread.sleep(50);
                }
            }
        }
        PacerProcess.Result stop = NewUserTest.pacer("control", "--to", "127.0.0.1:" + port, "stop");
        assertEquals(0, stop.exitCode(), stop.stderr());
        assertTrue(stop.stdout().startsWith("ok: "), stop.stdout());
        Files.createFile(gate); // the warm-up ends; the run, stopped, starts no op
        PacerProcess.Result r = run.await(60);
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode summary = ControlEndToEndTest.JSON.readTree(dir.resolve("s.json").toFile());
        assertEquals("control", summary.get("stopReason").asText(), summary.toString());
        assertEquals(0, summary.get("ops").asLong());
    }
}
