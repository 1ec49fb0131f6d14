package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * pacer under the common {@code ulimit -n 1024} (set by a {@code bash -c 'ulimit -n 1024; exec java ...'}
 * wrapper, soft and hard), against a private nginx started outside that limit: {@code --connections} the limit
 * holds run; more are refused up front in one line that says how many fit.
 */
@Timeout(300)
class DescriptorLimitTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> ULIMIT_1024 = List.of("bash", "-c", "ulimit -n 1024 && exec \"$0\" \"$@\"");

    @TempDir
    Path dir;

    @Test
    void underUlimit1024SixHundredConnectionsRunInsteadOfAbortingInTheWarmUp() throws Exception {
        Path nginx = NginxConnectionEndTest.nginxOrSkip();
        int port = Fixtures.freePort();
        NginxServer server = NginxServer.start(nginx, dir, List.of(), "127.0.0.1", port);
        PacerProcess.Result r;
        try {
            r = PacerProcess.start(dir, ULIMIT_1024, PacerProcess.DEFAULT_JVM_OPTIONS, "run", "--op", "http", "--url",
                    "http://127.0.0.1:" + port + "/{cycle}", "--connections", "600", "--rate", "1000",
                    "--duration", "2s", "--summary", "s.json", "-q").await(120);
        } finally {
            server.close();
        }
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        JsonNode summary = JSON.readTree(dir.resolve("s.json").toFile());
        long ops = summary.get("ops").asLong();
        assertEquals(ops, summary.get("outcomes").path("2xx").asLong(), summary.get("outcomes").toString());
        assertEquals(ops, Files.readAllLines(dir.resolve("access.log")).size(), "nginx saw every op");
    }

    @Test
    void moreConnectionsThanUlimit1024HoldsAreRefusedInOneLineSayingHowManyFit() throws Exception {
        PacerProcess.Result r = PacerProcess.start(dir, ULIMIT_1024, PacerProcess.DEFAULT_JVM_OPTIONS, "run", "--op",
                "http", "--url", "http://127.0.0.1:9/", "--connections", "2000", "--cycles", "1").await(60);
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        String err = r.stderr().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.contains("'2000'") && err.contains("1024") && err.matches(".*at most \\d+ connections.*"), err);
    }
}
