package dev.pacer.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code pacer} in a fresh JVM with this module's class path, as a user would. */
final class PacerProcess {

    final Process process;
    final Path stdout;
    final Path stderr;

    private PacerProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** The JVM options of a pacer started without its own: a heap bound, and the launcher's collector and traps. */
    static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xmx512m", "-XX:+UseSerialGC",
            "-XX:PerMethodTrapLimit=0", "-XX:PerBytecodeTrapLimit=0");

    static PacerProcess start(Path workDir, String... args) throws IOException {
        return start(workDir, DEFAULT_JVM_OPTIONS, args);
    }

    /** Starts pacer with these JVM options (a heap bound, GC logging) in place of {@link #DEFAULT_JVM_OPTIONS}. */
    static PacerProcess start(Path workDir, List<String> jvmOptions, String... args) throws IOException {
        return start(workDir, List.of(), jvmOptions, args);
    }

    /** Starts pacer under a wrapper command ({@code ip netns exec NS}) with these JVM options. */
    static PacerProcess start(Path workDir, List<String> wrapper, List<String> jvmOptions,
            String... args) throws IOException {
        return start(workDir, java.util.Map.of(), wrapper, jvmOptions, args);
    }

    /**
     * Runs to completion (at most {@code timeoutSeconds}) with these environment variables set (a null value: unset).
     */
    static Result run(Path workDir, java.util.Map<String, String> env, long timeoutSeconds,
            String... args) throws Exception {
        return start(workDir, env, List.of(), DEFAULT_JVM_OPTIONS, args).await(timeoutSeconds);
    }

    private static PacerProcess start(Path workDir, java.util.Map<String, String> env, List<String> wrapper,
            List<String> jvmOptions,
                                      String... args) throws IOException {
        // the signals the tests send, back at their defaults: a suite started in the background (`nohup`, `cmd &`
        // without job control) passes them on ignored, and a JVM leaves an ignored signal ignored
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=HUP,INT,TERM"));
        command.addAll(wrapper);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PacerCommand.class.getName());
        command.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "stdout", ".txt");
        Path err = Files.createTempFile(workDir, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        Process p = pb.start();
        return new PacerProcess(p, out, err);
    }

    /** Runs to completion (at most {@code timeoutSeconds}) and returns the exit code. */
    static Result run(Path workDir, long timeoutSeconds, String... args) throws Exception {
        PacerProcess p = start(workDir, args);
        return p.await(timeoutSeconds);
    }

    Result await(long timeoutSeconds) throws Exception {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("pacer did not finish in " + timeoutSeconds + " s; stderr: "
                    + Files.readString(stderr));
        }
        return new Result(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
    }

    /** Sends a signal (INT, TERM) the way a terminal or an orchestrator would. */
    void signal(String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + name + " failed");
        }
    }

    record Result(int exitCode, String stdout, String stderr) {
    }
}
