package dev.pacer.engine.text;

import dev.pacer.engine.api.Durations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Threshold;
import dev.pacer.engine.scenario.ScenarioParser;
import dev.pacer.ratelimit.api.DurationText;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.NumberText;
import dev.pacer.ratelimit.api.RateSpec;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every reader of a duration or a number takes the spellings {@link DurationText} and {@link NumberText} take,
 * and refuses the others with their words: a run's settings ({@link Durations}), a scenario file, a threshold, a
 * limiter's options and a rate. Each reader may refuse more (its own range), never less, and never other text.
 */
class OneGrammarTest {

    private static final int TRIES = 1_000;

    /** Text of the grammars' pieces: digits, points, exponents, suffixes, units, signs, blanks and strays. */
    private static Arbitrary<String> textOf(String... pieces) {
        return Arbitraries.of(pieces).list().ofMinSize(1).ofMaxSize(5).map(l -> String.join("", l))
                .filter(s -> !s.isBlank());
    }

    @Provide
    Arbitrary<String> durations() {
        return textOf("0", "1", "5", "25", ".", "e", "E", "3", "-", "+", "ns", "us", "µs", "ms", "s", "m", "min", "h",
                "H", "MS", "d", " ", "k", "NaN", "8760", "8761", "x");
    }

    @Provide
    Arbitrary<String> numbers() {
        return textOf("0", "1", "5", "25", ".", "e", "E", "-", "+", "k", "K", "M", "G", "m", " ", "NaN", "Infinity",
                "0x1p3", "d", "_", "1e9", "1e-6");
    }

    /** What the grammar makes of {@code text}: its value, or its reason as the message of an exception. */
    private static <T> Object grammar(String text, Function<String, T> parse) {
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            return e;
        }
    }

    /** Runs {@code read}; returns the message of its refusal, or null when it took the text. */
    private static String refusal(Runnable read) {
        try {
            read.run();
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    @Property(tries = TRIES)
    void durationsAreReadAsTheGrammarReadsThem(@ForAll("durations") String text) {
        Object g = grammar(text, DurationText::parse);
        Duration d = g instanceof Duration ok ? ok : null;
        String reason = g instanceof IllegalArgumentException e ? e.getMessage() : null;

        // a run's setting: non-negative
        String setting = refusal(() -> assertEquals(d, Durations.parse(text, "interval")));
        assertRefusedAlike(text, reason, setting, d != null && d.isNegative());

        // a phase of a scenario file: positive
        String yaml = "phases:\n  - duration: '" + text + "'\n    rate: 100\n";
        String phase = refusal(() -> assertEquals(d, ScenarioParser.parse(yaml, "g.yaml").phases().get(0).duration()));
        assertRefusedAlike(text, reason, phase, d != null && !d.isPositive());

        // a limiter's option: at least 0
        String option = refusal(() -> assertEquals(text.strip(),
                LimiterDesign.parse("bursty:max-burst=" + text).options().get("max-burst")));
        assertRefusedAlike(text, reason, option, d != null && d.isNegative());

        // a threshold's latency: non-negative
        String gate = refusal(() -> Threshold.parse("wait.max<" + text));
        assertRefusedAlike(text, reason, gate, d != null && d.isNegative());
    }

    @Property(tries = TRIES)
    void numbersAreReadAsTheGrammarReadsThem(@ForAll("numbers") String text) {
        Object g = grammar(text, NumberText::parse);
        BigDecimal n = g instanceof BigDecimal ok ? ok : null;
        String reason = g instanceof IllegalArgumentException e ? e.getMessage() : null;

        // a rate: in [1e-6, 1e9] ops/s
        String rate = refusal(() -> assertEquals(n == null ? null : n.doubleValue(),
                RateSpec.parse(text).opsPerSecond()));
        assertRefusedAlike(text, reason, rate, n != null
                && (n.compareTo(BigDecimal.valueOf(RateSpec.MIN_RATE)) < 0
                        || n.compareTo(BigDecimal.valueOf(RateSpec.MAX_RATE)) > 0));

        // a limiter's count: a whole number >= 0
        String count = refusal(() -> LimiterDesign.parse("leaky:queue=" + text));
        assertRefusedAlike(text, reason, count, n != null && (n.signum() < 0 || n.stripTrailingZeros().scale() > 0
                || n.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0));

        // a threshold's count: non-negative and finite
        String gate = refusal(() -> Threshold.parse("ops<" + text));
        assertRefusedAlike(text, reason, gate, n != null && (n.signum() < 0 || Double.isInfinite(n.doubleValue())));
    }

    /**
     * The reader's {@code refusal} (null: it took the text) against the grammar's {@code reason} (null: the
     * grammar took it) and whether the value is {@code outOfRange} for this reader.
     */
    private static void assertRefusedAlike(String text, String reason, String refusal, boolean outOfRange) {
        if (reason != null) {
            assertTrue(refusal != null && refusal.contains(text.strip()) && refusal.contains(reason),
                    () -> "'" + text + "': the grammar says " + reason + "; the reader " + refusal);
        } else if (outOfRange) {
            assertTrue(refusal != null && refusal.contains(text.strip()), () -> "'" + text + "': " + refusal);
        } else {
            assertNull(refusal, () -> "'" + text + "' is in the grammar and in range");
        }
    }
}
