package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.Phase;
import dev.pacer.engine.api.RatePlan;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.SettingException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Java API used wrongly: each misuse is refused in one clear line, or made harmless. */
@Timeout(60)
class ApiMisuseTest {

    @Test
    void anAnonymousClassOpIsNamedCustomNotRefused() throws Exception {
        Op anonymous = new Op() {
            @Override
            public Outcome run(long cycle) {
                return null;
            }
        };
        LoadTest.Result r = LoadTest.unpaced().op(anonymous).cycles(10).run();
        assertEquals("custom", r.summary().op());
        assertEquals(10, r.summary().ops());
    }

    @Test
    void aSecondStartWhileTheFirstRunsIsRefusedSoTheyDoNotShareALog(@TempDir Path dir) throws Exception {
        ManualRunClock clock = new ManualRunClock();
        LoadTest test = PoissonRunTest.quiet(LoadTest.rate(10).op(cycle -> null).duration(Duration.ofSeconds(2)))
                .hlog(dir.resolve("run.hlog")).clock(clock);
        LoadTest.Running first = test.start();
        IllegalStateException e = assertThrows(IllegalStateException.class, test::start);
        assertTrue(e.getMessage().contains("already running"), e.getMessage());
        assertEquals(20, ManualClock.finish(clock, first).summary().ops());
        assertEquals(20, ManualClock.finish(clock, test.start()).summary().ops(), "once it has ended it runs again");
    }

    /** The README: bad input is a SettingException naming the setting; the rate's came from the limiter. */
    @Test
    void aBadRateIsASettingExceptionNamingTheRateAndTheValue() {
        SettingException zero = assertThrows(SettingException.class, () -> LoadTest.rate(0));
        assertEquals("rate", zero.setting());
        assertEquals("invalid rate '0': must be greater than 0", zero.getMessage());
        SettingException text = assertThrows(SettingException.class, () -> LoadTest.rate("10,x"));
        assertEquals("rate", text.setting());
        assertTrue(text.getMessage().startsWith("invalid rate '10,x': "), text.getMessage());
        assertEquals("invalid rate 'NaN': not a finite number",
                assertThrows(SettingException.class, () -> LoadTest.rate(Double.NaN)).getMessage());
    }

    @Test
    void aDurationTooLongToTimeIsRefusedInOneLine() {
        SettingException e = assertThrows(SettingException.class,
                () -> LoadTest.rate(10).op(cycle -> null).duration(Duration.ofSeconds(Long.MAX_VALUE)).start());
        assertEquals("duration", e.setting());
        assertTrue(e.getMessage().contains("too long: at most 8760h"), e.getMessage());
    }

    @Test
    void anIntervalGraceOrWarmUpTooLongToTimeIsRefusedNamingTheSetting() {
        Duration forever = Duration.ofSeconds(Long.MAX_VALUE);
        for (var c : java.util.Map.<String, java.util.function.UnaryOperator<LoadTest>>of(
                "interval", t -> t.interval(forever), "grace", t -> t.grace(forever),
                "engine-warm-up", t -> t.engineWarmUp(forever)).entrySet()) {
            SettingException e = assertThrows(SettingException.class,
                    () -> c.getValue().apply(LoadTest.rate(10).op(cycle -> null).cycles(1)).start());
            assertEquals(c.getKey(), e.setting());
            assertTrue(e.getMessage().contains("too long: at most 8760h"), e.getMessage());
        }
    }

    @Test
    void aTokenNoClientCanSendIsRefusedWithoutShowingIt() {
        for (String token : new String[] {"s3cret\n", "s3cret ", " s3cret", "s3\tcret"}) {
            SettingException e = assertThrows(SettingException.class,
                    () -> LoadTest.rate(10).op(cycle -> null).cycles(1).control("0.0.0.0:0", token).start());
            assertEquals("control-token", e.setting());
            assertTrue(e.getMessage().contains("Authorization header"), e.getMessage());
            assertTrue(!e.getMessage().contains("s3"), "the token is not shown: " + e.getMessage());
        }
    }

    @Test
    void awaitingForeverWaitsForTheEndInsteadOfOverflowing() throws Exception {
        LoadTest.Running running = LoadTest.rate(1000).op(cycle -> null).cycles(5).start();
        assertEquals(5, running.await(Duration.ofSeconds(Long.MAX_VALUE)).summary().ops());
        assertEquals(5, running.await(java.time.temporal.ChronoUnit.FOREVER.getDuration()).summary().ops());
    }

    @Test
    void aScenarioBuiltInCodeIsRefusedAsAFileWouldBeNotRunWrongOrCrashed() {
        Duration s = Duration.ofSeconds(1);
        java.util.Map<String, org.junit.jupiter.api.function.Executable> bad = java.util.Map.of(
                "every", () -> new RatePlan.Steps(1, 10, 1, Duration.ZERO),
                "by", () -> new RatePlan.Steps(1, 10, 0, s), // ran as 1 op at 1 ops/s: its step count overflowed
                "by ", () -> new RatePlan.Steps(10, 1, 1, s),
                "by  ", () -> new RatePlan.Steps(1, 1e6, 1e-6, s),
                "duration", () -> new RatePlan.Ramp(1, 10, Duration.ZERO),
                "duration ", () -> new Phase("a", null, new RatePlan.Constant(1, null), null, null, false, 0),
                "phases", () -> scenario(),
                "phases ", () -> scenario(new Phase("a", s, new RatePlan.Constant(1, null), null, null, false, 0),
                        new Phase("a", s, new RatePlan.Constant(2, null), null, null, false, 0)));
        bad.forEach((setting, make) -> assertEquals(setting.strip(),
                assertThrows(SettingException.class, make, setting).setting(), setting));
    }

    private static Scenario scenario(Phase... phases) {
        return new Scenario("s", "", "api", null, java.util.Map.of(), null, null, java.util.List.of(phases),
                java.util.Map.of(), null, null);
    }

    @Test
    void aSignalWithoutANameIsRefusedAndTheRunGoesOn() throws Exception {
        LoadTest.Running r = LoadTest.rate(100).op(cycle -> null).duration(Duration.ofSeconds(30)).start();
        assertThrows(NullPointerException.class, () -> r.signal(null));
        assertTrue(r.status().get("running").asBoolean(), "not stopped by a stop it could not record");
        r.signal("SIGTERM");
        assertEquals("SIGTERM", r.await(Duration.ofSeconds(20)).summary().stoppedBy());
    }

    @Test
    void anInFlightBoundTooLargeToMakeIsRefusedNotAnOutOfMemoryError() {
        SettingException e = assertThrows(SettingException.class,
                () -> LoadTest.rate(10).op(cycle -> null).cycles(1).maxInFlight(Integer.MAX_VALUE).start());
        assertEquals("max-in-flight", e.setting());
        assertTrue(e.getMessage().contains("must be at most 1000000"), e.getMessage());
    }

    @Test
    void twoOutputsNamingOneFileAreRefusedSoNeitherIsLost(@TempDir Path dir) throws Exception {
        Path same = dir.resolve("run.out");
        SettingException e = assertThrows(SettingException.class, () -> LoadTest.rate(10).op(cycle -> null).cycles(1)
                .hlog(same).summaryJson(dir.resolve("./run.out")).start());
        assertEquals("summary", e.setting());
        assertTrue(e.getMessage().contains("hlog writes the same file"), e.getMessage());
        java.nio.file.Files.writeString(same, "an earlier run's log");
        java.nio.file.Files.createSymbolicLink(dir.resolve("link.csv"), same);
        assertEquals("csv", assertThrows(SettingException.class, () -> LoadTest.rate(10).op(cycle -> null).cycles(1)
                .hlog(same).csv(dir.resolve("link.csv")).start()).setting());
        Path devNull = Path.of("/dev/null");
        assertEquals(1, LoadTest.rate(1000).op(cycle -> null).cycles(1).hlog(devNull).summaryJson(devNull).csv(devNull)
                .run().summary().ops(), "a device takes several");
    }

    @Test
    void aNullIntervalOrGraceIsRefusedNamingTheSetting() {
        SettingException e = assertThrows(SettingException.class, () -> LoadTest.rate(10).interval(null));
        assertEquals("interval", e.setting());
        assertTrue(e.getMessage().contains("must be given"), e.getMessage());
        assertEquals("grace", assertThrows(SettingException.class, () -> LoadTest.rate(10).grace(null)).setting());
    }

    @Test
    void aNullArgumentIsRefusedNamingTheParameter() throws Exception {
        LoadTest.Running r = LoadTest.rate(1000).op(cycle -> null).cycles(5).start();
        assertEquals("timeout", assertThrows(NullPointerException.class, () -> r.await(null)).getMessage());
        assertEquals(5, r.await().summary().ops());
        assertEquals("name", assertThrows(NullPointerException.class, () -> ScenarioCatalog.named(null)).getMessage());
        assertEquals("file", assertThrows(NullPointerException.class, () -> ScenarioCatalog.read(null)).getMessage());
        assertEquals("file", assertThrows(NullPointerException.class, () -> LoadTest.scenario((Path) null))
                .getMessage());
        assertEquals("text", assertThrows(NullPointerException.class, () -> ScenarioCatalog.precision(null))
                .getMessage());
        assertEquals("file", assertThrows(NullPointerException.class, () -> LoadTest.rate(10).workload(null))
                .getMessage());
        SettingException warmUp = assertThrows(SettingException.class, () -> LoadTest.rate(10).engineWarmUp(null));
        assertEquals("engine-warm-up", warmUp.setting());
        assertEquals("invalid engine-warm-up 'null': must be given (a duration, 0 or more)", warmUp.getMessage());
    }

    @Test
    void aNegativeAwaitTimeoutIsRefusedNotTakenForARunStillGoing() throws Exception {
        LoadTest.Running r = LoadTest.rate(1000).op(cycle -> null).cycles(5).start();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> r.await(Duration.ofSeconds(-1)));
        assertEquals("invalid timeout '-1.00s': must not be negative", e.getMessage());
        assertEquals(5, r.await(Duration.ofSeconds(30)).summary().ops());
    }

    @Test
    void anHlogInAFolderThatIsNotThereOrThatIsAFolderIsRefusedAtTheStartNamingIt(@TempDir Path dir) {
        Path missing = dir.resolve("nonexistent/x.hlog");
        SettingException e = assertThrows(SettingException.class,
                () -> LoadTest.rate(10).op(cycle -> null).cycles(1).hlog(missing).start());
        assertEquals("hlog", e.setting());
        assertEquals("invalid hlog '" + missing + "': the folder " + missing.getParent() + " does not exist",
                e.getMessage());
        SettingException folder = assertThrows(SettingException.class,
                () -> LoadTest.rate(10).op(cycle -> null).cycles(1).hlog(dir).start());
        assertEquals("invalid hlog '" + dir + "': is a folder", folder.getMessage());
        assertEquals("csv", assertThrows(SettingException.class,
                () -> LoadTest.rate(10).op(cycle -> null).cycles(1).csv(missing).start()).setting());
        assertEquals("summary", assertThrows(SettingException.class,
                () -> LoadTest.rate(10).op(cycle -> null).cycles(1).summaryJson(dir).start()).setting());
    }

    @Test
    void anOpThatAsksForANegativeNumberOfThreadsIsRefusedNamingIt() {
        Op negative = new Op() {
            @Override
            public Outcome run(long cycle) {
                return null;
            }

            @Override
            public int threads() {
                return -3;
            }
        };
        SettingException e = assertThrows(SettingException.class,
                () -> LoadTest.rate(10).op(negative).cycles(1).start());
        assertEquals("threads", e.setting());
        assertEquals("-3", e.value());
        assertTrue(e.getMessage().contains("must be 0 (no preference) or more"), e.getMessage());
    }

    @Test
    void aSignalARunDoesNotHandleIsRefusedAndTheRunGoesOn() throws Exception {
        LoadTest.Running r = LoadTest.rate(100).op(cycle -> null).duration(Duration.ofSeconds(30)).start();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.signal("SIGFOO"));
        assertEquals("invalid signal 'SIGFOO': one of SIGINT, SIGTERM, SIGHUP", e.getMessage());
        assertTrue(r.status().get("running").asBoolean(), "not stopped");
        r.signal("SIGHUP");
        assertEquals("SIGHUP", r.await(Duration.ofSeconds(20)).summary().stoppedBy());
    }
}
