package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.api.DurationText;
import dev.pacer.ratelimit.api.NumberText;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** The flags read durations and counts with the grammars every other reader uses, and refuse with their words. */
class ConvertersTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "20000 | 20000",
            "20k   | 20000",
            "2.5K  | 2500",
            "1M    | 1000000",
            "1e3   | 1000",
            ".5k   | 500",
            "1G    | 1000000000",
    })
    void aCountTakesEveryNumberSpelling(String text, long count) {
        assertEquals(count, new Converters.Count().convert(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "lots  | 'lots': " + NumberText.EXPECTED,
            "10 k  | '10 k': " + NumberText.EXPECTED,
            "NaN   | 'NaN': " + NumberText.NOT_FINITE,
            "0     | '0': must be at least 1",
            "-5    | '-5': must be at least 1",
            "1.5   | '1.5': not a whole number",
            "1e19  | '1e19': not a whole number below 2^63",
    })
    void aBadCountIsNamedWithTheGrammarsWords(String text, String says) {
        String message = assertThrows(CommandLine.TypeConversionException.class,
                () -> new Converters.Count().convert(text)).getMessage();
        assertTrue(message.startsWith("invalid count " + says), message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "30s    | 30000000000",
            "1.5ms  | 1500000",
            "500µs  | 500000",
            "2 min  | 120000000000",
            ".5s    | 500000000",
            "1e3ms  | 1000000000",
    })
    void aDurationTakesEverySpelling(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), new Converters.PositiveDuration().convert(text));
        assertEquals(Duration.ofNanos(nanos), new Converters.NonNegativeDuration().convert(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "30     | '30': " + DurationText.EXPECTED,
            "5S     | '5S': " + DurationText.EXPECTED,
            "9000h  | '9000h': " + DurationText.TOO_LONG,
            "-5s    | '-5s': must not be negative",
    })
    void aBadDurationIsNamedWithTheGrammarsWords(String text, String says) {
        String message = assertThrows(CommandLine.TypeConversionException.class,
                () -> new Converters.PositiveDuration().convert(text)).getMessage();
        assertEquals("invalid duration " + says, message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"0", "0s", "0.0"})
    void zeroIsZeroWhereZeroIsAllowed(String text) {
        assertEquals(Duration.ZERO, new Converters.NonNegativeDuration().convert(text));
        assertEquals("invalid duration '" + text + "': must be greater than 0", assertThrows(
                CommandLine.TypeConversionException.class, () -> new Converters.PositiveDuration().convert(text))
                .getMessage());
    }
}
