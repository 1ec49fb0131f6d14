package dev.pacer.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CompilerThreads} in a JVM of its own ({@link Probe}): the move cannot be undone, and this test JVM's own
 * compiler threads must keep their class for the tests after it. Linux only, with util-linux's {@code chrt}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CompilerThreadsTest {

    @TempDir
    Path dir;

    @Test
    void everyCompilerThreadAndOnlyThoseEndInTheIdleClass() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
        assumeTrue(chrtRuns(), "util-linux's chrt");
        List<String> lines = probe("chrt");
        // found moved problem, then a line per thread: tid name policy
        String[] result = lines.get(0).split(" ", 3);
        int found = Integer.parseInt(result[0]);
        assertTrue(found >= 2, "tiered compilation has a C1 and a C2 thread at least: " + lines);
        assertEquals(found, Integer.parseInt(result[1]), "all moved: " + lines);
        assertEquals("null", result[2], lines.toString());
        int compilers = 0;
        int others = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            if (f[1].contains("CompilerThre")) {
                compilers++;
                assertEquals(CompilerThreads.SCHED_IDLE, Integer.parseInt(f[2]), line);
            } else {
                others++;
                assertEquals(0, Integer.parseInt(f[2]), "every other thread keeps SCHED_OTHER: " + line);
            }
        }
        assertEquals(found, compilers, lines.toString());
        assertTrue(others > 5, "the JVM's other threads were read too: " + lines);
    }

    @Test
    void withoutChrtNothingMovesAndTheResultSaysWhy() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's /proc");
        List<String> lines = probe("pacer-no-such-chrt");
        String[] result = lines.get(0).split(" ", 3);
        assertTrue(Integer.parseInt(result[0]) >= 2, lines.toString());
        assertEquals(0, Integer.parseInt(result[1]), lines.toString());
        assertEquals("chrt: not found", result[2]);
        for (String line : lines.subList(1, lines.size())) {
            assertEquals("0", line.split("\t")[2], "nothing moved: " + line);
        }
    }

    @Test
    void theStartLineSaysHowManyMovedAndWhyNotAll() {
        assertEquals("pacer: 2 JIT compiler threads at idle priority for the run",
                new CompilerThreads.Result(2, 2, null).startLine());
        assertEquals("pacer: 1 JIT compiler thread at idle priority for the run",
                new CompilerThreads.Result(1, 1, null).startLine());
        assertEquals("pacer: 1 of 2 JIT compiler threads at idle priority for the run (chrt: exit 1)",
                new CompilerThreads.Result(2, 1, "chrt: exit 1").startLine());
        assertEquals("pacer: JIT compiler threads left at their priority (chrt: not found)",
                new CompilerThreads.Result(2, 0, "chrt: not found").startLine());
        assertEquals("pacer: JIT compiler threads left at their priority (none found)",
                new CompilerThreads.Result(0, 0, null).startLine());
    }

    /** Whether {@code chrt} is there to run. */
    private static boolean chrtRuns() throws InterruptedException {
        try {
            Process p = new ProcessBuilder("chrt", "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Runs {@link Probe} in a fresh JVM with this one's class path; its output's lines. */
    private List<String> probe(String chrt) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path out = dir.resolve("probe.txt");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Probe.class.getName(), chrt)
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the probe ended: " + Files.readString(out));
        } finally {
            p.destroyForcibly();
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        List<String> lines = text.lines().toList();
        assertFalse(lines.isEmpty(), "the probe printed its result");
        return lines;
    }

    /** Moves its JVM's compiler threads with {@code args[0]} as chrt, then prints the result and every thread. */
    public static final class Probe {
        public static void main(String[] args) throws IOException {
            CompilerThreads.Result r = CompilerThreads.idle(10_000, args[0]);
            System.out.println(r.found() + " " + r.moved() + " " + r.problem());
            try (var tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path t : tasks.toList()) {
                    String tid = t.getFileName().toString();
                    try {
                        String name = Files.readString(t.resolve("comm")).strip();
                        System.out.println(tid + "\t" + name + "\t" + CompilerThreads.policy(tid));
                    } catch (IOException e) {
                        // ended meanwhile
                    }
                }
            }
        }
    }
}
