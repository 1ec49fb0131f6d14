package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * pacer against a private nginx that ends connections as nginx does: a GOAWAY after {@code keepalive_requests}
 * over HTTP/2, an idle close after {@code keepalive_timeout} over HTTP/1.1. nginx's access log is the judge:
 * every request pacer counts is in it exactly once, and none of them is a spurious {@code reset}. Skips loudly
 * when nginx is not installed, unless {@code PACER_REQUIRE_NGINX=1}: then it fails.
 */
@Timeout(300)
class NginxConnectionEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Path nginxOrSkip() {
        Path nginx = NginxServer.binary();
        if (nginx == null) {
            if ("1".equals(System.getenv("PACER_REQUIRE_NGINX"))) {
                throw new AssertionError("nginx is required (PACER_REQUIRE_NGINX=1) but not installed: "
                        + "run .ci/nginx.sh");
            }
            System.err.println("!!! SKIPPING an nginx end-to-end test: nginx is not installed "
                    + "(apt-get install nginx, or .ci/nginx.sh)");
            Assumptions.abort("nginx is not installed");
        }
        return nginx;
    }


    /** Runs pacer against nginx (started with these settings) and checks its counts against nginx's log. */
    void everyRequestOnceInNginxsLog(String listen, String serverDirectives, String... pacerArgs) throws Exception {
        Path nginx = nginxOrSkip();
        int port = Fixtures.freePort();
        NginxServer server = NginxServer.start(nginx, dir, List.of(), "127.0.0.1", port, listen, serverDirectives);
        try {
            List<String> args = new java.util.ArrayList<>(List.of("run", "--op", "http",
                    "--url", "http://127.0.0.1:" + port + "/{cycle}", "--summary", "s.json", "-q"));
            args.addAll(List.of(pacerArgs));
            PacerProcess.Result r = PacerProcess.run(dir, 120, args.toArray(String[]::new));
            assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        } finally {
            server.close();
        }
        JsonNode summary = JSON.readTree(dir.resolve("s.json").toFile());
        long ops = summary.get("ops").asLong();
        assertEquals(ops, summary.get("outcomes").path("2xx").asLong(),
                "every op a 2xx, no reset: " + summary.get("outcomes"));
        Map<String, Integer> seen = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("access.log"))) {
            String[] f = line.split(" ");
            assertEquals("200", f[1], line);
            seen.merge(f[2], 1, Integer::sum);
        }
        assertEquals(ops, seen.size(), "nginx saw every op pacer counted");
        seen.forEach((uri, n) -> assertEquals(1, n, uri + " reached nginx once"));
        for (long c = 0; c < ops; c++) {
            assertTrue(seen.containsKey("/" + c), "cycle " + c + " reached nginx");
        }
    }

    @Test
    void http2AtKeepaliveRequests100EveryRequestIsCountedOnceWithoutSpuriousResets() throws Exception {
        // nginx sends GOAWAY after each connection's 100th stream; at 2 000 req/s the next streams are on their way
        everyRequestOnceInNginxsLog("http2", "keepalive_requests 100;", "--http-version", "2", "--rate", "2000",
                "--duration", "5s");
    }

    @Test
    void http11AcrossKeepaliveIdleClosesEveryRequestIsCountedOnceWithoutSpuriousResets() throws Exception {
        // nginx closes a connection idle for 10 ms; one connection at 100 req/s is idle about that long between
        // requests, so some requests cross the close
        everyRequestOnceInNginxsLog("", "keepalive_timeout 10ms;", "--connections", "1",
                "--rate", "100", "--duration", "5s");
    }
}
