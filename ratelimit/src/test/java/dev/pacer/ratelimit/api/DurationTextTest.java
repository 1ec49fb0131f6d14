package dev.pacer.ratelimit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The grammar of durations, over every unit and number form: what each reads as, and the words of each refusal. */
class DurationTextTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "250ns      | 250",
            "500us      | 500000",
            "500µs      | 500000",
            "2ms        | 2000000",
            "1.5s       | 1500000000",
            "10m        | 600000000000",
            "10min      | 600000000000",
            "1h         | 3600000000000",
            "'2 h'      | 7200000000000",
            "' 30s '    | 30000000000",
            ".5s        | 500000000",
            "1e3ms      | 1000000000",
            "0          | 0",
            "0.0        | 0",
            "0s         | 0",
            "1.5ns      | 2",
            "1.4ns      | 1",
            "-5s        | -5000000000",
            "8760h      | 31536000000000000",
    })
    void readsEverySpellingToTheNearestNanosecond(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), DurationText.parse(text), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "30", "1.5", "-5", "soon", "5 s s", "5S", "5MS", "1H", "5sec", "5d", "2 weeks", "1k s",
            "s", "5s5", "+5s", "1e5"})
    void refusesWhatIsNotADurationWithOneReason(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DurationText.parse(text));
        assertEquals(DurationText.EXPECTED, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"8761h", "525601m", "1e9999h", "-9000h"})
    void refusesMoreThanAYear(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DurationText.parse(text));
        assertEquals(DurationText.TOO_LONG, e.getMessage());
    }

    @Test
    void saysNaNAndInfinitiesAreNotFinite() {
        assertEquals(NumberText.NOT_FINITE,
                assertThrows(IllegalArgumentException.class, () -> DurationText.parse("NaNs")).getMessage());
        assertEquals(NumberText.NOT_FINITE,
                assertThrows(IllegalArgumentException.class, () -> DurationText.parse("Infinity ms")).getMessage());
    }
}
