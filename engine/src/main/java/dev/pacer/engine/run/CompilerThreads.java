package dev.pacer.engine.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The JVM's JIT compiler threads, moved to Linux's idle scheduling class ({@code SCHED_IDLE}) once a run's warm-ups
 * are done: what the JIT still compiles during the run (the reporter's code, which runs a few times a second and
 * becomes hot only seconds in; a path the warm-up never took) then runs on CPU the run leaves, instead of taking a
 * core from the op and its server for 5 to 40 ms at a time. Measured at 60 000 req/s against nginx on 2 cores: the
 * JIT compiled for about 300 ms in a 20 s run; the 100 ms intervals in which it compiled for 3 ms or more had a
 * median response p99 of 3.2 to 5.1 ms against 0.9 to 1.6 ms in the others; with the threads idle, the whole run's
 * p99 went from 2.3 to 4.1 ms to 1.5 to 1.7 ms ({@code docs/measuring.md}).
 *
 * <p>For a process that is the test: the change lasts as long as the process (an unprivileged thread may enter the
 * idle class but not leave it), so the Java API leaves it off unless asked. It uses {@code chrt} (util-linux), as
 * the JDK offers no call for a thread's scheduling policy; where there is none (not Linux, no {@code chrt}) nothing
 * changes, and the result says why. Compiler threads the JVM starts later (it adds some on demand on machines with
 * many cores) keep the normal class. Called by the run's thread, once, before the clock starts.
 */
public final class CompilerThreads {

    /** {@code SCHED_IDLE}'s number in {@code /proc/.../stat}'s policy field. */
    static final int SCHED_IDLE = 5;
    /** The 41st field of {@code /proc/.../stat}: the scheduling policy. */
    private static final int POLICY_FIELD = 41;
    private static final Path TASKS = Path.of("/proc/self/task");

    private CompilerThreads() {
    }

    /**
     * What {@link #idle} did.
     *
     * @param found   compiler threads found
     * @param moved   of those, now in the idle class
     * @param problem why some or all were not moved, or null
     */
    public record Result(int found, int moved, String problem) {

        /** For the warm-up's start line: {@code its 2 compiler threads idle for the run}. */
        public String phrase() {
            if (problem == null) {
                return "its " + moved + " compiler thread" + (moved == 1 ? "" : "s") + " idle for the run";
            }
            return "compiler threads at their priority (" + problem + ")";
        }
    }

    /** Moves every compiler thread of this JVM to the idle class, waiting at most {@code timeoutMillis} for each. */
    public static Result idle(long timeoutMillis) {
        return idle(timeoutMillis, "chrt");
    }

    /** As {@link #idle(long)}, with {@code chrt} the command to run. */
    static Result idle(long timeoutMillis, String chrt) {
        List<String> threads;
        try {
            threads = compilerThreads();
        } catch (IOException | UncheckedIOException e) {
            return new Result(0, 0, "no /proc/self/task: not Linux");
        }
        if (threads.isEmpty()) {
            return new Result(0, 0, "none found");
        }
        int moved = 0;
        String problem = null;
        for (String tid : threads) {
            String failure = chrtIdle(chrt, tid, timeoutMillis);
            if (failure == null) {
                moved++;
            } else {
                problem = failure;
            }
        }
        return new Result(threads.size(), moved, problem);
    }

    /** The thread ids of this JVM's compiler threads (HotSpot names them "C1 CompilerThread0", "C2 ..."). */
    static List<String> compilerThreads() throws IOException {
        List<String> ids = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                if (name.contains("CompilerThre")) { // the kernel keeps 15 characters of a name
                    ids.add(task.getFileName().toString());
                }
            }
        }
        return ids;
    }

    /** The scheduling policy of thread {@code tid} of this JVM ({@link #SCHED_IDLE} once moved). */
    static int policy(String tid) throws IOException {
        String stat = Files.readString(TASKS.resolve(tid).resolve("stat"), StandardCharsets.US_ASCII);
        // the name, in parentheses, may hold spaces: count the fields after its closing one (field 2)
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
        return Integer.parseInt(after[POLICY_FIELD - 3]);
    }

    /** Runs {@code chrt --idle --pid 0 TID}; null when it did, else why not. */
    private static String chrtIdle(String chrt, String tid, long timeoutMillis) {
        Process p;
        try {
            p = new ProcessBuilder(chrt, "--idle", "--pid", "0", tid).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            return "chrt: not found";
        }
        try {
            if (!p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return "chrt: no answer in " + timeoutMillis + " ms";
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        if (p.exitValue() != 0) {
            return "chrt: exit " + p.exitValue();
        }
        try {
            return policy(tid) == SCHED_IDLE ? null : "chrt left its policy at " + policy(tid);
        } catch (IOException | RuntimeException e) {
            return "its policy unreadable: " + e.getMessage();
        }
    }
}
