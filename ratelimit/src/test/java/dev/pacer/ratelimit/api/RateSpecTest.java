package dev.pacer.ratelimit.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class RateSpecTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1000        | 1000      | 0",
            "2.5k        | 2500      | 0",
            "2.5K        | 2500      | 0",
            "1.5M        | 1500000   | 0",
            "1G          | 1e9       | 0",
            "1e6         | 1000000   | 0",
            "1.5e3       | 1500      | 0",
            ".5          | 0.5       | 0",
            "0.001       | 0.001     | 0",
            "1000,0.5    | 1000      | 0.5",
            "' 20k , 1.1 ' | 20000   | 1.1",
            "1000,1      | 1000      | 1",
            "1000,0      | 1000      | 0",
            "3,100       | 3         | 100",
    })
    void parsesTheDocumentedGrammar(String text, double rate, double strictness) {
        RateSpec spec = RateSpec.parse(text);
        assertEquals(rate, spec.opsPerSecond(), rate * 1e-15);
        assertEquals(strictness, spec.strictness());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1000", "2.5k,0.5", "0.001,1", "1e9,1.1", "7M,0.25", "3,0"})
    void textFormReadsBackToAnEqualSpec(String text) {
        RateSpec spec = RateSpec.parse(text);
        assertEquals(spec, RateSpec.parse(spec.toString()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0            | '0'",
            "-5           | '-5'",
            "NaN          | 'NaN'",
            "Infinity     | 'Infinity'",
            "1e10         | '1e10'",
            "2G           | '2G'",
            "1e-9         | '1e-9'",
            "abc          | 'abc'",
            "0x10         | '0x10'",
            "1000d        | '1000d'",
            "10 k         | '10 k'",
            "1000,-1      | '-1'",
            "1000,abc     | 'abc'",
            "1000,101     | '101'",
            "1000,NaN     | 'NaN'",
            "1000,1k      | '1k'",
            "1000,1,2     | '1000,1,2'",
            "',5'         | ''",
    })
    void rejectsBadTextWithAMessageNamingIt(String text, String named) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateSpec.parse(text));
        assertTrue(e.getMessage().contains(named), () -> "message should name " + named + ": " + e.getMessage());
        assertTrue(e.getMessage().startsWith("invalid "), e.getMessage());
        assertEquals(-1, e.getMessage().indexOf('\n'), "one line");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "10,000      | write 10000 for that many ops/s (or 10,0 for strictness 0)",
            "1,050       | write 1050 for that many ops/s",
            "2.5k,00     | separates a strictness, not thousands (or 2.5k,0 for strictness 0)",
    })
    void aThousandsSeparatorIsNotReadAsAStrictness(String text, String says) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateSpec.parse(text),
                "10,000 was a rate of 10 at strictness 0");
        assertTrue(e.getMessage().contains(says), e.getMessage());
        assertEquals(0.0, RateSpec.parse("10,0").strictness());
        assertEquals(0.5, RateSpec.parse("10,0.5").strictness());
    }

    @Test
    void rejectsBadNumbersFromCode() {
        assertThrows(IllegalArgumentException.class, () -> new RateSpec(Double.NaN, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateSpec(Double.POSITIVE_INFINITY, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateSpec(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateSpec(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateSpec(1.000001e9, 0));
        assertThrows(IllegalArgumentException.class, () -> new RateSpec(1000, -0.1));
        assertThrows(IllegalArgumentException.class, () -> new RateSpec(1000, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new RateSpec(1000, 100.5));
    }

    @Test
    void strictnessSelectsTheMode() {
        assertEquals(StrictnessMode.AVERAGE, RateSpec.parse("1000").mode());
        assertEquals(StrictnessMode.COMPENSATING, RateSpec.parse("1000,0.25").mode());
        assertEquals(StrictnessMode.STRICT, RateSpec.parse("1000,1").mode());
        assertEquals(StrictnessMode.BURST, RateSpec.parse("1000,1.1").mode());
    }
}
