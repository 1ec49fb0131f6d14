package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Threshold;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.op.Ops;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.ScenarioException;
import dev.pacer.engine.scenario.ScenarioParser;
import dev.pacer.engine.api.Durations;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * What users type, generated: every input is accepted and reads back the same, or refused with an
 * {@link IllegalArgumentException} (a {@code SettingException}, a {@code ScenarioException}) whose
 * message is one line naming it. No other exception may escape. Inputs mix the grammar's own pieces
 * (digits, units, suffixes, signs, separators) with arbitrary text.
 */
public class InputPropertiesTest {

    /** Tries per property. */
    public static final int TRIES = 2_000;

    /**
     * Runs {@code parse}; a refusal must be one line that names {@code named} (as given, or as {@link
     * dev.pacer.engine.api.SettingException#visible} shows it). Returns null when refused.
     */
    public static <T> T acceptedOrNamed(String input, String named, Function<String, T> parse) {
        try {
            return parse.apply(input);
        } catch (IllegalArgumentException e) {
            String m = e.getMessage();
            assertTrue(m != null && !m.isBlank(), "a reason for '" + input + "'");
            assertFalse(m.contains("\n") || m.contains("\r"), "one line: " + m);
            // named as given, or escaped where it holds characters a terminal would act on or not show
            assertTrue(m.contains(named) || m.contains(dev.pacer.engine.api.SettingException.visible(named)),
                    "names '" + named + "': " + m);
            return null;
        }
    }

    /** Text made of a grammar's pieces, or anything printable on one line. */
    static Arbitrary<String> textOf(String... pieces) {
        Arbitrary<String> grammar = Arbitraries.of(pieces).list().ofMinSize(1).ofMaxSize(6).map(l -> String.join("",
                l));
        Arbitrary<String> any = Arbitraries.strings().all().ofMaxLength(24)
                .filter(s -> s.chars().noneMatch(c -> c == '\n' || c == '\r' || Character.isISOControl(c)));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, grammar), net.jqwik.api.Tuple.of(1, any));
    }

    @Provide
    Arbitrary<String> rates() {
        return textOf("0", "1", "2", "5", "9", "00", ".", "e", "E", "-", "+", "k", "K", "M", "G", "m", ",", " ", "1e9",
                "1e-6", "1e10", "NaN", "Infinity", "0x1p3", "_", "%", "1000");
    }

    @Property(tries = TRIES)
    void ratesRoundTripOrAreRefusedNamingTheValue(@ForAll("rates") String text) {
        String rate = text.split(",", -1)[0].strip(); // RateSpec names the rate alone when that is the bad part
        String named = text.isBlank() ? "''" : text.contains(",") && !rate.isEmpty() ? rate : text.strip();
        RateSpec spec = acceptedOrNamed(text, named, RateSpec::parse);
        if (spec != null) {
            assertEquals(spec, RateSpec.parse(spec.toString()), "reads back: " + spec);
            assertTrue(spec.opsPerSecond() >= RateSpec.MIN_RATE && spec.opsPerSecond() <= RateSpec.MAX_RATE);
        }
    }

    @Provide
    Arbitrary<String> durations() {
        return textOf("0", "1", "5", "9", "00", ".", "-", "ns", "us", "µs", "ms", "s", "m", "min", "h", "d", " ", "e3",
                "9223372036854775807", "8760", "8761");
    }

    @Property(tries = TRIES)
    void durationsRoundTripOrAreRefusedNamingTheValue(@ForAll("durations") String text) {
        Duration d = acceptedOrNamed(text, "'" + text + "'", t -> Durations.parse(t, "duration"));
        if (d != null) {
            assertFalse(d.isNegative() || d.compareTo(Durations.MAX) > 0, text + " -> " + d);
            assertEquals(d, Durations.parse(d.toNanos() + "ns", "duration"));
        }
    }

    @Provide
    Arbitrary<String> ops() {
        return textOf("noop", "sleep", "cpu", "stall", ":", "2ms", "1", "-1ms", "uniform(", "exp(", ")", ",", "5ms",
                "us", "x", " ", "8761h", "(", "0ns");
    }

    @Property(tries = TRIES)
    void opSpecsMakeAnOpOrAreRefusedNamingTheOp(@ForAll("ops") String text) throws Exception {
        OpSpec spec = acceptedOrNamed(text, "op", OpSpec::parse);
        if (spec == null) {
            return;
        }
        assertEquals(spec, OpSpec.parse(spec.toString()), "reads back");
        try (Op op = acceptedOrNamed(text, spec.name(), t -> {
            try {
                return Ops.create(spec);
            } catch (IllegalArgumentException e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError("untyped: " + e, e);
            }
        })) {
            // made, or refused on one line naming the op
        }
    }

    @Provide
    Arbitrary<String> thresholds() {
        return textOf("response", "wait", "service", ".", "p99", "p50", "p99.9", "max", "mean", "achieved", "target",
                "ops", "errors", "<", "<=", ">", ">=", "=", "1", "0.99", "*", "-", "%", "ms", "us", "s", "20", " ",
                "1e999", "e5");
    }

    @Property(tries = TRIES)
    void thresholdsReadBackOrAreRefusedNamingTheGate(@ForAll("thresholds") String text) {
        Threshold gate = acceptedOrNamed(text, "'" + text + "'", Threshold::parse);
        if (gate != null) {
            assertEquals(gate.toString(), Threshold.parse(gate.toString()).toString());
        }
    }

    @Provide
    Arbitrary<String> scenarios() {
        Arbitrary<String> value = Arbitraries.of("10s", "1s", "0s", "-1s", "8761h", "100", "1k", "0", "-5", "1000,0.5",
                "{from: 1000, to: 2000}", "{from: 1000}", "{from: 1, to: 10, by: 1, every: 1s}", "[1, 2]", "true",
                "maybe", "2", "0", "100000", "x: y", "'", "\"", "&a", "*a", "!!binary AA==", "");
        Arbitrary<String> key = Arbitraries.of("name", "duration", "rate", "steps", "strictness", "threads", "warmup",
                "color");
        Arbitrary<String> phase = Combinators.combine(key.list().ofMinSize(1).ofMaxSize(4).uniqueElements(),
                value.list().ofSize(4)).as((keys, values) -> {
                    StringBuilder b = new StringBuilder("  - ");
                    for (int i = 0; i < keys.size(); i++) {
                        b.append(i == 0 ? "" : "   "
                                + " ").append(keys.get(i)).append(": ").append(values.get(i)).append('\n');
                    }
                    return b.toString();
                });
        Arbitrary<String> top = Arbitraries.of("", "name: x\n", "op: sleep:1ms\n", "op: sleep:-1ms\n", "threads: 4\n",
                "threads: 0\n", "strictness: 0.5\n", "url: http://h/\n", "speed: 3\n", "phases: []\n", "\t\n", "%\n");
        return Combinators.combine(top, phase.list().ofMinSize(0).ofMaxSize(4))
                .as((t, phases) -> t + "phases:\n" + String.join("", phases));
    }

    @Property(tries = TRIES)
    void scenarioFilesParseOrAreRefusedAtAFileLine(@ForAll("scenarios") String yaml) {
        Scenario s = acceptedOrNamed(yaml, "gen.yaml:", text -> ScenarioParser.parse(text, "gen.yaml"));
        if (s != null) {
            assertFalse(s.phases().isEmpty());
            assertTrue(s.totalDuration().compareTo(Durations.MAX) <= 0);
            return;
        }
        try {
            ScenarioParser.parse(yaml, "gen.yaml");
        } catch (ScenarioException e) {
            int lines = (int) yaml.lines().count();
            assertTrue(e.line() >= 1 && e.line() <= Math.max(1, lines + 1), e.getMessage() + " in\n" + yaml);
        }
    }
}
