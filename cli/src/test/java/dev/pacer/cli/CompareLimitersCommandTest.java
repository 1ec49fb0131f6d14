package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pacer compare-limiters}: bad input is one line and exit 2 before any design runs; each run keeps its own log.
 */
class CompareLimitersCommandTest {

    @TempDir
    Path dir;

    @Test
    void badInputIsOneLineBeforeAnyDesignRuns() throws Exception {
        Files.writeString(dir.resolve("a-file"), "x");
        // the one line is also the proof that nothing ran: the header and each design's line come after the checks
        String[][] cases = {
                {"invalid --threads '0': must be between 1 and 4096", "-t", "0"},
                {"invalid --rate '2000000': the default designs include warmup", "--rate", "2e6"},
                {"invalid --limiter 'warmup': at 2000000 ops/s: the warmup limiter", "--rate", "2e6", "--limiter",
                        "leaky", "--limiter", "warmup"},
                {"invalid --plot 'nope/page.html': the folder", "--plot", "nope/page.html"},
                {"invalid --plot '.': is a folder", "--plot", "."},
                {"invalid --plot '': give a file name", "--plot", ""},
                {"invalid --plot '/proc/page.html': cannot make a file there", "--plot", "/proc/page.html"},
                {"invalid --dir '': give a folder", "--dir", ""},
                {"invalid --dir 'a-file': is not a folder", "--dir", "a-file"},
                {"invalid --dir '/proc/logs': cannot make the folder", "--dir", "/proc/logs"},
        };
        for (String[] c : cases) {
            List<String> given = Arrays.asList(c).subList(1, c.length);
            List<String> args = new ArrayList<>(List.of("compare-limiters", "-d", "2s"));
            if (!given.contains("--limiter") && !given.contains("--rate")) {
                args.addAll(List.of("--limiter", "leaky")); // one short design, should it run
            }
            args.addAll(given);
            PacerProcess.Result r = PacerProcess.run(dir, 60, args.toArray(String[]::new));
            assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.stderr());
            RunLimitsTest.assertOneLineNaming(r, "pacer: " + c[0]);
            assertFalse(r.stderr().contains("--virtual"), "compare-limiters has no --virtual: " + r.stderr());
        }
    }

    @Test
    void aBareZeroStallIsNone() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, "compare-limiters", "-d", "200ms", "--stall", "0",
                "--limiter", "leaky",
                "--dir", "logs");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().contains("the op stalls 0"), r.stdout());
    }

    @Test
    void twoVariantsOfOneDesignWriteTwoLogsUnderTheirOwnLabels() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, "compare-limiters", "-d", "300ms", "--stall", "0",
                "--limiter", "leaky:queue=0", "--limiter", "leaky:queue=100", "--dir", "logs", "--plot", "page.html");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(Files.readString(dir.resolve("logs/leaky.hlog")).contains("leaky:queue=0"), "the first run's log");
        assertTrue(Files.readString(dir.resolve("logs/leaky-2.hlog")).contains("leaky:queue=100"), "the second run's "
                + "log");
        assertTrue(r.stdout().contains("leaky:queue=0") && r.stdout().contains("leaky:queue=100"), r.stdout());
        String page = Files.readString(dir.resolve("page.html"));
        assertTrue(page.contains("leaky:queue=0") && page.contains("leaky:queue=100"), "the page labels each run");
    }
}
