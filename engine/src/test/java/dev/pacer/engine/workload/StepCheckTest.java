package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.api.Outcome;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The judge reads JSON pointers by streaming and compares bytes: it must give what reading the body as a tree
 * gives ({@link #byTree}: the judge as it was), for any body, valid or not, and any pointer.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StepCheckTest {

    private static final String[] KEYS = {"a", "b", "id", "0", "1", "é"};

    private static Workload.Step step(String checks, String saves) {
        String yaml = "base: http://127.0.0.1:1\nops: {a: {weight: 1, request: GET /"
                + (checks.isEmpty() ? "" : ", check: {" + checks + "}")
                + (saves.isEmpty() ? "" : ", save: {" + saves + "}") + "}}\n";
        return WorkloadParser.parse(yaml, "w.yaml", Path.of("."), Map.of()).ops().get(0).steps().get(0);
    }

    private static Outcome judge(StepCheck check, Workload.Step step, CycleState st, String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        byte[] padded = java.util.Arrays.copyOf(b, b.length + 7); // only [0, length) is the body
        padded[b.length] = '}';
        return check.judge(step, st, 200, padded, b.length, name -> null, name -> null);
    }

    @Test
    void aPointersValueComparesByItsText() {
        StepCheck check = new StepCheck();
        Workload.Step id = step("json: {/id: '42'}", "");
        CycleState st = new CycleState(0, 0);
        assertNull(judge(check, id, st, "{\"id\": 42}"));
        assertNull(judge(check, id, st, "{\"id\": \"42\"}"));
        assertNull(judge(check, id, st, "{\"name\": {\"id\": 1}, \"id\": 42, \"more\": [1, {\"id\": 3}]}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, id, st, "{\"id\": 420}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, id, st, "{\"id\": 41, \"id\": 42"), "not JSON: cut");
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, id, st, "[{\"id\": 42}]"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, id, st, ""));
        assertNull(judge(check, step("json: {/a/1/b: '0'}", ""), st, "{\"a\": [0, {\"b\": -0}]}"), "the tree's 0");
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, step("json: {/a/1/b: '-0'}", ""), st, "{\"a\": [-0]}"));
        assertNull(judge(check, step("json: {/a: '1000.0'}", ""), st, "{\"a\": 1e3}"), "a fraction as the tree has it");
        assertNull(judge(check, step("json: {/a: '{\"b\":[1,2]}'}", ""), st, "{\"a\": {\"b\": [1, 2]}}"));
        assertNull(judge(check, step("json: {/é: 'ü'}", ""), st, "{\"é\": \"\\u00fc\"}"), "text beyond ASCII");
    }

    /** A number compares by value: 4.50 failed against "4.50" (Java's 4.5), 1e2 against "100", 42 against "42.0". */
    @Test
    void aNumberComparesByItsValue() {
        StepCheck check = new StepCheck();
        CycleState st = new CycleState(0, 0);
        assertNull(judge(check, step("json: {/a: '4.50'}", ""), st, "{\"a\": 4.50}"));
        assertNull(judge(check, step("json: {/a: '4.5'}", ""), st, "{\"a\": 4.50}"));
        assertNull(judge(check, step("json: {/a: '100'}", ""), st, "{\"a\": 1e2}"));
        assertNull(judge(check, step("json: {/a: '1e2'}", ""), st, "{\"a\": 100}"));
        assertNull(judge(check, step("json: {/a: '42.0'}", ""), st, "{\"a\": 42}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, step("json: {/a: '42.5'}", ""), st, "{\"a\": 42}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, step("json: {/a: 'x42'}", ""), st, "{\"a\": 42}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, step("json: {/a: '100'}", ""), st, "{\"a\": \"1e2\"}"),
                "a string is its text");
    }

    /** An empty string and null could not be expected: both were refused as "is empty". */
    @Test
    void anEmptyStringAndNullCanBeExpected() {
        StepCheck check = new StepCheck();
        CycleState st = new CycleState(0, 0);
        assertNull(judge(check, step("json: {/a: ''}", ""), st, "{\"a\": \"\"}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, step("json: {/a: ''}", ""), st, "{\"a\": \"x\"}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, step("json: {/a: ''}", ""), st, "{\"b\": \"\"}"),
                "missing is not empty");
        assertNull(judge(check, step("json: {/a: ~}", ""), st, "{\"a\": null}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, step("json: {/a: ~}", ""), st, "{\"a\": 1}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, step("json: {/a: ~}", ""), st, "{}"),
                "missing is not null");
    }

    @Test
    void aKeyWrittenTwiceCountsByItsLaterValueAndABodyTheTreeRefusesHasNoValue() {
        StepCheck check = new StepCheck();
        CycleState st = new CycleState(0, 0);
        assertNull(judge(check, step("json: {/id: '2'}", ""), st, "{\"id\": 1, \"id\": 2}"));
        Workload.Step nested = step("json: {/a/b: '1'}", "");
        assertNull(judge(check, nested, st, "{\"a\": 2, \"a\": {\"b\": 1}}"));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, nested, st, "{\"a\": {\"b\": 1}, \"a\": 2}"));
        // a number longer than Jackson reads (1000 digits), where no check looks: the tree is refused, so here too
        String longNumber = "{\"id\": 42, \"n\": " + "9".repeat(1001) + "}";
        Workload.Step id = step("json: {/id: '42'}", "");
        assertEquals(byTree(id, st, longNumber.getBytes(StandardCharsets.UTF_8)), judge(check, id, st, longNumber));
        assertEquals(CheckOutcomes.CHECK_JSON, judge(check, id, st, longNumber));
    }

    @Test
    void savedValuesKeepTheirTypeAndANullIsMissing() {
        StepCheck check = new StepCheck();
        Workload.Step save = step("", "n: json(/n), s: json(/s), o: json(/o)");
        CycleState st = new CycleState(0, 3);
        assertNull(judge(check, save, st, "{\"n\": 7, \"s\": \"o-7\", \"o\": {\"x\": true}}"));
        assertArrayEquals(new String[] {"7", "o-7", "{\"x\":true}"}, st.saved);
        assertArrayEquals(new boolean[] {false, true, false}, st.savedIsText); // an object goes into JSON as JSON
        assertEquals(CheckOutcomes.EXTRACT_MISSING, judge(check, save, st.reset(1), "{\"n\": null, \"s\": \"x\"}"));
        assertEquals(CheckOutcomes.EXTRACT_MISSING, judge(check, save, st.reset(2), "{\"s\": \"x\", \"o\": 1}"));
    }

    @Test
    void aBodyCheckFindsItsTextInTheBytes() {
        StepCheck check = new StepCheck();
        CycleState st = new CycleState(5, 0);
        assertNull(judge(check, step("body: 'item {cycle}'", ""), st, "{\"name\": \"item 5\"}"));
        assertNull(judge(check, step("body: 'ü'", ""), st, "{\"name\": \"aüb\"}"));
        assertEquals(CheckOutcomes.CHECK_BODY, judge(check, step("body: 'item 6'", ""), st, "{\"name\": \"item 5\"}"));
        assertEquals(CheckOutcomes.CHECK_BODY, judge(check, step("body: '5\"}}'", ""), st, "{\"name\": \"item 5\"}"),
                "the bytes past the body's length are not the body");
    }

    /** Random steps and bodies, valid and broken: the streaming judge and the tree's agree on every one. */
    @Test
    void theStreamingJudgeAgreesWithTheTreeOnAnyBody() {
        Random random = new Random(26);
        StepCheck check = new StepCheck();
        int compared = 0;
        int checked = 0;
        int saved = 0;
        for (int s = 0; s < 300; s++) {
            List<String> pointers = new ArrayList<>();
            while (pointers.size() < 3) {
                String p = pointer(random);
                if (!pointers.contains(p)) { // a YAML map's keys differ
                    pointers.add(p);
                }
            }
            List<String> bodies = new ArrayList<>();
            for (int b = 0; b < 25; b++) {
                bodies.add(body(random));
            }
            // expected values: the text the tree finds in one of the bodies (so that many checks pass), or any text
            StringBuilder checks = new StringBuilder("json: {");
            for (int i = 0; i < 2; i++) {
                String expected = random.nextInt(4) == 0 ? pick(random, "42", "x", "true", "null", "1.5")
                        : treeText(bodies.get(random.nextInt(bodies.size())), pointers.get(i));
                if (expected != null && (expected.isEmpty()
                        || !expected.chars().allMatch(c -> c >= 0x20 && !Character.isSurrogate((char) c)))) {
                    expected = "x"; // not an expected value a workload file holds
                }
                checks.append(i == 0 ? "" : ", ").append(yaml(pointers.get(i))).append(": ")
                        .append(yaml(expected == null ? "0" : expected));
            }
            checks.append("}").append(random.nextBoolean() ? ", warn: true" : "");
            Workload.Step step = step(checks.toString(), "v: json(" + pointers.get(2) + ")");
            for (String body : bodies) {
                CycleState streamed = new CycleState(s, 1);
                CycleState tree = new CycleState(s, 1);
                Outcome a = judge(check, step, streamed, body);
                Outcome b = byTree(step, tree, body.getBytes(StandardCharsets.UTF_8));
                assertEquals(b, a, () -> step.check().json() + " save " + pointers.get(2) + " in " + body);
                assertArrayEquals(tree.saved, streamed.saved, body);
                assertArrayEquals(tree.savedIsText, streamed.savedIsText, body);
                compared++;
                checked += a != CheckOutcomes.CHECK_JSON && a != CheckOutcomes.WARN_JSON ? 1 : 0;
                saved += streamed.saved[0] != null ? 1 : 0;
            }
        }
        assertEquals(7500, compared);
        org.junit.jupiter.api.Assertions.assertTrue(checked > 1000 && saved > 200,
                "checks that pass and values saved are among them: " + checked + ", " + saved);
    }

    /**
     * The judge by the tree: each pointer read from the body as a tree ({@code readTree}), the body as a string; a
     * number compared by value.
     */
    static Outcome byTree(Workload.Step step, CycleState st, byte[] body) {
        Workload.Check check = step.check();
        Outcome warned = null;
        JsonNode tree = null;
        if (check != null && !check.json().isEmpty()) {
            tree = tree(body);
            for (Workload.JsonEquals eq : check.json()) {
                JsonNode at = tree == null ? null : tree.at(eq.pointer());
                String expected = eq.expected().render(st);
                if (at == null || at.isMissingNode() || !(at.isNumber() ? numberEquals(at, expected)
                        : text(at).equals(expected))) {
                    if (!check.warn()) {
                        return CheckOutcomes.CHECK_JSON;
                    }
                    warned = CheckOutcomes.WARN_JSON;
                    break;
                }
            }
        }
        for (Workload.Save save : step.saves()) {
            if (tree == null) {
                tree = tree(body);
            }
            JsonNode at = tree == null ? null : tree.at(save.pointer());
            if (at == null || at.isMissingNode() || at.isNull()) {
                return CheckOutcomes.EXTRACT_MISSING;
            }
            st.saved[save.slot()] = text(at);
            st.savedIsText[save.slot()] = at.isTextual();
        }
        return warned;
    }

    private static boolean numberEquals(JsonNode number, String expected) {
        try {
            return number.decimalValue().compareTo(new java.math.BigDecimal(expected.strip())) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static JsonNode tree(byte[] body) {
        try {
            return body.length == 0 ? null : StepCheck.JSON.readTree(body);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static String text(JsonNode n) {
        return n.isValueNode() ? n.asText() : n.toString();
    }

    private static String treeText(String body, String pointer) {
        JsonNode t = tree(body.getBytes(StandardCharsets.UTF_8));
        JsonNode at = t == null ? null : t.at(com.fasterxml.jackson.core.JsonPointer.compile(pointer));
        return at == null || at.isMissingNode() ? null : text(at);
    }

    private static String pointer(Random r) {
        StringBuilder p = new StringBuilder();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            p.append('/').append(r.nextInt(5) == 0 ? "2" : KEYS[r.nextInt(KEYS.length)]);
        }
        return p.toString();
    }

    /** A JSON text, sometimes broken: cut short, a byte changed, invalid UTF-8, something after it, or nothing. */
    private static String body(Random r) {
        StringBuilder b = new StringBuilder();
        value(r, b, 0);
        String text = b.toString();
        return switch (r.nextInt(12)) {
            case 0 -> text.substring(0, r.nextInt(text.length() + 1));
            case 1 -> {
                int at = r.nextInt(text.length());
                yield text.substring(0, at) + pick(r, "x", ",", "}", "]", "\"", ":", "\\") + text.substring(at + 1);
            }
            case 2 -> text + pick(r, " x", "}", " {\"id\": 1}", "\n");
            case 3 -> pick(r, "", "  ", "null", "42", "\"42\"", "[]", "{}");
            default -> text;
        };
    }

    private static void value(Random r, StringBuilder b, int depth) {
        int kind = depth >= 4 ? 2 + r.nextInt(6) : r.nextInt(8);
        switch (kind) {
            case 0, 1 -> {
                boolean object = kind == 0;
                b.append(object ? '{' : '[');
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    b.append(i == 0 ? "" : ",").append(r.nextBoolean() ? " " : "");
                    if (object) {
                        b.append('"').append(KEYS[r.nextInt(KEYS.length)]).append("\": "); // keys may repeat
                    }
                    value(r, b, depth + 1);
                }
                b.append(object ? '}' : ']');
            }
            case 2, 3 -> b.append(pick(r, "42", "0", "-0", "-7", "9223372036854775807", "-9223372036854775808",
                    "9223372036854775808", "123456789012345678901234567890"));
            case 4 -> b.append(pick(r, "1.5", "1e3", "-0.0", "1.50", "2E-2"));
            case 5 -> b.append(pick(r, "\"42\"", "\"x\"", "\"\"", "\"é\"", "\"\\u00e9\"", "\"a\\\"b\"", "\"o-7\"",
                    "\"\\ud800\"", "\"tab\\tx\""));
            case 6 -> b.append(pick(r, "true", "false"));
            default -> b.append("null");
        }
    }

    private static String pick(Random r, String... options) {
        return options[r.nextInt(options.length)];
    }

    private static String yaml(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    @Test
    void invalidUtf8InAStringTheCheckDoesNotReadFailsAsInTheTree() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes("{\"id\": 42, \"name\": \"".getBytes(StandardCharsets.US_ASCII));
        body.write(0xC3);
        body.write(0x28); // not a continuation byte
        body.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
        byte[] b = body.toByteArray();
        Workload.Step step = step("json: {/id: '42'}", "");
        assertEquals(byTree(step, new CycleState(0, 0), b),
                new StepCheck().judge(step, new CycleState(0, 0), 200, b, b.length, name -> null,
                        name -> null));
    }
}
