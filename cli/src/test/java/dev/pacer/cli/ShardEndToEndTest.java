package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test as four processes on this machine (the noop op, no network namespaces): they start together at one
 * instant, one {@code pacer control} with four targets retunes the whole test, and {@code pacer report --merge}
 * gives one view and one verdict of it.
 */
@org.junit.jupiter.api.Timeout(300)
class ShardEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aBadIndexFromTheIndexedJobIsOneLineNamingTheVariableAndItsValue() throws Exception {
        String[][] cases = { // JOB_COMPLETION_INDEX, --shard, what the line says
                {"x", "/4", "invalid JOB_COMPLETION_INDEX 'x': expected a whole number from 0 to 3 (this shard's "
                        + "index, for --shard /4)"},
                {"2.0", "/4", "invalid JOB_COMPLETION_INDEX '2.0': expected a whole number from 0 to 3"},
                {"-1", "/4", "invalid JOB_COMPLETION_INDEX '-1': expected a whole number from 0 to 3"},
                {"5", "/4", "invalid JOB_COMPLETION_INDEX '5': expected a whole number from 0 to 3"},
                {"", "/4", "invalid JOB_COMPLETION_INDEX '': is empty; expected a whole number from 0 to 3"},
                {null, "/4", "invalid --shard '/4': gives no index and JOB_COMPLETION_INDEX is not set"},
                {"1", "/", "invalid --shard '/': gives neither I nor N"},
        };
        for (String[] c : cases) {
            java.util.Map<String, String> env = new java.util.HashMap<>();
            env.put("JOB_COMPLETION_INDEX", c[0]);
            PacerProcess.Result r = PacerProcess.run(dir, env, 30, "run", "--rate", "100", "-n", "3", "--shard", c[1],
                    "-q");
            assertEquals(2, r.exitCode(), c[0] + " " + c[1] + ": " + r.stderr());
            RunLimitsTest.assertOneLineNaming(r, c[2]);
        }
    }

    @Test
    void fourShardsMakeOneTestThatOneControlRetunesAndOneReportJudges() throws Exception {
        int n = 4;
        List<String> targets = new ArrayList<>();
        List<PacerProcess> shards = new ArrayList<>();
        List<String> logs = new ArrayList<>();
        Instant startAt = Instant.now().plusSeconds(12); // four JVMs start on two cores first (8 s was once too short)
        for (int i = 0; i < n; i++) {
            int port = Fixtures.freePort();
            targets.add("127.0.0.1:" + port);
            logs.add("shard-" + i + ".hlog");
            shards.add(PacerProcess.start(dir, "run", "--op", "noop", "--rate", "8000", "--shard", i + "/" + n,
                    "--start-at", startAt.toString(), "--duration", "10s", "--control", "127.0.0.1:" + port,
                    "--hlog", logs.get(i), "--summary", "shard-" + i + ".json", "-q", "--no-console"));
        }
        // 3.5 s into the test the control starts: its own JVM takes 1-3 s on a loaded 2-core VM (once nearly 4.5, and
        // the window after the change, from a second past it to 9.5 s, held no whole interval), then the whole test
        // goes from 8 000 to 16 000 ops/s
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), startAt.plusMillis(3_500)).toMillis()));
        PacerProcess.Result control = PacerProcess.run(dir, 30, "control", "--to", String.join(",", targets), "rate",
                "16000");
        assertEquals(0, control.exitCode(), control.stderr());
        assertEquals(n, control.stdout().lines().filter(l -> l.contains(": ok: ")).count(),
                "one answer per shard, each naming its target: " + control.stdout());

        long ops = 0;
        double changedAt = 0; // seconds into the test when the shards applied the change, on average
        for (int i = 0; i < n; i++) {
            PacerProcess.Result r = shards.get(i).await(60);
            assertEquals(0, r.exitCode(), "shard " + i + ": " + r.stderr());
            JsonNode s = JSON.readTree(dir.resolve("shard-" + i + ".json").toFile());
            ops += s.get("ops").asLong();
            JsonNode change = null;
            for (JsonNode c : s.get("changes")) {
                if (c.get("kind").asText().equals("rate")) {
                    change = c;
                }
            }
            assertTrue(change != null && change.get("value").asText().startsWith("16000"), "shard " + i
                    + " took the global value: " + s.get("changes"));
            changedAt += change.get("elapsedSeconds").asDouble() / n;
            assertTrue(Files.readString(dir.resolve(logs.get(i))).contains("\"kind\":\"rate\""),
                    "shard " + i + "'s log records the change");
        }
        // 8 000 ops/s until the change, 16 000 after it, 10 s in all (the control's own JVM takes a second or two)
        double expected = 8_000 * changedAt + 16_000 * (10 - changedAt);
        assertEquals(expected, ops, expected * 0.01, "the shards' ops add up to one test's (change at " + changedAt
                + " s)");

        JsonNode all = report(logs, null, null);
        assertEquals(ops, all.get("ops").asLong(), "the merged view counts every shard's ops exactly once");
        // windows a second clear of the start and of the change: a shard that started late begins its log with one
        // long interval, which a window it straddles leaves out
        String beforeTo = String.format(java.util.Locale.ROOT, "%.1fs", Math.min(4.5, changedAt - 0.5));
        double before = report(logs, "2s", beforeTo)
                .get("rate").asDouble();
        double after = report(logs, String.format(java.util.Locale.ROOT, "%.1fs", changedAt + 1),
                "9.5s").get("rate").asDouble();
        assertEquals(8_000, before, 8_000 * 0.03, "merged rate before the change");
        assertEquals(16_000, after, 16_000 * 0.03, "merged rate after it");

        List<String> judge = new ArrayList<>(List.of("report"));
        judge.addAll(logs);
        judge.addAll(List.of("--merge", "--from", "2s", "--to", beforeTo, "--threshold", "achieved>=0.97*target"));
        PacerProcess.Result pass = PacerProcess.run(dir, 60, judge.toArray(String[]::new));
        assertEquals(0, pass.exitCode(), pass.stdout() + pass.stderr());
        assertTrue(pass.stdout().contains("PASS  achieved>=0.97*target"), pass.stdout());
        judge.set(judge.size() - 1, "achieved>=1.5*target");
        PacerProcess.Result fail = PacerProcess.run(dir, 60, judge.toArray(String[]::new));
        assertEquals(1, fail.exitCode(), "a failed gate over the merged shards exits 1: " + fail.stdout());
    }

    @Test
    void threeShardsAgainstARefusedPortMergeToEveryErrorAndTheTestsTarget() throws Exception {
        // each shard's interval notes are alike (all refused, the same share): a set of equal records kept one
        int refused = Fixtures.freePort(); // nothing listens there
        int n = 3;
        List<PacerProcess> shards = new ArrayList<>();
        List<String> logs = new ArrayList<>();
        // three JVMs each warm an http client up on two cores first (10 s was once too short: a shard ready after
        // the test's end is refused)
        Instant startAt = Instant.now().plusSeconds(12);
        for (int i = 0; i < n; i++) {
            logs.add("refused-" + i + ".hlog");
            shards.add(PacerProcess.start(dir, "run", "--op", "http", "--url", "http://127.0.0.1:" + refused + "/",
                    "--rate", "300", "--shard", i + "/" + n, "--start-at", startAt.toString(), "--duration", "4s",
                    "--max-error-ratio", "1", "--hlog", logs.get(i), "--summary", "refused-" + i + ".json", "-q",
                            "--no-console"));
        }
        long errors = 0;
        for (int i = 0; i < n; i++) {
            PacerProcess.Result r = shards.get(i).await(90);
            assertEquals(0, r.exitCode(), "shard " + i + ": " + r.stderr());
            JsonNode s = JSON.readTree(dir.resolve("refused-" + i + ".json").toFile());
            assertEquals(s.get("ops").asLong(), s.get("errors").asLong(), "every request refused: " + s);
            errors += s.get("errors").asLong();
        }
        assertTrue(errors > 0, "requests were refused: " + errors);
        JsonNode all = report(logs, null, null);
        assertEquals(errors, all.get("errors").get("total").asLong(), "every shard's errors, equal notes or not: "
                + all.get("errors"));
        List<String> judge = new ArrayList<>(List.of("report"));
        judge.addAll(logs);
        judge.addAll(List.of("--merge", "--threshold", "errors<50%", "--threshold", "target>=297", "--threshold",
                "target<=303"));
        PacerProcess.Result gate = PacerProcess.run(dir, 60, judge.toArray(String[]::new));
        assertEquals(1, gate.exitCode(), gate.stdout() + gate.stderr());
        assertTrue(gate.stdout().contains("FAIL  errors<50%  (actual 100.0000%)"), "judged on every error: "
                + gate.stdout());
        assertTrue(gate.stdout().contains("PASS  target>=297") && gate.stdout().contains("PASS  target<=303"),
                "the test's target, the three shares added: " + gate.stdout());
    }

    JsonNode report(List<String> logs, String from, String to) throws Exception {
        List<String> args = new ArrayList<>(List.of("report"));
        args.addAll(logs);
        args.addAll(List.of("--merge", "--json"));
        if (from != null) {
            args.addAll(List.of("--from", from, "--to", to));
        }
        PacerProcess.Result r = PacerProcess.run(dir, 60, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.stderr());
        return JSON.readTree(r.stdout());
    }
}
