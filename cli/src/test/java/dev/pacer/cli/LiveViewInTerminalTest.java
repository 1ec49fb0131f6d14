package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pacer run} in a real pseudo-terminal (tmux, 100 columns): the live status block, commands typed
 * while it redraws, one acknowledgement each, Ctrl-C. Reads the screen as a person would see it.
 * Skips loudly without tmux unless {@code PACER_REQUIRE_TMUX=1} (CI installs it).
 */
@Timeout(300)
class LiveViewInTerminalTest {

    static final int WIDTH = 100;
    /**
     * A tmux server of this JVM's own (its socket named after the process), so no other tmux user, a second test run
     * included, can end it or take its session names.
     */
    static final String SOCKET = "pacer-test-" + ProcessHandle.current().pid();
    /** What the last {@link #tmux} call printed. */
    static volatile String lastOutput = "";

    @TempDir
    Path dir;

    String session;

    @BeforeEach
    void needTmux() throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/tmux"))) {
            if ("1".equals(System.getenv("PACER_REQUIRE_TMUX"))) {
                throw new AssertionError("tmux is required (PACER_REQUIRE_TMUX=1) but not installed: run .ci/tmux.sh");
            }
            System.err.println("!!! SKIPPING the live-view test: tmux is not installed (apt-get install tmux)");
            Assumptions.abort("tmux is not installed");
        }
        session = "pacer-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    }

    @AfterEach
    void killSession() throws Exception {
        tmux("kill-session", "-t", session);
    }

    /** Starts {@code pacer run ARGS} in a new 100-column session; its exit status lands in {@code exit.txt}. */
    void start(String args) throws Exception {
        start(args, WIDTH);
    }

    /** Starts {@code pacer run ARGS} in a new session {@code width} columns wide. */
    void start(String args, int width) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String command = "cd '" + dir + "' && '" + java + "' -Xmx256m -cp '" + System.getProperty("java.class.path")
                + "' "
                + PacerCommand.class.getName() + " run " + args + "; echo $? > exit.txt; sleep 60";
        String[] newSession = {"new-session", "-d", "-s", session, "-x", Integer.toString(width), "-y", "40", command};
        if (tmux(newSession) != 0) {
            // the previous test's kill-session ended this socket's server, which may still be exiting: once more
            Thread.sleep(500);
            assertEquals(0, tmux(newSession), "tmux new-session: " + lastOutput);
        }
    }

    /** The screen, wrapped lines joined (so a line wider than the terminal shows as one long line). */
    String screen() throws Exception {
        Process p = new ProcessBuilder("tmux", "-L", SOCKET, "capture-pane", "-p", "-J", "-t",
                session).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        p.waitFor(10, TimeUnit.SECONDS);
        return text;
    }

    String awaitScreen(Predicate<String> condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
        String s = "";
        while (System.nanoTime() < deadline) {
            s = screen();
            if (condition.test(s)) {
                return s;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never saw " + what + "; the screen:\n" + s);
    }

    void type(String keys, boolean enter) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("send-keys", "-t", session, "-l", keys));
        assertEquals(0, tmux(cmd.toArray(String[]::new)));
        if (enter) {
            assertEquals(0, tmux("send-keys", "-t", session, "Enter"));
        }
    }

    int awaitExit() throws Exception {
        Path exit = dir.resolve("exit.txt");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && (!Files.exists(exit) || Files.readString(exit).isBlank())) {
            Thread.sleep(100);
        }
        return Integer.parseInt(Files.readString(exit).strip());
    }

    /** The run exited with 0; else the failure shows the screen (the run's own last lines say why). */
    void assertExitedOk() throws Exception {
        int code = awaitExit();
        assertEquals(0, code, "exit status " + code + "; the screen:\n" + screen());
    }

    static int tmux(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tmux", "-L", SOCKET));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        lastOutput = new String(p.getInputStream().readAllBytes()).strip();
        return p.waitFor(10, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    static int count(String text, String needle) {
        Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    /** The progress bar's elapsed seconds on the screen (the block's second line). */
    static String elapsed(String screen) {
        Matcher m = Pattern.compile("\\]  ([0-9.]+s) of").matcher(screen);
        return m.find() ? m.group(1) : "";
    }

    @Test
    void theStatusBlockRedrawsInPlaceAndTypingIsNeverBroken() throws Exception {
        start("--rate 2000 --threads 2 --op sleep:1ms --duration 10s");
        String s = awaitScreen(x -> x.contains("pacer> ") && x.contains("wait p50"), "the status block and the prompt");
        for (String line : s.split("\n")) {
            assertTrue(line.length() <= WIDTH, "within the terminal's width: " + line.length() + ": " + line);
        }
        assertEquals(1, count(s, "pacer> "), "the block is redrawn in place, not repeated: \n" + s);

        type("rate 1", false); // half a command, then the block redraws at least once under it
        String before = elapsed(screen());
        awaitScreen(x -> !elapsed(x).equals(before) && !elapsed(x).isEmpty(), "a redraw while typing");
        type("500", true);
        s = awaitScreen(x -> x.contains("ok: rate 1500,0 (console)"), "the command's answer");
        assertEquals(1, count(s, "ok: rate 1500,0 (console)"), "one acknowledgement:\n" + s);
        assertFalse(s.contains(">> rate"), "not a second one:\n" + s);
        assertTrue(s.contains("rate 1500,0"), "the block shows the new rate:\n" + s);

        type("help", true);
        awaitScreen(x -> x.contains("commands: rate RATE[,STRICTNESS]"), "help");
        type("warp 9", true);
        awaitScreen(x -> x.contains("error: unknown command 'warp'"), "a refusal on one line");

        assertExitedOk();
        s = screen();
        assertTrue(s.contains("stopped by duration"), "the summary follows the last status:\n" + s);
    }

    @Test
    void ctrlCStopsTheRunAndTheSummaryIsStillWritten() throws Exception {
        start("--rate 500 --duration 60s --summary live.json");
        awaitScreen(x -> x.contains("pacer> ") && x.contains("wait p50"), "the status block");
        assertEquals(0, tmux("send-keys", "-t", session, "C-c"));
        assertEquals(130, awaitExit(), "128 + SIGINT");
        String s = screen();
        assertTrue(s.contains("stopped by SIGINT"), s);
        assertTrue(Files.readString(dir.resolve("live.json")).contains("\"stoppedBy\" : \"SIGINT\""));
    }

    @Test
    void aTerminalNarrowerThanFortyOneColumnsGetsABlockThatFitsAndIsRedrawnInPlace() throws Exception {
        int narrow = 30;
        start("--rate 500 --duration 6s --interval 500ms", narrow);
        String s = awaitScreen(x -> x.contains("pacer> ") && x.contains("wait p50"), "the status block");
        String first = elapsed(s);
        s = awaitScreen(x -> !elapsed(x).isEmpty() && !elapsed(x).equals(first) && x.contains("pacer> "), "a redraw");
        List<String> lines = List.of(s.split("\n"));
        int prompt = lines.size() - 1;
        while (prompt > 0 && !lines.get(prompt).startsWith("pacer> ")) {
            prompt--;
        }
        int top = prompt; // the block: the lines above the prompt, up to the run's output (start lines: 'pacer: ...')
        while (top > 0 && !lines.get(top - 1).isBlank() && !lines.get(top - 1).startsWith("pacer: ")) {
            top--;
        }
        assertTrue(prompt - top >= 2, "the block's lines above the prompt:\n" + s);
        for (String line : lines.subList(top, prompt + 1)) {
            assertTrue(line.length() <= narrow, "within " + narrow + " columns: " + line.length() + ": " + line);
        }
        assertEquals(1, count(s, "pacer> "), "redrawn in place, not piled up:\n" + s);
        assertExitedOk();
    }

    @Test
    void aLongPasteIsAnsweredInOneLineWithoutEchoingIt() throws Exception {
        start("--rate 500 --duration 20s");
        awaitScreen(x -> x.contains("pacer> ") && x.contains("wait p50"), "the status block");
        type("x".repeat(10_000), true);
        String s = awaitScreen(x -> x.contains("error: "), "the answer");
        for (String line : s.split("\n")) {
            assertFalse(line.startsWith("error") && line.contains("xxxxxxxxxx"), "the paste is not echoed back: "
                    + line.length() + " characters");
        }
        assertTrue(s.contains("error: a command is one short line (rate 8000, threads 32, help, ...); this one has "
                + "10000"
                + " characters, not run"), s);
        type("stop", true);
        assertExitedOk();
    }
}
