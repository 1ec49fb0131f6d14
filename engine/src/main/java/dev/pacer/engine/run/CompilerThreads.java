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
 * becomes hot only seconds in; a path the warm-ups never took) then runs on CPU the run leaves, instead of taking a
 * core from the op and its server for up to 40 ms of compiling at a time. Measured at 60 000 req/s against nginx on 2
 * cores: the JIT compiled for about 300 ms in a 20 s run; the 100 ms intervals in which it compiled for 3 ms or more
 * had a median response p99 of 2.9 to 5.1 ms against 0.9 to 1.6 ms in the others; with the threads idle, the whole
 * run's p99 went from 3.13 to 1.83 ms (medians of five runs; {@code docs/measuring.md}).
 *
 * <p>For a process that is the test: the change lasts as long as the process (an unprivileged thread may enter the
 * idle class but not leave it), so the Java API leaves it off unless asked. It uses {@code chrt} (util-linux), as
 * the JDK offers no call for a thread's scheduling policy; where there is none (not Linux, no {@code chrt}) nothing
 * changes, and the result says why. Compiler threads the JVM adds later (on demand, on machines with many cores) are
 * started by a compiler thread, and a Linux thread starts in its creator's class. Called by the run's thread, once,
 * before the clock starts.
 */
public final class CompilerThreads {

    /** {@code SCHED_IDLE}'s number in {@code /proc/.../stat}'s policy field. */
    static final int SCHED_IDLE = 5;
    /** The 41st field of {@code /proc/.../stat}: the scheduling policy. */
    private static final int POLICY_FIELD = 41;
    private static final Path TASKS = Path.of("/proc/self/task");
    /** What {@link #chrtIdle} answers when the thread ended before it was moved. */
    private static final String ENDED = "ended";

    private CompilerThreads() {
    }

    /**
     * What {@link #idle} did.
     *
     * @param found   compiler threads found (those that ended meanwhile left out)
     * @param moved   of those, now in the idle class
     * @param problem why some or all were not moved, or null
     */
    public record Result(int found, int moved, String problem) {

        /**
         * Its start line, printed after the warm-up's: {@code pacer: 2 JIT compiler threads at idle priority for the
         * run}, or why not ({@code pacer: JIT compiler threads left at their priority (chrt: not found)}).
         */
        public String startLine() {
            if (moved == 0) {
                return "pacer: JIT compiler threads left at their priority ("
                        + (problem == null ? "none found" : problem) + ")";
            }
            int of = problem == null ? moved : found;
            String threads = " JIT compiler thread" + (of == 1 ? "" : "s") + " at idle priority for the run";
            return problem == null ? "pacer: " + moved + threads : "pacer: " + moved + " of " + found + threads + " ("
                    + problem + ")";
        }
    }

    /** Moves every compiler thread of this JVM to the idle class, waiting at most {@code timeoutMillis} for each. */
    public static Result idle(long timeoutMillis) {
        return idle(timeoutMillis, "chrt");
    }

    /** As {@link #idle(long)}, with {@code chrt} the command to run. */
    static Result idle(long timeoutMillis, String chrt) {
        if (!Files.isDirectory(TASKS)) {
            return new Result(0, 0, "no /proc/self/task: not Linux");
        }
        List<String> threads;
        try {
            threads = compilerThreads();
        } catch (IOException | UncheckedIOException e) {
            return new Result(0, 0, "reading /proc/self/task failed: " + e.getMessage());
        }
        if (threads.isEmpty()) {
            return new Result(0, 0, "none found");
        }
        int found = threads.size();
        int moved = 0;
        String problem = null;
        for (String tid : threads) {
            String failure = chrtIdle(chrt, tid, timeoutMillis);
            if (failure == null) {
                moved++;
            } else if (failure.equals(ENDED)) {
                found--;
            } else {
                problem = failure;
                if (failure.equals("chrt: not found") || Thread.currentThread().isInterrupted()) {
                    break; // no other thread would fare better
                }
            }
        }
        return new Result(found, moved, problem);
    }

    /**
     * The thread ids of this JVM's compiler threads: HotSpot names them "C1 CompilerThread0", "C2 ...", a JVMCI
     * compiler's "JVMCI CompilerThread0"; the kernel keeps their first 15 characters.
     */
    static List<String> compilerThreads() throws IOException {
        List<String> ids = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm"), StandardCharsets.ISO_8859_1).strip();
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                if (name.matches("\\S+ CompilerT.*")) {
                    ids.add(task.getFileName().toString());
                }
            }
        }
        return ids;
    }

    /** The scheduling policy of thread {@code tid} of this JVM ({@link #SCHED_IDLE} once moved). */
    static int policy(String tid) throws IOException {
        String stat = Files.readString(TASKS.resolve(tid).resolve("stat"), StandardCharsets.ISO_8859_1);
        // the name, in parentheses, may hold spaces: count the fields after its closing one (field 2)
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
        return Integer.parseInt(after[POLICY_FIELD - 3]);
    }

    /** Runs {@code chrt --idle --pid 0 TID}: null when it moved, {@link #ENDED} when the thread ended, else why not. */
    private static String chrtIdle(String chrt, String tid, long timeoutMillis) {
        Process p;
        try {
            p = new ProcessBuilder(chrt, "--idle", "--pid", "0", tid).redirectErrorStream(true).start();
        } catch (IOException e) {
            return "chrt: not found";
        }
        try (var in = p.getInputStream(); var out = p.getOutputStream()) { // its pipes closed now, not by the GC
            return answer(p, tid, timeoutMillis);
        } catch (IOException e) {
            return "chrt: " + e.getMessage();
        }
    }

    /** What {@link #chrtIdle} says of {@code p}, the chrt started for {@code tid}. */
    private static String answer(Process p, String tid, long timeoutMillis) {
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
        if (!Files.exists(TASKS.resolve(tid))) {
            return ENDED;
        }
        if (p.exitValue() != 0) {
            String said;
            try {
                said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().findFirst()
                        .orElse("exit " + p.exitValue());
            } catch (IOException e) {
                said = "exit " + p.exitValue();
            }
            return "chrt: " + said.replaceFirst("^chrt: ", "");
        }
        try {
            int policy = policy(tid);
            return policy == SCHED_IDLE ? null : "chrt left its policy at " + policy;
        } catch (IOException | RuntimeException e) {
            return Files.exists(TASKS.resolve(tid)) ? "its policy unreadable: " + e.getMessage() : ENDED;
        }
    }
}
