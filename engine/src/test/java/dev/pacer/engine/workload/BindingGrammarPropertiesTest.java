package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** Properties of the binding grammar: every text compiles or is refused with one line; values keep their ranges. */
class BindingGrammarPropertiesTest {

    private static Fn compile(String text) {
        return new BindingParser(Path.of("."), new HashMap<>()).compile(text, CycleRandom.salt(1, "p"));
    }

    @Property(tries = 2000)
    void anyTextCompilesOrIsRefusedWithOneLineNamingTheFile(@ForAll("bindingish") String text) {
        String yaml = "base: http://h:1\nbindings:\n  x: '" + text.replace("'", "''") + "'\nops: {a: {weight: 1, "
                + "request: GET /}}\n";
        try {
            WorkloadParser.parse(yaml, "w.yaml", Path.of("."), Map.of());
        } catch (WorkloadException e) {
            assertTrue(e.getMessage().matches("w\\.yaml:\\d+: .+"), e.getMessage());
            assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        }
    }

    @Provide
    Arbitrary<String> bindingish() {
        Arbitrary<String> names = Arbitraries.of("seq", "uniform", "double", "zipf", "exponential", "gaussian",
                "permute",
                "hash", "uuid", "pick", "alnum", "timestamp", "add", "mul", "div", "mod", "nope", "");
        Arbitrary<String> args = Arbitraries.<String>oneOf(Arbitraries.longs().map(l -> Long.toString(l)),
                Arbitraries.integers().between(-3, 100).map(i -> Integer.toString(i)), Arbitraries.<String>of("1.5",
                        "a:3", "x", "'q'", "", "1e3",
                        "2026-01-01T00:00:00Z", "1s", "9223372036854775807", "-9223372036854775808"));
        Arbitrary<String> call = Combinators.combine(names, args.list().ofMaxSize(4), Arbitraries.of("(", "", "(("),
                Arbitraries.of(")", "", "))")).as((n, a, open, close) -> n + open + String.join(", ", a) + close);
        return call.list().ofMinSize(1).ofMaxSize(4).map(calls -> String.join(" | ", calls));
    }

    @Property(tries = 500)
    void uniformStaysWithinItsBounds(@ForAll long a, @ForAll long b, @ForAll @LongRange(min = 0,
            max = 1L << 47) long cycle) {
        long lo = Math.min(a, b);
        long hi = Math.max(a, b);
        long v = compile("uniform(" + lo + ", " + hi + ")").asLong(cycle);
        assertTrue(v >= lo && v <= hi, v + " outside [" + lo + ", " + hi + "]");
    }

    @Property(tries = 300)
    void aChainOfStagesStaysWithinItsDeclaredRange(@ForAll("chains") String text,
                                                   @ForAll @LongRange(min = 0, max = 1L << 40) long cycle) {
        Fn f;
        try {
            f = compile(text);
        } catch (IllegalArgumentException refused) { // an overflowing chain: refused at load, which is allowed
            return;
        }
        Fn.LongFn l = (Fn.LongFn) f;
        long v = l.asLong(cycle);
        assertTrue(v >= l.lo && v <= l.hi, text + " gave " + v + " outside [" + l.lo + ", " + l.hi + "]");
        assertEquals(v, compile(text).asLong(cycle), "the same text, seed, name and cycle give the same value");
    }

    @Provide
    Arbitrary<String> chains() {
        Arbitrary<String> source = Arbitraries.of("seq()", "uniform(-50, 50)", "zipf(1000, 1.3)", "hash()",
                "permute(77)",
                "exponential(5, 500, 3)", "gaussian(0, 99, 2.5)", "uniform(0, 9223372036854775807)");
        Arbitrary<String> stage = Arbitraries.<String>oneOf(
                Arbitraries.integers().between(-1000, 1000).map(k -> "add(" + k + ")"),
                Arbitraries.integers().between(-1000, 1000).map(k -> "mul(" + k + ")"),
                Arbitraries.integers().between(1, 1000).map(k -> "div(" + k + ")"),
                Arbitraries.integers().between(1, 1000).map(k -> "mod(" + k + ")"),
                Arbitraries.integers().between(1, 1000).map(k -> "permute(" + k + ")"),
                Arbitraries.<String>of("permute", "hash"));
        return Combinators.combine(source, stage.list().ofMaxSize(4))
                .as((s, stages) -> stages.isEmpty() ? s : s + " | " + String.join(" | ", stages));
    }

    @Property(tries = 100)
    void permuteIsABijectionForAnySize(@ForAll @IntRange(min = 1, max = 3000) int n) {
        Fn f = compile("permute(" + n + ")");
        Set<Long> seen = new HashSet<>();
        for (long c = 0; c < n; c++) {
            long v = f.asLong(c);
            assertTrue(v >= 0 && v < n);
            seen.add(v);
        }
        assertEquals(n, seen.size());
    }

    @Property(tries = 200)
    void pickReturnsOnlyItsLabels(@ForAll @IntRange(min = 1, max = 6) int labels, @ForAll @LongRange(min = 0,
            max = 1L << 40) long cycle) {
        StringBuilder b = new StringBuilder("pick(");
        for (int i = 0; i < labels; i++) {
            b.append(i == 0 ? "" : ", ").append("l").append(i).append(':').append(i + 1);
        }
        String v = compile(b.append(')').toString()).text(cycle);
        assertTrue(List.of("l0", "l1", "l2", "l3", "l4", "l5").subList(0, labels).contains(v), v);
    }
}
