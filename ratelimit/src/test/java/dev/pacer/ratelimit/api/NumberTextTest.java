package dev.pacer.ratelimit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The grammar of numbers, over every production: what each spelling reads as, and the words of each refusal. */
class NumberTextTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1000      | 1000",
            "0         | 0",
            "2.5k      | 2500",
            "2.5K      | 2500",
            "1.5M      | 1500000",
            "2G        | 2000000000",
            ".5        | 0.5",
            "5.        | 5",
            "1e6       | 1000000",
            "1.5E3     | 1500",
            "1e+3      | 1000",
            "25e-1     | 2.5",
            "1e3k      | 1000000",
            "-5        | -5",
            "-.5k      | -500",
            "'  20k  ' | 20000",
    })
    void readsEverySpellingExactly(String text, String value) {
        assertEquals(0, new BigDecimal(value).compareTo(NumberText.parse(text)), text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "abc", "k", "10 k", "+5", "1_000", "0x10", "0x1p3", "1d", "1f", "5L", "1e",
            "1e12345", "1..5", "1,5", "5m", "5g", "-", "--5", "1k2", "%"})
    void refusesWhatIsNotANumberWithOneReason(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NumberText.parse(text));
        assertEquals(NumberText.EXPECTED, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "nan", "Infinity", "-Infinity", "inf", "1e6NaN"})
    void saysNaNAndInfinitiesAreNotFinite(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NumberText.parse(text));
        assertEquals(NumberText.NOT_FINITE, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1k", "2M", "abc", "1 0"})
    void aPlainNumberTakesNoSuffix(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NumberText.parsePlain(text));
        assertEquals(NumberText.EXPECTED_PLAIN, e.getMessage());
    }

    @Test
    void aPlainNumberIsTheSameNumberWithoutTheSuffix() {
        assertEquals(0, new BigDecimal("0.25").compareTo(NumberText.parsePlain(" 25e-2 ")));
        assertEquals(0, new BigDecimal("-1.5").compareTo(NumberText.parsePlain("-1.5")));
    }
}
