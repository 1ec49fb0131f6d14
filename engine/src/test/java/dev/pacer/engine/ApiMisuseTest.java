package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.ManualRunClock;
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
    void aNullIntervalOrGraceIsRefusedNamingTheSetting() {
        SettingException e = assertThrows(SettingException.class, () -> LoadTest.rate(10).interval(null));
        assertEquals("interval", e.setting());
        assertTrue(e.getMessage().contains("must be given"), e.getMessage());
        assertEquals("grace", assertThrows(SettingException.class, () -> LoadTest.rate(10).grace(null)).setting());
    }
}
