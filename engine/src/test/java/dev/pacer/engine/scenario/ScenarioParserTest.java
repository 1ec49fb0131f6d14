package dev.pacer.engine.scenario;

import dev.pacer.engine.api.Phase;
import dev.pacer.engine.api.RatePlan;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.ScenarioException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.SettingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScenarioParserTest {

    static final String EXAMPLE = """
            name: ramp-to-knee
            description: one line that `pacer scenarios` shows
            op: noop
            threads: 8
            strictness: 0.5
            phases:
              - name: warmup
                duration: 10s
                rate: 500
                warmup: true
              - name: ramp
                duration: 60s
                rate: {from: 1000, to: 20000}
              - name: find-knee
                duration: 100s
                steps: {from: 1000, to: 10000, by: 1000, every: 10s}
                threads: 16
            """;

    @Test
    void readsTheDocumentedFormat() {
        Scenario s = ScenarioParser.parse(EXAMPLE, "example.yaml");
        assertEquals("ramp-to-knee", s.name());
        assertEquals("noop", s.op());
        assertEquals(8, s.threads());
        assertEquals(0.5, s.strictness());
        assertEquals(3, s.phases().size());
        Phase warmup = s.phases().get(0);
        assertTrue(warmup.warmup());
        assertEquals(new RatePlan.Constant(500, null), warmup.rate());
        assertEquals(Duration.ofSeconds(10), warmup.duration());
        RatePlan.Ramp ramp = assertInstanceOf(RatePlan.Ramp.class, s.phases().get(1).rate());
        assertEquals(1000, ramp.rateAt(Duration.ZERO));
        assertEquals(10500, ramp.rateAt(Duration.ofSeconds(30)));
        assertEquals(20000, ramp.rateAt(Duration.ofSeconds(60)));
        Phase knee = s.phases().get(2);
        RatePlan.Steps steps = assertInstanceOf(RatePlan.Steps.class, knee.rate());
        assertEquals(10, steps.count());
        assertEquals(1000, steps.rateAt(Duration.ofSeconds(9)));
        assertEquals(2000, steps.rateAt(Duration.ofSeconds(10)));
        assertEquals(10000, steps.rateAt(Duration.ofSeconds(99)));
        assertEquals(16, knee.threads());
        assertEquals(Duration.ofSeconds(170), s.totalDuration());
        assertEquals(14, knee.line());
    }

    @Test
    void stepsWithoutADurationLastTheirStaircaseAndCanGoDown() {
        Scenario s = ScenarioParser.parse("""
                phases:
                  - steps: {from: 5k, to: 1k, by: 2k, every: 5s}
                """, "down.yaml");
        assertEquals("down", s.name(), "the name defaults to the file's");
        assertEquals("phase-1", s.phases().get(0).name());
        RatePlan.Steps steps = (RatePlan.Steps) s.phases().get(0).rate();
        assertEquals(3, steps.count());
        assertEquals(Duration.ofSeconds(15), s.phases().get(0).duration());
        assertEquals(1000, steps.rateAt(Duration.ofSeconds(12)));
    }

    @Test
    void opOptionsBecomeTheHttpFlags() {
        Scenario s = ScenarioParser.parse("""
                op: http
                url: http://127.0.0.1:8080/
                method: POST
                headers: {Content-Type: application/json, X-Test: 1}
                phases:
                  - {duration: 1s, rate: 100}
                """, "http.yaml");
        assertEquals(List.of("http://127.0.0.1:8080/"), s.opOptions().get("url"));
        assertEquals(List.of("Content-Type: application/json", "X-Test: 1"), s.opOptions().get("header"));
        assertNull(s.threads());
    }

    @Test
    void everyBuiltInScenarioParsesAndValidates() throws IOException {
        Map<String, Scenario> builtIn = Scenarios.builtIn();
        assertTrue(builtIn.keySet().containsAll(List.of("steady", "stepped", "ramp-to-knee", "spike", "soak")),
                builtIn.keySet().toString());
        try (Stream<Path> files = Files.list(Path.of("..", "scenarios"))) {
            assertEquals(files.filter(f -> f.toString().endsWith(".yaml")).count(), builtIn.size(),
                    "every file in scenarios/ ships and loads");
        }
        for (Scenario s : builtIn.values()) {
            assertFalse(s.description().isBlank(), s.name() + " has a description");
            assertTrue(s.totalDuration().toSeconds() > 0);
            String text = Files.readString(Path.of("..", "scenarios", s.name() + ".yaml"));
            assertTrue(text.startsWith("# " + s.name() + ":"), s.name() + " opens with a comment saying when to use "
                    + "it");
        }
    }

    static Stream<Arguments> brokenFiles() {
        return Stream.of(
                Arguments.of("phases:\n  - {duration: 10s, rate: 100}\nspeed: 3\n", 3, "unknown key 'speed'"),
                Arguments.of("phases:\n  - duration: 10s\n    rate: 100\n    color: red\n", 4, "unknown key 'color'"),
                Arguments.of("phases:\n  - duration: 10x\n    rate: 100\n", 2, "invalid duration '10x'"),
                Arguments.of("phases:\n  - duration: -5s\n    rate: 100\n", 2, "must not be negative"),
                Arguments.of("phases:\n  - duration: 10s\n    rate: -5\n", 3, "invalid rate '-5'"),
                Arguments.of("phases:\n  - duration: 10s\n    rate: {from: 1000}\n", 3, "a ramp needs 'to'"),
                Arguments.of("phases:\n  - duration: 10s\n    rate: {from: 1000, to: 0}\n", 3, "invalid rate '0'"),
                Arguments.of("phases:\n  - steps: {from: 1, to: 10, by: 1}\n", 2, "steps need 'every'"),
                Arguments.of("phases:\n  - steps: {from: 1, to: 1M, by: 0.000001, every: 1s}\n", 2,
                        "steps from 1 to 1000000 by 0.000001 are more than 2147483647 steps"),
                Arguments.of("phases:\n  - duration: 1m\n    steps: {from: 1M, to: 1, by: 0.0001, every: 1ms}\n", 3,
                        "more than 2147483647 steps"),
                Arguments.of("phases:\n  - duration: 10s\n", 2, "needs exactly one of 'rate', 'steps' or 'search'"),
                Arguments.of("phases:\n  - search: {from: 100, to: 50, slo: \"response.p99<20ms\"}\n", 2,
                        "invalid to '50': must be above the search's first rate, 100"),
                Arguments.of("phases:\n  - search: {from: 1, to: 9, slo: \"response.p99<20ms\",\n      precision: "
                        + "70%}\n", 3,
                        "invalid precision '70%': expected 0.1% to 50%"),
                Arguments.of("phases:\n  - rate: 100\n", 2, "needs a 'duration'"),
                Arguments.of("phases:\n  - {duration: 1s, rate: 1, threads: 0}\n", 2,
                        "invalid threads '0': must be at least 1"),
                Arguments.of("phases:\n  - name: \"\"\n    duration: 1s\n    rate: 1\n", 2,
                        "phase 1's 'name' is empty: give it one, or leave the key out for phase-1"),
                Arguments.of("phases:\n  - {duration: 1s, rate: 1}\n  - name:\n    duration: 1s\n    rate: 1\n", 3,
                        "phase 2's 'name' is empty"),
                Arguments.of("phases:\n  - name: k\n    warmup: true\n    search: {from: 100, to: 1000, slo: "
                        + "\"response.p99<20ms\"}\n", 3, "phase 'k': a search cannot be a warm-up"),
                Arguments.of("phases:\n  - {duration: 1s, rate: 1, warmup: maybe}\n", 2, "expected true or false"),
                Arguments.of("strictness: 200\nphases:\n  - {duration: 1s, rate: 1}\n", 1, "invalid strictness"),
                Arguments.of("phases:\n  - {name: a, duration: 1s, rate: 1}\n  - {name: a, duration: 1s, rate: 2}\n", 3,
                        "'a' is already defined"),
                Arguments.of("threads: 2\nthreads: 3\nphases: []\n", 2, "duplicate key"),
                Arguments.of("phases: []\n", 1, "non-empty list"),
                Arguments.of("name: x\n", 1, "needs 'phases'"),
                Arguments.of("phases:\n  - duration: 1s\n    rate: [100\n", 4, "not valid YAML"),
                Arguments.of("", 1, "empty"));
    }

    @ParameterizedTest
    @MethodSource("brokenFiles")
    void brokenFilesFailWithFileAndLine(String yaml, int line, String problem) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(yaml, "broken.yaml"));
        assertTrue(e.getMessage().startsWith("broken.yaml:" + line + ": "), e.getMessage());
        assertTrue(e.getMessage().toLowerCase().contains(problem.toLowerCase()), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    @Test
    void aPhaseWithoutANameIsNamedByItsPlace() {
        Scenario s = ScenarioParser.parse("phases:\n  - {duration: 1s, rate: 1}\n  - {duration: 1s, rate: 2}\n",
                "unnamed.yaml");
        assertEquals(List.of("phase-1", "phase-2"), s.phases().stream().map(Phase::name).toList());
    }

    @Test
    void aPhasesThreadsAreRefusedWithTheLimitOfTheRunsKindOfThread() {
        Scenario s = ScenarioParser.parse("phases:\n  - {name: p, duration: 1s, rate: 1, threads: 200000}\n",
                "threads.yaml");
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioRunner.checkThreads(s, false, 1));
        assertTrue(e.getMessage().startsWith("threads.yaml:2: phase 'p': invalid threads '200000': must be between 1"
                + " and 4096 (platform threads"), e.getMessage());
        e = assertThrows(ScenarioException.class, () -> ScenarioRunner.checkThreads(s, true, 1));
        assertTrue(e.getMessage().contains("between 1 and 100000 (virtual threads)"), e.getMessage());
    }

    @Test
    void thePhaseRecordRefusesAnEmptyNameAndASearchAsAWarmUp() {
        RatePlan search = RatePlan.Search.of(100, 1000, "response.p99<20ms", Duration.ofSeconds(2), null, 0.02);
        SettingException e = assertThrows(SettingException.class,
                () -> new Phase(" ", Duration.ofSeconds(1), search, null, null, false, 1));
        assertEquals("name", e.setting());
        e = assertThrows(SettingException.class,
                () -> new Phase("k", Duration.ofSeconds(1), search, null, null, true, 1));
        assertEquals("warmup", e.setting());
    }

    @TempDir
    Path dir;

    @Test
    void aHugeFileIsRefusedBeforeItIsRead() throws IOException {
        Path file = dir.resolve("huge.yaml");
        try (var out = Files.newBufferedWriter(file)) {
            out.write("# ");
            char[] comment = new char[1 << 20];
            java.util.Arrays.fill(comment, 'x');
            for (int i = 0; i < 20; i++) {
                out.write(comment); // a 20 MB comment
            }
            out.write("\nphases:\n  - {duration: 1s, rate: 1}\n");
        }
        ScenarioException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(ScenarioException.class, () -> ScenarioParser.parse(file)));
        assertTrue(e.getMessage().startsWith(file + ":1: "), e.getMessage());
        assertTrue(e.getMessage().contains("1 MB"), e.getMessage());
    }

    @Test
    void moreThanAThousandPhasesAreRefusedAtTheFirstOneOver() {
        StringBuilder yaml = new StringBuilder("phases:\n");
        for (int i = 1; i <= 10_000; i++) {
            yaml.append("  - {name: p").append(i).append(", duration: 1s, rate: 10}\n");
        }
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(yaml.toString(),
                "many.yaml"));
        assertTrue(e.getMessage().startsWith("many.yaml:1002: "), e.getMessage());
        assertTrue(e.getMessage().contains("1000 phases"), e.getMessage());
    }

    @Test
    void aBinaryFileIsNamedWithTheLineOfItsFirstBadByte() throws IOException {
        Path file = dir.resolve("binary.yaml");
        Files.write(file, new byte[] {'p', 'h', 'a', 's', 'e', 's', ':', '\n', '\n', ' ', (byte) 0xff, (byte) 0xfe, 0,
                1});
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(file));
        assertEquals(file + ":3: not UTF-8 text (byte 0xff)", e.getMessage());
    }

    @Test
    void theLineOfEachOpSettingIsKeptForLaterChecks() {
        Scenario s = ScenarioParser.parse("""
                name: x
                op: sleep:-1ms
                url: http://h/
                phases:
                  - {duration: 1s, rate: 10}
                """, "op.yaml");
        SettingException bad = new SettingException("op", "sleep:-1ms", "must not be negative");
        assertEquals("op.yaml:2: invalid op 'sleep:-1ms': must not be negative", s.refuse(bad).getMessage());
        assertEquals(3, s.refuse(new SettingException("url", "http://h/", "no")).line());
        assertEquals(2, s.refuse(new SettingException("body", null, "needed")).line(), "a missing one: the op's line");
        assertNull(s.refuse(new SettingException("method", "GET", "no")), "not given in the file");
    }

    @org.junit.jupiter.api.Test
    void arrivalsArePoissonOrUniformAndAnythingElseIsNamed() {
        Scenario s = ScenarioParser.parse("arrivals: poisson\nphases:\n  - duration: 1s\n    rate: 10\n", "a.yaml");
        assertEquals(dev.pacer.ratelimit.api.Arrivals.POISSON, s.arrivals());
        assertEquals(null, ScenarioParser.parse("phases:\n  - duration: 1s\n    rate: 10\n", "b.yaml").arrivals());
        ScenarioException e = org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class,
                () -> ScenarioParser.parse("arrivals: bursty\nphases:\n  - duration: 1s\n    rate: 10\n", "c.yaml"));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("c.yaml:1")
                && e.getMessage().contains("'bursty'"),
                e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void aLimiterDesignIsReadAndABadOneIsRefusedAtItsLine() {
        Scenario s = ScenarioParser.parse("limiter: leaky:queue=10\nphases:\n  - duration: 1s\n    rate: 10\n",
                "a.yaml");
        assertEquals(dev.pacer.ratelimit.LimiterDesign.parse("leaky:queue=10"), s.limiter());
        assertEquals(null, ScenarioParser.parse("phases:\n  - duration: 1s\n    rate: 10\n", "b.yaml").limiter());
        ScenarioException e = org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class,
                () -> ScenarioParser.parse("name: x\nlimiter: leaky:queue=-2\nphases:\n  - duration: 1s\n    rate: "
                        + "10\n", "c.yaml"));
        assertEquals("c.yaml:2: the leaky limiter's queue must be a whole number >= 0, got '-2'", e.getMessage());
        ScenarioException list = assertThrows(ScenarioException.class,
                () -> ScenarioParser.parse("name: x\nlimiter: [leaky]\nphases:\n  - duration: 1s\n    rate: 10\n",
                        "d.yaml"));
        assertEquals("d.yaml:2: 'limiter' must be a single value, not a list", list.getMessage(), "the place once");
        ScenarioException empty = assertThrows(ScenarioException.class,
                () -> ScenarioParser.parse("name: x\nlimiter: ~\nphases:\n  - duration: 1s\n    rate: 10\n", "e.yaml"));
        assertTrue(empty.getMessage().startsWith("e.yaml:2: 'limiter' is empty"), empty.getMessage());
    }
}
