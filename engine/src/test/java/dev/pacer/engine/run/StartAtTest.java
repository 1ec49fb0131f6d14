package dev.pacer.engine.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which start instants a test takes (within a day of now, and not after its own end), and its op's warm-up's bound. */
class StartAtTest {

    static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

    @Test
    void aStartWithinADayAheadOrALateStartWithinTheTestIsTaken() {
        assertDoesNotThrow(() -> ActivityConfig.checkStartAt(NOW.plusSeconds(30), Duration.ofMinutes(1), NOW));
        assertDoesNotThrow(() -> ActivityConfig.checkStartAt(NOW.plus(Duration.ofHours(24)), null, NOW));
        assertDoesNotThrow(() -> ActivityConfig.checkStartAt(NOW.minusSeconds(5), Duration.ofSeconds(10), NOW), "late: "
                + "catches up");
        assertDoesNotThrow(() -> ActivityConfig.checkStartAt(NOW.minus(Duration.ofHours(23)), null, NOW));
    }

    @Test
    void farAheadFarBehindOrAfterItsOwnEndIsRefusedNamingTheDistance() {
        SettingException ahead = assertThrows(SettingException.class,
                () -> ActivityConfig.checkStartAt(NOW.plus(Duration.ofHours(25)), Duration.ofSeconds(10), NOW));
        assertTrue(ahead.getMessage().contains("is 25h00m ahead"), ahead.getMessage());
        SettingException ended = assertThrows(SettingException.class,
                () -> ActivityConfig.checkStartAt(NOW.minusSeconds(10), Duration.ofSeconds(10), NOW));
        assertTrue(ended.getMessage().contains("had ended before this process started"), ended.getMessage());
        SettingException behind = assertThrows(SettingException.class,
                () -> ActivityConfig.checkStartAt(NOW.minus(Duration.ofDays(3)), null, NOW));
        assertTrue(behind.getMessage().contains("was 3 days ago"), behind.getMessage());
        assertThrows(SettingException.class, () -> ActivityConfig.checkStartAt(Instant.MAX, null, NOW), "no overflow");
        assertThrows(SettingException.class, () -> ActivityConfig.checkStartAt(Instant.MIN, Duration.ofSeconds(1),
                NOW));
    }

    @Test
    void aTestOfCyclesLastsThemAtItsGlobalRateAndEndsAsSoonAsItsDuration() {
        RateSpec rate = RateSpec.of(100);
        assertEquals(Duration.ofMillis(100), ActivityConfig.testLength(null, 10, rate));
        assertEquals(Duration.ofMillis(50), ActivityConfig.testLength(Duration.ofMillis(50), 10, rate));
        assertEquals(Duration.ofMillis(100), ActivityConfig.testLength(Duration.ofSeconds(5), 10, rate));
        assertEquals(null, ActivityConfig.testLength(null, 10, null), "unpaced: no schedule to end");
        assertEquals(null, ActivityConfig.testLength(null, Long.MAX_VALUE, RateSpec.of(0.001)), "past a Duration");
        SettingException ended = assertThrows(SettingException.class,
                () -> config(Instant.now().minusSeconds(60), null, 10));
        assertTrue(ended.getMessage().contains("the test's 100ms had ended before this process started"),
                ended.getMessage());
    }

    @Test
    void aTestThatEndedWhileThisProcessWarmedUpIsRefusedWhenItIsReady() {
        Instant now = Instant.now();
        ActivityConfig c = config(now.plusSeconds(2), Duration.ofSeconds(3), 0);
        assertDoesNotThrow(() -> c.checkReady(now.plusSeconds(4)), "late, within the test: catches up");
        SettingException late = assertThrows(SettingException.class, () -> c.checkReady(now.plusSeconds(5)));
        assertTrue(late.getMessage().contains("was 3.00s ago: the test's 3.00s had ended before this process was "
                + "ready (its warm-ups done)"), late.getMessage());
        ActivityConfig cycles = config(now.plusSeconds(2), null, 100); // 1 s at 100/s
        assertThrows(SettingException.class, () -> cycles.checkReady(now.plusSeconds(3)));
    }

    @Test
    void theOpsWarmUpGetsWhatIsLeftBeforeTheInstantLessTheEnginesMarginAndNothingWhenItHasPassed() {
        ManualRunClock clock = new ManualRunClock(Instant.now());
        assertEquals(Duration.ofMillis(9_500), warmUpBound(clock, clock.instant().plusSeconds(10)));
        assertEquals(Duration.ofMillis(1_000), warmUpBound(clock, clock.instant().plusMillis(1_500)));
        assertEquals(Duration.ZERO, warmUpBound(clock, clock.instant().plusMillis(300)), "less than the margin");
        assertEquals(Duration.ZERO, warmUpBound(clock, clock.instant().minusSeconds(1)), "late");
        assertEquals(null, warmUpBound(clock, null), "no instant: the run starts when the warm-up is done");
    }

    /** What an op's warm-up is given ({@link Op#warmUp(Duration)}) in a run that starts at {@code startAt}. */
    private static Duration warmUpBound(ManualRunClock clock, Instant startAt) {
        List<Duration> given = new ArrayList<>();
        Op op = new Op() {
            @Override
            public Outcome run(long cycle) {
                return null;
            }

            @Override
            public void warmUp(Duration atMost) {
                given.add(atMost);
            }
        };
        new Activity(config(startAt, Duration.ofSeconds(60), 0), op, clock).warmUpOp();
        assertEquals(1, given.size(), "warmed once: " + given);
        return given.get(0);
    }

    private static ActivityConfig config(Instant startAt, Duration duration, long cycles) {
        return new ActivityConfig(OpSpec.parse("noop"), 1, false, RateSpec.of(100), duration, cycles, 0,
                Arrivals.UNIFORM, null, null, startAt, LimiterDesign.ATOMIC);
    }
}
