package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What a new user meets following the README: the launcher, the help, and flags given in the wrong
 * place. Each bad input is one line naming it and a non-zero exit.
 */
class NewUserTest {

    /** The repository root (the cli module's parent). */
    static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();

    @TempDir
    Path dir;

    /** Runs the command line in this JVM (usage errors never reach a run). */
    static PacerProcess.Result pacer(String... args) {
        CommandLine cl = PacerCommand.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new PacerProcess.Result(code, out.toString(), err.toString());
    }

    /** Runs a shell command line in {@code dir} with extra environment; returns exit code, stdout, stderr. */
    PacerProcess.Result shell(Map<String, String> env, String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(dir.toFile());
        pb.environment().putAll(env);
        Path out = dir.resolve("sh.out");
        Path err = dir.resolve("sh.err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), script);
        return new PacerProcess.Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void theLauncherUsesAGoodJavaHomeWhenUsrLibJvmIsMissingOrEmpty() throws Exception {
        String javaHome = System.getProperty("java.home");
        Files.createDirectories(dir.resolve("empty-jvm"));
        for (String jvmDir : List.of(dir.resolve("no-such-dir").toString(), dir.resolve("empty-jvm").toString())) {
            PacerProcess.Result r = shell(
                    Map.of("JAVA_HOME", javaHome, "PACER_JVM_DIR", jvmDir, "PATH", "/usr/bin:/bin"),
                    "set -euo pipefail; . '" + ROOT.resolve("bin/jdk.sh") + "'; pacer_find_jdk; echo \"found "
                            + "$JAVA_HOME\"");
            assertEquals(0, r.exitCode(), jvmDir + ": " + r.stderr());
            assertEquals("found " + javaHome, r.stdout().strip());
        }
    }

    @Test
    void theLauncherRunsThroughASymlinkOnPath() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("pacer"), ROOT.resolve("pacer"));
        PacerProcess.Result r = shell(Map.of("JAVA_HOME", System.getProperty("java.home"), "PACER_SKIP_BUILD", "1",
                        "PACER_CLASSPATH", System.getProperty("java.class.path"), "PATH", bin + ":/usr/bin:/bin"),
                "pacer --version");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().startsWith("pacer "), r.stdout());
    }

    @Test
    void aBodyFromAFileReachesTheOpAsAtFileNotExpandedIntoArguments() throws Exception {
        Path payload = Files.writeString(dir.resolve("payload.json"), "{\"a\": 1, \"b\": [2, 3]}\n");
        CommandLine cl = PacerCommand.commandLine();
        cl.parseArgs("run", "--op", "http", "--url", "http://127.0.0.1:1/", "--body", "@" + payload);
        RunCommand run = cl.getSubcommands().get("run").getCommand();
        assertEquals("@" + payload, run.http.body);
    }

    @Test
    void httpFlagsWithoutTheHttpOpAreRefused() {
        for (String[] flag : new String[][] {{"--url", "http://127.0.0.1:1/"}, {"--method", "POST"}, {"--expect",
                "2xx"}}) {
            PacerProcess.Result r = pacer("run", "--rate", "10", "--duration", "1s", flag[0], flag[1]);
            assertEquals(2, r.exitCode(), flag[0] + ": " + r.stderr());
            Fixtures.assertOneLineNaming(r, flag[0]);
            assertTrue(r.stderr().contains("--op http"), r.stderr());
        }
    }

    @Test
    void aControlTokenWithoutControlIsRefused() {
        PacerProcess.Result r = pacer("run", "--rate", "10", "--duration", "1s", "--control-token", "s3cret");
        assertEquals(2, r.exitCode(), r.stderr());
        Fixtures.assertOneLineNaming(r, "--control-token");
        assertTrue(r.stderr().contains("--control"), r.stderr());
    }

    @Test
    void aMistypedOptionOrCommandGetsASuggestion() {
        PacerProcess.Result option = pacer("run", "--rat", "1000");
        assertEquals(2, option.exitCode(), option.stderr());
        Fixtures.assertOneLineNaming(option, "--rat");
        assertTrue(option.stderr().contains("did you mean --rate?"), option.stderr());
        PacerProcess.Result command = pacer("runn");
        assertEquals(2, command.exitCode(), command.stderr());
        Fixtures.assertOneLineNaming(command, "runn");
        assertTrue(command.stderr().contains("did you mean run?"), command.stderr());
    }

    @Test
    void helpUsesTheTerminalsWidth() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // a 100-column pseudo-terminal, as a user's window would be
        PacerProcess.Result r = shell(Map.of("CP", System.getProperty("java.class.path")),
                "script -qec \"stty cols 100 rows 50; '" + java + "' -cp \\\"\\$CP\\\" " + PacerCommand.class.getName()
                        + " run --help\" /dev/null");
        assertEquals(0, r.exitCode(), r.stderr());
        String text = r.stdout().replaceAll("\u001B\\[[0-9;]*m", ""); // a terminal gets colours
        int widest = text.lines().mapToInt(l -> l.stripTrailing().length()).max().orElse(0);
        assertTrue(widest > 80 && widest <= 100, "lines up to 100 columns, the widest is " + widest + ":\n" + text);
    }

    @Test
    void noArgumentsPrintsTheUsageOnStderrAndExitsTwo() {
        PacerProcess.Result r = pacer();
        assertEquals(2, r.exitCode());
        assertTrue(r.stderr().contains("Usage: pacer"), r.stderr());
        assertEquals("", r.stdout());
    }

    @Test
    void completionIsRegisteredForPacerAndDotSlashPacer() {
        PacerProcess.Result r = pacer("generate-completion");
        assertEquals(0, r.exitCode(), r.stderr());
        String complete = r.stdout().lines().filter(l -> l.startsWith("complete ")).reduce("", (a, b) -> a + b + "\n");
        assertTrue(complete.matches("(?s).* pacer( .*)?\n"), complete);
        assertTrue(complete.contains(" ./pacer"), complete);
    }

    @Test
    void controlToTakesAPortAloneAsControlDoes() throws Exception {
        int port = Fixtures.freePort();
        PacerProcess.Result r = pacer("control", "--to", Integer.toString(port), "status");
        assertEquals(1, r.exitCode(), "not a usage error: nothing listens there; " + r.stderr());
        assertEquals("pacer control: cannot reach a run at 127.0.0.1:" + port + " (is 'pacer run --control' running "
                + "there?)",
                r.stderr().strip());
    }

    @Test
    void aTinyTargetRateIsShownAsItIsNotRoundedToZero() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--rate", "1e-6", "--duration", "100ms", "-q");
        assertEquals(0, r.exitCode(), r.stderr());
        // 100 ms of a slot a million seconds long: its one op is no rate, and the target is shown as given
        assertTrue(r.stdout().contains("achieved - (1 in 100ms, within its first slot), target 0.000001,"), r.stdout());
        assertFalse(r.stdout().contains("target 0.0 ") || r.stdout().contains("target 0.0,"), r.stdout());
    }
}
