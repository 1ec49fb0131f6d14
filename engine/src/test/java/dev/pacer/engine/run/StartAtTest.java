package dev.pacer.engine.run;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.SettingException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Which start instants a test takes: within a day of now, and not after its own end. */
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
}
