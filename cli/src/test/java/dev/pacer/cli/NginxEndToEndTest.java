package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pacer against a server no one here wrote: a private nginx (Debian's) started by this test on a free
 * loopback port, its access log the judge. Skips loudly when nginx is not installed, unless
 * {@code PACER_REQUIRE_NGINX=1} (CI sets it, after {@code .ci/nginx.sh} installed nginx): then it fails.
 */
class NginxEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Path nginxBinary() {
        for (String candidate : List.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }

    @Test
    void pacedAt5000PerSecondNginxSeesEveryRequestAndEverySecondAtRate() throws Exception {
        Path nginx = nginxBinary();
        if (nginx == null) {
            if ("1".equals(System.getenv("PACER_REQUIRE_NGINX"))) {
                throw new AssertionError("nginx is required (PACER_REQUIRE_NGINX=1) but not installed: run .ci/nginx.sh");
            }
            System.err.println("!!! SKIPPING the nginx end-to-end test: nginx is not installed (apt-get install nginx, or .ci/nginx.sh)");
            Assumptions.abort("nginx is not installed");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        for (String t : List.of("body", "proxy", "fastcgi", "uwsgi", "scgi")) {
            Files.createDirectories(dir.resolve("tmp").resolve(t));
        }
        Path accessLog = dir.resolve("access.log");
        boolean root = "root".equals(System.getProperty("user.name"));
        Files.writeString(dir.resolve("nginx.conf"), (root ? "user root;\n" : "") + """
                daemon off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 4096; }
                http {
                  log_format timed '$msec $status $request_uri';
                  access_log %1$s/access.log timed;
                  client_body_temp_path %1$s/tmp/body;
                  proxy_temp_path %1$s/tmp/proxy;
                  fastcgi_temp_path %1$s/tmp/fastcgi;
                  uwsgi_temp_path %1$s/tmp/uwsgi;
                  scgi_temp_path %1$s/tmp/scgi;
                  keepalive_requests 1000000;
                  server {
                    listen 127.0.0.1:%2$d;
                    location / { return 200 "ok\\n"; }
                  }
                }
                """.formatted(dir, port));
        Process server = new ProcessBuilder(nginx.toString(), "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out").toFile()).start();
        try {
            awaitPort(port, server);
            // the op warms up against its own private server first (HttpWarmUp), so nginx sees only the run
            PacerProcess.Result r = PacerProcess.run(dir, 120, "run", "--rate", "5000", "--duration", "10s",
                    "--op", "http", "--url", "http://127.0.0.1:" + port + "/", "--expect", "2xx", "--summary", "nginx.json", "-q");
            assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        } finally {
            server.destroy(); // SIGTERM: nginx flushes and exits
            server.waitFor(10, TimeUnit.SECONDS);
        }

        List<String> lines = Files.readAllLines(accessLog);
        JsonNode summary = JSON.readTree(dir.resolve("nginx.json").toFile());
        long pacerOps = summary.get("ops").asLong();
        assertTrue(Math.abs(lines.size() - 50_000) <= 500, "nginx saw " + lines.size() + " requests, 50 000 ±1 % expected");
        assertEquals(lines.size(), pacerOps, "pacer's count equals nginx's");
        assertEquals(pacerOps, summary.get("outcomes").get("2xx").asLong(), "every response was a 2xx");
        long p99 = summary.get("response").get("percentiles").get("99").asLong();
        assertTrue(p99 < 20_000_000L, "response p99 under 20 ms (a loose bound for a loaded machine): " + p99 / 1e6 + " ms");

        // nginx's own timestamps ($msec, when each request was logged), per whole second. The first and the
        // last second of the log are partial (the run starts and ends mid-second): only whole seconds count.
        Map<Long, Integer> perSecond = new TreeMap<>();
        for (String line : lines) {
            long second = (long) Math.floor(Double.parseDouble(line.substring(0, line.indexOf(' '))));
            perSecond.merge(second, 1, Integer::sum);
        }
        List<Long> seconds = List.copyOf(perSecond.keySet());
        int checked = 0;
        for (Long s : seconds.subList(1, seconds.size() - 1)) {
            int n = perSecond.get(s);
            assertTrue(Math.abs(n - 5000) <= 250, "second " + (s - seconds.get(0)) + " had " + n + " requests, 5000 ±5 %: " + perSecond);
            checked++;
        }
        assertTrue(checked >= 8, "checked " + checked + " whole seconds: " + perSecond);
    }

    private static void awaitPort(int port, Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new AssertionError("nginx exited with " + server.exitValue());
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(50);
            }
        }
        throw new AssertionError("nginx did not listen on " + port);
    }
}
