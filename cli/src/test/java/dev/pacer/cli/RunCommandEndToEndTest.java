package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code pacer run} as users run it: the real command in a fresh JVM, its files read back with
 * HdrHistogram's own reader. Tolerances are for a loaded 2-core machine.
 */
class RunCommandEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aPacedRunHitsItsCountAndItsHlogAddsUpToTheOpsReported() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "2000", "--threads", "2", "--duration", "3s",
                "--hlog", "run.hlog", "--summary", "run.json");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode s = JSON.readTree(dir.resolve("run.json").toFile());
        long ops = s.get("ops").asLong();
        assertTrue(Math.abs(ops - 6000) <= 120, "6000 ops ±2 %, got " + ops);
        assertEquals(2000.0, s.get("targetRate").asDouble());
        assertEquals(0, s.get("errors").asLong());
        for (String tag : new String[] {"wait", "service", "response"}) {
            assertEquals(ops, s.get(tag).get("count").asLong());
            assertTrue(s.get(tag).get("percentiles").has("99.99"));
        }
        Map<String, Long> counts = hlogCounts(dir.resolve("run.hlog"));
        assertEquals(Map.of("wait", ops, "service", ops, "response", ops), counts,
                "the .hlog's intervals add up to the ops in the summary, per tag");
        assertTrue(r.stdout().contains("achieved"), r.stdout());
    }

    @Test
    void aStallInTheOpShowsInWaitAndResponseButNotService() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "1000", "--threads", "1", "--duration", "3s",
                "--op", "stall:200ms@500", "--summary", "co.json", "-q");
        assertEquals(0, r.exitCode(), r.stderr());
        JsonNode s = JSON.readTree(dir.resolve("co.json").toFile());
        long ms = 1_000_000;
        assertTrue(s.get("wait").get("max").asLong() >= 180 * ms, "the op after the stall waited ~200 ms: "
                + s.get("wait"));
        assertTrue(s.get("response").get("percentiles").get("99").asLong() >= 100 * ms,
                "the ~200 ops scheduled during the stall carry it into response p99: " + s.get("response"));
        assertTrue(s.get("service").get("percentiles").get("99").asLong() < 20 * ms,
                "one slow op out of ~3000 does not move service p99: " + s.get("service"));
        assertTrue(s.get("service").get("max").asLong() >= 200 * ms, "the stalled op itself");
    }

    @Test
    void sigintMidRunStillLeavesACompleteLogAndSummary() throws Exception {
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "1000", "--duration", "60s", "--interval", "200ms",
                "--hlog", "int.hlog", "--summary", "int.json", "-q");
        Path hlog = dir.resolve("int.hlog");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline && (!Files.exists(hlog) || hlogCounts(hlog).getOrDefault("response",
                0L) < 1000)) {
            Thread.sleep(100);
        }
        p.signal("INT");
        PacerProcess.Result r = p.await(30);
        assertEquals(130, r.exitCode(), "128 + SIGINT; stderr: " + r.stderr());
        JsonNode s = JSON.readTree(dir.resolve("int.json").toFile());
        assertEquals("signal", s.get("stopReason").asText());
        assertEquals("SIGINT", s.get("stoppedBy").asText());
        long ops = s.get("ops").asLong();
        assertTrue(ops >= 1000, "ran about a second before the signal: " + ops);
        assertEquals(ops, hlogCounts(hlog).get("response"), "the last partial interval made it into the log");
        assertTrue(r.stdout().contains("stopped by SIGINT"), r.stdout());
        assertFalse(r.stderr().contains(">> stop"), "no stray stop after the summary: " + r.stderr());
    }

    /**
     * Once its warm-up is done, a run's JIT compiler threads are in Linux's idle scheduling class (what the JIT still
     * compiles takes only CPU the run leaves), by default, and it says so; {@code --jit-priority normal} leaves them.
     */
    @ParameterizedTest
    @CsvSource({"default, 5", "normal, 0"})
    void theCompilerThreadsRunAtIdlePriorityOnceTheWarmUpIsDone(String priority, int policy) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
        List<String> args = new java.util.ArrayList<>(List.of("run", "--rate", "1000", "--duration", "60s",
                "--no-console"));
        if (!priority.equals("default")) {
            args.addAll(List.of("--jit-priority", priority));
        }
        PacerProcess p = PacerProcess.start(dir, args.toArray(String[]::new));
        Map<String, Integer> policies = new HashMap<>();
        PacerProcess.Result r;
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!Files.readString(p.stderr).contains("engine warm-up")) {
                assertTrue(System.nanoTime() < deadline, "the warm-up's start line in 30 s: "
                        + Files.readString(p.stderr));
                Thread.sleep(50); // it is printed once the threads have moved
            }
            try (var tasks = Files.list(Path.of("/proc/" + p.process.pid() + "/task"))) {
                for (Path t : tasks.toList()) {
                    try {
                        String name = Files.readString(t.resolve("comm")).strip();
                        if (name.contains("CompilerThre")) {
                            String stat = Files.readString(t.resolve("stat"));
                            policies.put(name + " " + t.getFileName(), Integer.parseInt(
                                    stat.substring(stat.lastIndexOf(')') + 2).split(" ")[38])); // field 41: policy
                        }
                    } catch (java.nio.file.NoSuchFileException ended) {
                        // a thread that ended while the list was read
                    }
                }
            }
            p.signal("INT");
            r = p.await(30);
        } finally {
            p.process.destroyForcibly();
        }
        assertEquals(130, r.exitCode(), r.stderr());
        assertTrue(policies.size() >= 2, "a C1 and a C2 thread: " + policies + "; " + r.stderr());
        policies.forEach((thread, actual) -> assertEquals(policy, actual, thread + " of " + policies));
        java.util.regex.Matcher said = java.util.regex.Pattern
                .compile("(?m)^pacer: (\\d+) JIT compiler threads at idle priority for the run$").matcher(r.stderr());
        assertEquals(policy == 5, said.find(), r.stderr());
        if (policy == 5) {
            assertTrue(Integer.parseInt(said.group(1)) >= 2, r.stderr());
        } else {
            assertFalse(r.stderr().contains("JIT compiler threads"), "nothing said when nothing was asked: "
                    + r.stderr());
        }
    }

    @Test
    void aSigtermWhileWaitingForStartAtEndsTheWaitAndTheRun() throws Exception {
        java.time.Instant at = java.time.Instant.now().plus(java.time.Duration.ofHours(1))
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "100", "--duration", "10s", "--start-at",
                at.toString(),
                "--summary", "wait.json", "--no-console");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline && !(Files.readString(p.stdout)
                + Files.readString(p.stderr)).contains("starting at")) {
            Thread.sleep(100); // until it says it waits
        }
        long signalled = System.nanoTime();
        p.signal("TERM");
        PacerProcess.Result r = p.await(20);
        assertTrue(System.nanoTime() - signalled < 10_000_000_000L, "the wait ended with the signal, not an hour "
                + "later");
        assertEquals(143, r.exitCode(), "128 + SIGTERM; stderr: " + r.stderr());
        JsonNode s = JSON.readTree(dir.resolve("wait.json").toFile());
        assertEquals("SIGTERM", s.get("stoppedBy").asText());
        assertEquals(0, s.get("ops").asLong(), "no op ran before the test's instant");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2099-01-01T00:00:00Z|days ahead; a test starts within a day",
            "+1000000000-01-01T00:00:00Z|days ahead; a test starts within a day",
            "0001-01-01T00:00:00Z|days ago: the test's 1.00s had ended before this process started"})
    void aStartInstantFarOffIsRefusedWithOneLine(String at, String says) throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 30, "run", "--rate", "100", "--duration", "1s", "--start-at", at,
                "-q");
        assertEquals(2, r.exitCode(), r.stderr());
        assertTrue(r.stderr().startsWith("pacer: invalid --start-at '" + at + "': "), r.stderr());
        assertTrue(r.stderr().contains(says), r.stderr());
        assertEquals(1, r.stderr().strip().lines().count(), r.stderr());
    }

    @Test
    void aLogThatCannotBeWrittenStopsTheRunWithOneLineAndExitOne() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/full")), "needs /dev/full (Linux)");
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "100", "--duration", "30s", "--hlog",
                "/dev/full",
                "--summary", "full.json", "-q");
        assertEquals(1, r.exitCode(), r.stderr());
        assertTrue(r.stderr().contains("pacer: cannot write /dev/full: No space left on device; stopping the run"),
                r.stderr());
        assertFalse(r.stderr().contains("Exception"), "no stack trace: " + r.stderr());
        JsonNode s = JSON.readTree(dir.resolve("full.json").toFile());
        assertEquals("error", s.get("stopReason").asText());
        assertTrue(s.get("failure").asText().startsWith("cannot write /dev/full"), s.get("failure").asText());
        assertTrue(s.get("durationSeconds").asDouble() < 10, "stopped at once, not after 30 s");
    }

    /** Starts a run of one op that sleeps an hour, and waits until its log has an interval. */
    PacerProcess startHourLongOp(String name, String grace) throws Exception {
        PacerProcess p = PacerProcess.start(dir, "run", "--rate", "10", "--threads", "1", "--op", "sleep:1h",
                "--duration", "60s", "--grace", grace, "--interval", "200ms", "--hlog", name + ".hlog",
                "--summary", name + ".json", "-q");
        Path hlog = dir.resolve(name + ".hlog");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline && (!Files.exists(hlog) || hlogCounts(hlog).isEmpty())) {
            Thread.sleep(50);
        }
        return p;
    }

    @Test
    void aSignalCountsAnOpThatOutlastsTheGraceAsCancelledAndExits130() throws Exception {
        PacerProcess p = startHourLongOp("grace", "1s");
        long t0 = System.nanoTime();
        p.signal("INT");
        PacerProcess.Result r = p.await(30);
        double took = (System.nanoTime() - t0) / 1e9;
        assertEquals(130, r.exitCode(), r.stderr());
        assertTrue(took < 15, "the grace was 1 s: " + took);
        JsonNode s = JSON.readTree(dir.resolve("grace.json").toFile());
        assertEquals(1, s.get("ops").asLong(), "the op in flight is counted once");
        assertEquals(1, s.get("outcomes").get("cancelled").asLong());
        assertEquals(1, hlogCounts(dir.resolve("grace.hlog")).get("response"), "and logged");
    }

    @Test
    void aSecondSignalEndsTheGraceAtOnce() throws Exception {
        PacerProcess p = startHourLongOp("twice", "60s");
        long t0 = System.nanoTime();
        p.signal("INT");
        Thread.sleep(300);
        p.signal("INT");
        PacerProcess.Result r = p.await(30);
        double took = (System.nanoTime() - t0) / 1e9;
        assertEquals(130, r.exitCode(), r.stderr());
        assertTrue(took < 15, "not the 60 s grace: " + took);
        JsonNode s = JSON.readTree(dir.resolve("twice.json").toFile());
        assertEquals(1, s.get("outcomes").get("cancelled").asLong(), "what was in flight, cancelled; the summary is "
                + "written");
        JsonNode changes = s.get("changes");
        assertEquals(2, changes.size(), changes.toString());
        assertEquals("SIGINT", changes.get(1).get("source").asText());
        assertEquals("ended the grace for ops in flight", changes.get(1).get("note").asText(), "the second stop is "
                + "recorded, with why the op was cancelled");
        assertTrue(r.stdout().contains("stop (SIGINT) at ") && r.stdout().contains("; ended the grace for ops in "
                + "flight"), r.stdout());
    }

    @Test
    void sigintMidRunStillWritesThePlotAndLeavesNoTempLog() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp")); // where the run's temporary .hlog goes
        PacerProcess p = PacerProcess.start(dir, List.of("-Xmx512m", "-Djava.io.tmpdir=" + tmp), "run", "--rate",
                "1000",
                "--duration", "60s", "--interval", "200ms", "--plot", "sig.html", "-q");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline
                && tempLogs(tmp).stream().mapToLong(RunCommandEndToEndTest::responses).sum() < 1000) {
            Thread.sleep(100);
        }
        assertEquals(1, tempLogs(tmp).size(), "--plot without --hlog logs to a temporary file while it runs");
        p.signal("INT");
        PacerProcess.Result r = p.await(30);
        assertEquals(130, r.exitCode(), "128 + SIGINT; stderr: " + r.stderr());
        String page = Files.readString(dir.resolve("sig.html"));
        assertTrue(page.contains("id=\"pacer-data\"") && page.contains("</html>"), "the whole page was written before "
                + "the JVM exited");
        assertEquals(List.of(), tempLogs(tmp), "and the temporary log was removed");
    }

    static List<Path> tempLogs(Path tmp) throws java.io.IOException {
        try (var files = Files.list(tmp)) {
            return files.filter(f -> f.getFileName().toString().matches("pacer-run.*\\.hlog")).toList();
        }
    }

    private static long responses(Path hlog) {
        try {
            return hlogCounts(hlog).getOrDefault("response", 0L);
        } catch (Exception notYetReadable) {
            return 0;
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--op nope              | 'nope'",
            "--duration -5s         | '-5s'",
            "--threads 0            | '0'",
            "--rate abc             | 'abc'",
            "--rate 0               | '0'",
            "--cycles lots          | 'lots'",
            "--threshold p99<1ms    | 'p99<1ms'",
            "--op sleep:fast        | 'fast'",
    })
    void badUsageExitsTwoWithOneLineNamingTheValue(String args, String named) throws Exception {
        String[] argv = ("run " + args + " --duration 1s").split(" ");
        if (args.contains("--duration")) {
            argv = ("run " + args).split(" ");
        }
        PacerProcess.Result r = PacerProcess.run(dir, 30, argv);
        assertEquals(2, r.exitCode(), r.stderr());
        String err = r.stderr().strip();
        assertFalse(err.contains("\n"), "one line, got: " + err);
        assertTrue(err.contains(named), "names " + named + ": " + err);
        assertFalse(err.contains("Exception"), err);
        assertEquals("", r.stdout());
    }

    @Test
    void helpVersionAndCompletionFollowPicocliConventions() throws Exception {
        PacerProcess.Result version = PacerProcess.run(dir, 30, "--version");
        assertEquals(0, version.exitCode());
        assertTrue(version.stdout().startsWith("pacer "), version.stdout());
        PacerProcess.Result help = PacerProcess.run(dir, 30, "run", "--help");
        assertEquals(0, help.exitCode());
        assertTrue(help.stdout().contains("--rate") && help.stdout().contains("--threshold"), help.stdout());
        PacerProcess.Result completion = PacerProcess.run(dir, 30, "generate-completion");
        assertEquals(0, completion.exitCode());
        assertTrue(completion.stdout().contains("complete -F"), "a bash completion script");
        PacerProcess.Result ops = PacerProcess.run(dir, 30, "ops");
        assertTrue(ops.stdout().contains("stall") && ops.stdout().contains("sleep"), "SPI ops are listed: "
                + ops.stdout());
    }

    @Test
    void everyCommandsHelpIsPrintedWithoutPicocliWarnings() throws Exception {
        // picocli formats descriptions with String.format: an unescaped % is a warning on stderr and a line lost
        PacerProcess.Result top = PacerProcess.run(dir, 30, "--help");
        assertEquals(0, top.exitCode(), top.stderr());
        assertEquals("", top.stderr());
        for (String command : PacerCommand.commandLine().getSubcommands().keySet()) {
            PacerProcess.Result help = PacerProcess.run(dir, 30, command, "--help");
            assertEquals(0, help.exitCode(), command + ": " + help.stderr());
            assertEquals("", help.stderr(), command + " --help");
            assertTrue(help.stdout().contains("Usage:"), command + ": " + help.stdout());
        }
        PacerProcess.Result helpRun = PacerProcess.run(dir, 30, "help", "run");
        assertEquals(0, helpRun.exitCode(), helpRun.stderr());
        assertTrue(helpRun.stdout().startsWith("Usage: pacer run "), "pacer help run is run's usage: "
                + helpRun.stdout());
    }

    @Test
    void aFailedThresholdMakesTheExitCodeOne() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "500", "--duration", "1s", "--op",
                "sleep:5ms",
                "--threads", "4", "--threshold", "service.p50<1ms", "--threshold", "achieved>=0.9*target",
                "--summary", "gate.json", "-q");
        assertEquals(1, r.exitCode(), r.stdout() + r.stderr());
        JsonNode s = JSON.readTree(dir.resolve("gate.json").toFile());
        assertFalse(s.get("thresholds").get(0).get("passed").asBoolean());
        assertTrue(s.get("thresholds").get(1).get("passed").asBoolean());
        assertTrue(r.stdout().contains("FAIL  service.p50<1ms"), r.stdout());
    }

    static Map<String, Long> hlogCounts(Path file) throws FileNotFoundException {
        Map<String, Long> counts = new HashMap<>();
        HistogramLogReader reader = new HistogramLogReader(file.toFile());
        for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
            counts.merge(h.getTag(), ((org.HdrHistogram.AbstractHistogram) h).getTotalCount(), Long::sum);
        }
        reader.close();
        return counts;
    }
}
