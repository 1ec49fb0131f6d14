package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * pacer against a server no one here wrote: a private nginx (Debian's) started by this test on a free
 * loopback port, its access log the judge. Skips loudly when nginx is not installed, unless
 * {@code PACER_REQUIRE_NGINX=1} (CI sets it, after {@code .ci/nginx.sh} installed nginx): then it fails.
 */
class NginxEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** nginx's binary; skips loudly when it is not installed, or fails where CI requires it. */
    static Path nginxOrSkip() {
        Path nginx = NginxServer.binary();
        if (nginx == null) {
            if ("1".equals(System.getenv("PACER_REQUIRE_NGINX"))) {
                throw new AssertionError("nginx is required (PACER_REQUIRE_NGINX=1) but not installed: run "
                        + ".ci/nginx.sh");
            }
            System.err.println("!!! SKIPPING the nginx end-to-end test: nginx is not installed (apt-get install nginx, "
                    + "or .ci/nginx.sh)");
            Assumptions.abort("nginx is not installed");
        }
        return nginx;
    }


    /** Runs pacer with {@code args} in {@link #dir} while a private nginx serves ({@code {url}} in them: its URL). */
    PacerProcess.Result runAgainstNginx(String... args) throws Exception {
        Path nginx = nginxOrSkip();
        int port = Fixtures.freePort();
        String url = "http://127.0.0.1:" + port + "/";
        NginxServer server = NginxServer.start(nginx, dir, List.of(), "127.0.0.1", port);
        try {
            return PacerProcess.run(dir, 120, java.util.Arrays.stream(args).map(a -> a.replace("{url}", url))
                    .toArray(String[]::new));
        } finally {
            server.close();
        }
    }

    /**
     * The README's command, with no warm-up phase: the engine's and the op's warm-ups (off the record, nginx never
     * sees them) have compiled what the run executes, so its first 100 ms are on target and on time. Before the
     * engine's warm-up the first 100 ms at 5000/s achieved 945-1930 req/s with response p99 81-109 ms here.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theFirst100MsAt5000PerSecondWithNoWarmUpPhaseAreOnTargetAndOnTime() throws Exception {
        PacerProcess.Result r = runAgainstNginx("run", "--rate", "5000", "--duration", "2s", "--op", "http",
                "--url", "{url}", "--interval", "100ms", "--csv", "first.csv", "--summary", "first.json", "-q");
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        long ops = JSON.readTree(dir.resolve("first.json").toFile()).get("ops").asLong();
        assertEquals(Files.readAllLines(dir.resolve("access.log")).size(), ops, "nginx saw every op, and only those");
        List<String> rows = Files.readAllLines(dir.resolve("first.csv"));
        List<String> header = List.of(rows.get(0).split(","));
        String[] first = rows.get(1).split(",", -1);
        double seconds = Double.parseDouble(first[header.indexOf("end_s")])
                - Double.parseDouble(first[header.indexOf("start_s")]);
        double achieved = Long.parseLong(first[header.indexOf("ops")]) / seconds;
        String table = String.join("\n", rows.subList(0, Math.min(rows.size(), 6)));
        assertTrue(Math.abs(achieved - 5000) <= 500,
                "the first interval achieved " + achieved + " req/s, 5000 ±10 %:\n" + table);
        long p99 = Long.parseLong(first[header.indexOf("response_p99_ns")]);
        System.err.printf("NginxEndToEndTest: the first 100 ms at 5000/s achieved %.0f req/s, response p99 %.2f ms%n",
                achieved, p99 / 1e6);
        assertTrue(p99 < 10_000_000L, "the first interval's response p99 " + p99 / 1e6 + " ms, under 10 ms:\n" + table);
    }

    /**
     * The README's command with an interval log and a CSV loads no class once its clock has started: a class loaded
     * or defined there costs the run's first milliseconds (a class defined for a method reference first evaluated in
     * the log's start listener; code generated for Netty's malloc handle when the run's first requests each made
     * their connection's head: each cost the first 10 ms at 60 000 req/s a few milliseconds of lateness). The JVM's
     * own log says when: the full collection pacer makes just before its clock marks the start.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theReadmesCommandWithALogAndACsvLoadsNoClassOnceItsClockHasStarted() throws Exception {
        Path nginx = nginxOrSkip();
        int port = Fixtures.freePort();
        NginxServer server = NginxServer.start(nginx, dir, List.of(), "127.0.0.1", port);
        PacerProcess.Result r;
        try {
            List<String> jvm = new java.util.ArrayList<>(PacerProcess.DEFAULT_JVM_OPTIONS);
            jvm.add("-Xlog:class+load=info,gc=info:file=jvm.log:uptimenanos");
            r = PacerProcess.start(dir, jvm, "run", "--rate", "20000", "--duration", "2s", "--op", "http", "--url",
                    "http://127.0.0.1:" + port + "/", "--interval", "100ms", "--hlog", "run.hlog", "--csv", "run.csv",
                    "-q").await(120);
        } finally {
            server.close();
        }
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        List<String> log = Files.readAllLines(dir.resolve("jvm.log"));
        int gc = -1;
        for (int i = 0; i < log.size(); i++) {
            if (log.get(i).contains("Pause Full (System.gc())")) {
                gc = i;
            }
        }
        assertTrue(gc >= 0, "the full collection before the clock is in the JVM's log:\n" + String.join("\n", log));
        long start = uptimeNanos(log.get(gc));
        // the JDK's own classes (from its class-data archive or its modules) are left out: they are cheap to load,
        // and on a loaded machine a rare path of the JDK's may load one; pacer's, its libraries' and generated ones
        // (lambdas, method handles' forms) are parsed, verified or generated where they load
        List<String> loaded = log.subList(gc + 1, log.size()).stream()
                .filter(l -> l.contains(" source: ") && !l.contains(" source: shared objects file")
                        && !l.contains(" source: jrt:/") && uptimeNanos(l) < start + 1_500_000_000L).toList();
        assertEquals(List.of(), loaded, "classes loaded in the run's first 1.5 s");
    }

    /** The JVM uptime a {@code -Xlog} line with the {@code uptimenanos} decoration begins with. */
    private static long uptimeNanos(String line) {
        return Long.parseLong(line.substring(1, line.indexOf("ns]")));
    }

    /**
     * With a 1 ms pacing tick the run's requests reach nginx (those due in the last tick before the deadline too),
     * each counted once, and the ops wait about half a tick at the median, where the default pacing's median is 0.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void withA1MsPacingTickNginxSeesEveryRequestAndTheMedianOpWaitsAboutHalfATick() throws Exception {
        PacerProcess.Result r = runAgainstNginx("run", "--rate", "5000", "--duration", "3s", "--op", "http",
                "--url", "{url}", "--pacing-tick", "1ms", "--summary", "tick.json", "-q");
        assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        JsonNode summary = JSON.readTree(dir.resolve("tick.json").toFile());
        long ops = summary.get("ops").asLong();
        assertEquals(ops, Files.readAllLines(dir.resolve("access.log")).size(), "nginx saw every op, and only those");
        // every slot of 3 s at 5 000/s (the manual-clock test holds the engine to exactly all of them); a worker the
        // loaded machine stalls more than 20 ms past the end may leave its last few unsent
        assertTrue(ops >= 14_900 && ops <= 15_000, ops + " ops of 15 000");
        long waitP50 = summary.get("wait").get("percentiles").get("50").asLong();
        // uniform over the tick: 0.5 ms; bounds loose for a loaded machine, and far from the default's 0
        assertTrue(waitP50 >= 200_000 && waitP50 <= 2_000_000, "wait p50 " + waitP50 / 1e6 + " ms, about 0.5 ms");
    }

    @Test
    void pacedAt5000PerSecondAfterAWarmUpNginxSeesEveryRequestAndEverySecondAtRate() throws Exception {
        Path nginx = nginxOrSkip();
        int port = Fixtures.freePort();
        Path accessLog = dir.resolve("access.log");
        NginxServer server = NginxServer.start(nginx, dir, List.of(), "127.0.0.1", port);
        try {
            // The engine and the op warm up off the record (nginx never sees that); the scenario's warm-up phase is
            // counted apart, as a user leaves a server's own warm-up out of the figures. {cycle} in the URL tells
            // the phases apart in nginx's log.
            Files.writeString(dir.resolve("nginx.yaml"), """
                    op: http
                    url: http://127.0.0.1:%d/{cycle}
                    expect: 2xx
                    phases:
                      - {name: warm, duration: 2s, rate: 5000, warmup: true}
                      - {name: measure, duration: 10s, rate: 5000}
                    """.formatted(port));
            PacerProcess.Result r = PacerProcess.run(dir, 120, "run", "nginx.yaml", "--summary", "nginx.json", "-q");
            assertEquals(0, r.exitCode(), r.stdout() + r.stderr());
        } finally {
            server.close();
        }

        List<String> all = Files.readAllLines(accessLog);
        JsonNode summary = JSON.readTree(dir.resolve("nginx.json").toFile());
        long warmOps = summary.get("phases").get(0).get("ops").asLong();
        long pacerOps = summary.get("ops").asLong(); // the measured phase only
        assertEquals(all.size(), warmOps + pacerOps, "pacer's count (both phases) equals nginx's");
        assertEquals(pacerOps, summary.get("outcomes").get("2xx").asLong(), "every response was a 2xx");
        // The measured phase in nginx's log: the requests of cycles after the warm-up's (the reporter cuts the
        // phases a hair after the boundary, so the split may be off by a few requests either way).
        List<double[]> lines = new java.util.ArrayList<>(); // {time, cycle}
        for (String line : all) {
            String[] f = line.split(" ");
            lines.add(new double[] {Double.parseDouble(f[0]), Long.parseLong(f[2].substring(1))});
        }
        List<double[]> measured = lines.stream().filter(l -> l[1] >= warmOps).toList();
        assertTrue(Math.abs(measured.size() - 50_000) <= 500, "nginx saw " + measured.size() + " requests in the "
                + "measured phase, 50 000 ±1 % expected");
        long p99 = summary.get("response").get("percentiles").get("99").asLong();
        assertTrue(p99 < 20_000_000L, "response p99 under 20 ms (a loose bound for a loaded machine): " + p99 / 1e6
                + " ms");

        // nginx's own timestamps ($msec, when each request was logged), per whole second. The first and the
        // last second of the phase are partial (it starts and ends mid-second): only whole seconds count.
        Map<Long, Integer> perSecond = new TreeMap<>();
        for (double[] line : measured) {
            perSecond.merge((long) Math.floor(line[0]), 1, Integer::sum);
        }
        List<Long> seconds = List.copyOf(perSecond.keySet());
        int checked = 0;
        for (Long s : seconds.subList(1, seconds.size() - 1)) {
            int n = perSecond.get(s);
            assertTrue(Math.abs(n - 5000) <= 250, "second " + (s - seconds.get(0)) + " had " + n + " requests, 5000 ±5 "
                    + "%: " + perSecond);
            checked++;
        }
        assertTrue(checked >= 8, "checked " + checked + " whole seconds: " + perSecond);
    }
}
