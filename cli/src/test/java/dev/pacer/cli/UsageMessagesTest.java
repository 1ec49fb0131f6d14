package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad values found by an adversarial pass: each is one line naming the flag and the value, with its reason whole,
 * and exit 2. Usage errors never reach a run, so these run in this JVM.
 */
@Timeout(60)
class UsageMessagesTest {

    @TempDir
    Path dir;

    static PacerProcess.Result refused(String named, String... args) {
        PacerProcess.Result r = NewUserTest.pacer(args);
        assertEquals(2, r.exitCode(), r.stderr());
        Fixtures.assertOneLineNaming(r, named);
        return r;
    }

    @Test
    void aBodyFromAFolderOrFromNoFileIsOneLineAndExitTwo() throws Exception {
        Files.createDirectory(dir.resolve("folder"));
        String folder = "@" + dir.resolve("folder");
        refused("pacer: invalid --body '" + folder + "': " + dir.resolve("folder") + " is a folder; give a file",
                "run", "--op", "http", "--url", "http://127.0.0.1:1/", "--rate", "10", "--duration", "1s", "--body",
                        folder);
        refused("pacer: invalid --body '@': give a file after the @", "run", "--op", "http", "--url",
                "http://127.0.0.1:1/",
                "--rate", "10", "--duration", "1s", "--body", "@");
        String missing = "@" + dir.resolve("missing.json");
        refused("pacer: invalid --body '" + missing + "': no file " + dir.resolve("missing.json"), "run", "--op",
                "http",
                "--url", "http://127.0.0.1:1/", "--rate", "10", "--duration", "1s", "--body", missing);
    }

    /** Every subcommand's help lists -V; it printed nothing and exited 0 (an adversary's newcomer pass). */
    @Test
    void aBadFlagValueIsNamedInTheSameWordsWhetherPicocliOrPacerRefusesIt() {
        refused("pacer: invalid --rate 'abc': expected a number such as 1000", "run", "--rate", "abc");
        refused("pacer: invalid --rate '0': must be greater than 0 (see: pacer run --help)", "run", "--rate", "0");
        refused("pacer: invalid --duration '5q': expected a number with a unit", "run", "-d", "5q");
        refused("pacer: invalid --threads 'x': expected a whole number in ASCII digits", "run", "--threads", "x");
        // picocli's own int would take other scripts' digits, which no other flag takes
        refused("pacer: invalid --threads '\u0662': expected a whole number in ASCII digits", "run", "--threads",
                "\u0662");
        refused("pacer: invalid --seed '99999999999999999999': too large (at most 9223372036854775807)", "run",
                "--seed", "99999999999999999999");
        refused("pacer: invalid --max-error-ratio '0x1p-1': expected a number such as", "run", "--max-error-ratio",
                "0x1p-1");
        refused("pacer: invalid --threads '0': must be between 1 and 4096", "run", "--threads", "0");
    }

    @Test
    void aWorkloadThatIsNoFileAndAnOutputUnderAFileSayWhatTheyAre() throws Exception {
        Files.createDirectory(dir.resolve("w.yaml"));
        refused("pacer: invalid workload file '" + dir.resolve("w.yaml") + "': is a folder", "show",
                dir.resolve("w.yaml").toString());
        refused("pacer: invalid workload file '/dev/null': not a regular file", "show", "/dev/null");
        Path w = Files.writeString(dir.resolve("shop.yaml"), "base: http://127.0.0.1:1\nops: {a: {weight: 1, request: "
                + "GET /}}\n");
        refused("pacer: invalid --method 'POST': a workload file's requests are set in the file", "run",
                w.toString(), "--method", "POST", "--rate", "10", "-d", "1s");
        refused("pacer: invalid scenario file '" + dir.resolve("w.yaml") + "': is a folder", "run", "--scenario",
                dir.resolve("w.yaml").toString());
        Path file = Files.writeString(dir.resolve("notes.txt"), "x");
        refused("pacer: invalid --hlog '" + file.resolve("run.hlog") + "': " + file + " is a file, not a folder",
                "run", "--rate", "10", "-d", "1s", "--hlog", file.resolve("run.hlog").toString());
    }

    @Test
    void everySubcommandsVersionFlagPrintsPacersVersion() {
        String version = NewUserTest.pacer("-V").stdout();
        assertTrue(version.startsWith("pacer "), version);
        for (String sub : PacerCommand.commandLine().getSubcommands().keySet()) {
            if (sub.equals("help")) {
                continue; // picocli's help command: its one argument is a command's name (pacer help run)
            }
            PacerProcess.Result r = NewUserTest.pacer(sub, "-V");
            assertEquals(0, r.exitCode(), sub + ": " + r.stderr());
            assertEquals(version, r.stdout(), "pacer " + sub + " -V");
        }
    }

    @Test
    void showsShardCountIsNamedAsItsOwnFlagWithTheValueGiven() throws Exception {
        Path shop = Files.copy(NewUserTest.ROOT.resolve("docs/shop.yaml"), dir.resolve("shop.yaml"));
        refused("pacer: invalid --shards '0': needs 1 to 100000 shards", "show", shop.toString(), "--shards", "0");
        refused("pacer: invalid --shards '-1': needs 1 to 100000", "show", shop.toString(), "--shards", "-1");
    }

    /** A var given twice: the last won without a word. */
    @Test
    void aVarGivenTwiceIsRefusedByRunAndShow() throws Exception {
        Path shop = Files.copy(NewUserTest.ROOT.resolve("docs/shop.yaml"), dir.resolve("shop.yaml"));
        refused("pacer: invalid --var 'users=2': sets users again: give each var once", "show", shop.toString(),
                "--var", "users=1", "--var", "users=2");
        refused("invalid --var 'users=2': sets users again: give each var once", "run", shop.toString(), "--var",
                "users=1", "--var", "users=2", "--rate", "10", "--duration", "1s");
    }

    @Test
    void showsLastPossibleCyclePlusOneIsRefusedNotShownAsNothing() throws Exception {
        Path shop = Files.copy(NewUserTest.ROOT.resolve("docs/shop.yaml"), dir.resolve("shop.yaml"));
        // it showed the file's header and no cycle at all, exit 0
        refused("pacer: --cycle 9223372036854775807: the last cycle is 9223372036854775806", "show", shop.toString(),
                "--cycle", "9223372036854775807");
    }

    @Test
    void anOpProviderThatCannotBeLoadedIsOneLineNotAStackTrace() throws Exception {
        // a jar of ops whose service file names a class it lacks (or whose constructor throws)
        Path services = Files.createDirectories(dir.resolve("ops/META-INF/services"));
        Files.writeString(services.resolve("dev.pacer.engine.api.OpProvider"), "com.example.MissingOp\n");
        for (String[] args : new String[][] {{"ops"}, {"run", "--op", "noop", "--cycles", "1", "-q"}}) {
            java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    System.getProperty("java.class.path") + java.io.File.pathSeparator + dir.resolve("ops"),
                    PacerCommand.class.getName()));
            command.addAll(java.util.List.of(args));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(p.waitFor(50, java.util.concurrent.TimeUnit.SECONDS), out);
            assertEquals(2, p.exitValue(), out);
            assertEquals("pacer: an op provider on the class path cannot be loaded: Provider com.example.MissingOp not "
                    + "found", out.strip(), String.join(" ", args));
        }
    }

    @Test
    void anOpWhoseClassPathLacksAClassFailsInOneLineNotAStackTrace() throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, "run", "--op", "missing-class", "--cycles", "1", "-q");
        assertEquals(1, r.exitCode(), r.stderr());
        assertEquals("pacer: NoClassDefFoundError: com/example/Driver\n  (set PACER_DEBUG=1 for the stack trace)",
                r.stderr().strip());
    }

    @Test
    void aSearchHoldTooLongForARunNamesTheHoldNotADurationNobodyGave() {
        refused("pacer: invalid --hold '8760h00m': the search may take 11 probes of it, 96360h00m in all", "run",
                "--search", "response.p99<1s", "--from", "1", "--to", "2", "--hold", "8760h", "-q");
    }

    @Test
    void aRunNamedTwiceInControlsTargetsIsRefusedBeforeAnythingIsSent() {
        // two stops would end the grace period at once, cancelling the ops in flight
        refused("pacer: invalid --to '127.0.0.1:7070,7070': names 127.0.0.1:7070 twice; each run once",
                "control", "--to", "127.0.0.1:7070,7070", "stop");
    }

    @Test
    void aRateBesideASearchNamesTheSearchNotAScenarioNobodyGave() {
        refused("pacer: --rate cannot be combined with --search: its probes set the rate (--from, --to)", "run",
                "--search", "response.p99<1s", "--rate", "100", "-q");
        refused("pacer: --rate cannot be combined with a scenario: its phases set the rate", "run", "--scenario",
                "steady", "--rate", "100", "-q");
    }

    @Test
    void aPortPastTheRangeNamesTheUrl() {
        refused("pacer: invalid --url 'http://127.0.0.1:65536/': port 65536 is out of range (1 to 65535)",
                "run", "--op", "http", "--url", "http://127.0.0.1:65536/", "--rate", "10", "--duration", "1s", "-q");
    }

    @Test
    void aLineBreakInAHeaderOrUrlIsShownEscapedAndTheReasonFollowsIt() {
        refused("pacer: invalid --header 'X-A: b\\r\\nX-B: c': the value has a line break",
                "run", "--op", "http", "--url", "http://127.0.0.1:1/", "--rate", "10", "--duration", "1s", "-q",
                "--header", "X-A: b\r\nX-B: c");
        PacerProcess.Result url = refused("pacer: invalid --url 'http://127.0.0.1:1/a\\r\\nb': ", "run", "--op", "http",
                "--url", "http://127.0.0.1:1/a\r\nb", "--rate", "10", "--duration", "1s", "-q");
        assertTrue(url.stderr().strip().length() > "pacer: invalid --url 'http://127.0.0.1:1/a\\r\\nb': ".length() + 5,
                "a reason follows: " + url.stderr());
    }

    @Test
    void aSearchHoldShorterThanWhatItJudgesIsRefused() {
        refused("pacer: invalid --hold '1ns': a probe is judged on the reporting intervals after its first fifth: give "
                + "at"
                + " least 1.25 x --interval (1.25s)", "run", "--search", "response.p99<20ms", "--hold", "1ns", "-q");
        refused("pacer: invalid --interval '20.0s': is too long for a search's probes of 10s (--hold)",
                "run", "--search", "response.p99<20ms", "--interval", "20s", "-q");
    }

    @Test
    void aScenarioFromAPipeOrAnEmptyNameIsOneLineNotAHangOrAFolder() throws Exception {
        Path fifo = dir.resolve("steps.yaml");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor(), "mkfifo");
        refused("pacer: invalid scenario file '" + fifo + "': not a regular file (a device, pipe or socket); save it "
                + "to a file first", "run", fifo.toString(), "-q"); // no writer: reading it would wait forever
        refused("pacer: invalid --scenario '': expected a built-in scenario's name (pacer scenarios lists them) or a "
                + "scenario file", "run", "--scenario", "", "-q");
    }

    @Test
    void aShardOfAnUnpacedRunIsRefused() {
        refused("pacer: invalid --shard '1/4': needs something for the shards to divide: give --rate (or a scenario) "
                + "or --cycles", "run", "--shard", "1/4", "--duration", "1s", "-q");
    }

    @Test
    void aSearchAsAShardIsRefused() {
        refused("pacer: --search cannot run as a shard (--shard 0/2)", "run", "--search", "response.p99<20ms",
                "--shard", "0/2", "-q");
    }
}
