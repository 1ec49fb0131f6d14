package dev.pacer.engine.api;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void parsesEveryUnit() {
        assertEquals(Duration.ofNanos(250), Durations.parse("250ns", "x"));
        assertEquals(Duration.ofNanos(500_000), Durations.parse("500us", "x"));
        assertEquals(Duration.ofNanos(1_500), Durations.parse("1.5us", "x"));
        assertEquals(Duration.ofMillis(2), Durations.parse("2ms", "x"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5s", "x"));
        assertEquals(Duration.ofMinutes(10), Durations.parse("10m", "x"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h", "x"));
        assertEquals(Duration.ZERO, Durations.parse("0s", "x"));
        assertEquals(Duration.ZERO, Durations.parse("0", "x"), "zero needs no unit");
    }

    @Test
    void rejectsWithTheValueNamed() {
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> Durations.parse("-5s",
                "--duration"));
        assertEquals("invalid --duration '-5s': must not be negative", negative.getMessage());
        IllegalArgumentException noUnit = assertThrows(IllegalArgumentException.class, () -> Durations.parse("30",
                "--duration"));
        assertTrue(noUnit.getMessage().startsWith("invalid --duration '30': expected a number with a unit"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parsePositive("0s", "--duration"));
        assertEquals("invalid --duration '0': must be greater than 0",
                assertThrows(IllegalArgumentException.class, () -> Durations.parsePositive("0",
                        "--duration")).getMessage());
        assertEquals("invalid --duration '9000h': too long: at most 8760h (365 days)",
                assertThrows(IllegalArgumentException.class, () -> Durations.parse("9000h",
                        "--duration")).getMessage());
    }

    @Test
    void formatsInAReadableUnit() {
        assertEquals("950ns", Durations.format(950.0));
        assertEquals("12.3us", Durations.format(12_345.0));
        assertEquals("4.56ms", Durations.format(4_560_000.0));
        assertEquals("150ms", Durations.format(150_000_000.0));
        assertEquals("2.00s", Durations.format(2e9));
        assertEquals("1m50s", Durations.format(Duration.ofSeconds(110)));
        assertEquals("1h01m", Durations.format(Duration.ofSeconds(3660)));
    }
}
