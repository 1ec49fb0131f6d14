package dev.pacer.engine.scenario;

import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.ScenarioException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Shard;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.LimiterDesign;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every phase is checked against the run's limiter before anything runs, naming the phase's line. */
class ScenarioLimiterCheckTest {

    static Scenario scenario(String limiter, String phaseB) {
        return ScenarioParser.parse("""
                name: two
                op: noop
                limiter: %s
                phases:
                  - name: a
                    duration: 1s
                    rate: 100
                  - name: b
                    duration: 1s
                %s
                """.formatted(limiter, phaseB.indent(4).stripTrailing()), "two.yaml");
    }

    static ScenarioException refused(Scenario s) {
        return assertThrows(ScenarioException.class, () -> ScenarioRunner.check(s, s.limiter(), null));
    }

    @Test
    void aRateALaterPhaseReachesThatItsDesignRefusesNamesThePhasesLine() {
        ScenarioException log = refused(scenario("sliding-log", "rate: 100000000"));
        assertTrue(log.getMessage().startsWith("two.yaml:8: phase 'b' at 100000000"), log.getMessage());
        assertTrue(log.getMessage().contains("over its bound of 10000000"), log.getMessage());
        ScenarioException ramp = refused(scenario("warmup", "rate: {from: 100, to: 20000000}"));
        assertTrue(ramp.getMessage().startsWith("two.yaml:8: phase 'b' at 20000000"), ramp.getMessage());
        ScenarioException steps = refused(scenario("sliding-log", "steps: {from: 1000, to: 20000000, by: 9999000, "
                + "every: 1s}"));
        assertTrue(steps.getMessage().contains("at 19999000"), "the staircase's top step: " + steps.getMessage());
    }

    @Test
    void aLaterPhasesThreadsBeyondPlatformThreadsAreRefusedAtItsLineBeforeAnythingRuns() throws Exception {
        Scenario s = scenario("atomic", "rate: 100\nthreads: 5000");
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> dev.pacer.engine.LoadTest.scenario(s).duration(Duration.ofMillis(100)).start());
        assertTrue(e.getMessage().startsWith("two.yaml:8: phase 'b': invalid threads '5000': must be between 1 and "
                + "4096"), e.getMessage());
        assertDoesNotThrow(() -> ScenarioRunner.checkThreads(s, true, 1), "virtual threads allow 5000");
    }

    @Test
    void theFilesOwnThreadsBeyondPlatformThreadsAreRefusedAtTheirLineNotAsAFlag() {
        Scenario s = ScenarioParser.parse("threads: 5000\nphases:\n  - {duration: 1s, rate: 100}\n", "t.yaml");
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> dev.pacer.engine.LoadTest.scenario(s).start());
        assertEquals("t.yaml:1: invalid threads '5000': must be between 1 and 4096 (platform threads; virtual allows "
                + "more)", e.getMessage());
    }

    @Test
    void aPhasesStrictnessIsRefusedForADesignWithoutOne() {
        ScenarioException e = refused(scenario("leaky", "rate: 200\nstrictness: 0.5"));
        assertTrue(e.getMessage().startsWith("two.yaml:8: phase 'b'") && e.getMessage().contains("leaky limiter has no "
                + "strictness"),
                e.getMessage());
    }

    @Test
    void aKneeSearchNeedsTheAtomicLimiter() {
        Scenario search = Scenarios.search("response.p99<1s", 100, 1000, Duration.ofMillis(500), 0.05);
        SettingException e = assertThrows(SettingException.class,
                () -> ScenarioRunner.check(search, LimiterDesign.parse("leaky"), null));
        assertEquals("limiter", e.setting());
        assertDoesNotThrow(() -> ScenarioRunner.check(search, LimiterDesign.ATOMIC, null));
    }

    @Test
    void aShardIsCheckedAtItsShare() {
        Scenario s = scenario("sliding-log", "rate: 20000000");
        refused(s);
        assertDoesNotThrow(() -> ScenarioRunner.check(s, s.limiter(), new Shard(0, 4)), "5 000 000 per shard fits the "
                + "log");
        assertDoesNotThrow(() -> ScenarioRunner.check(scenario("atomic", "rate: 100000000"), LimiterDesign.ATOMIC,
                null));
    }
}
