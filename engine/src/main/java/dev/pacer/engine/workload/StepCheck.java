package dev.pacer.engine.workload;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pacer.engine.api.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

/**
 * Judges one step's response: status, then each check as written, then the saves. The first failure is the
 * step's outcome; null when all passed.
 *
 * <p>A JSON pointer is read from the body by Jackson's streaming parser ({@link JsonPointerReader}), with no tree;
 * only a pointer at a fraction, a huge number, an object or an array builds the tree ({@code readTree}) for its
 * text. Expected values are rendered into scratch space and compared as bytes, and {@code body} checks search the
 * body's bytes: the judging allocates the streaming parser, and a string per saved value.
 *
 * <p>Not thread-safe: one per connection (its scratch space), used on its event loop.
 */
final class StepCheck {

    /** Bodies are read with its settings: the streaming pass and the tree alike. */
    static final ObjectMapper JSON = new ObjectMapper().disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);

    private final Bytes expected = new Bytes(64);
    private final JsonPointerReader reader = new JsonPointerReader(JSON.getFactory());
    /** The step's pointers: its JSON checks' then its JSON saves'. */
    private JsonPointer[] pointers = new JsonPointer[4];

    /**
     * @param body       the body's bytes, {@code [0, bodyLength)} (any array when the step needs no body)
     * @param headers    the response's headers: a name to its first value, or null
     * @return the failure (a warn check's is its {@code warn-} outcome), or null
     */
    Outcome judge(Workload.Step step, CycleState st, int status, byte[] body, int bodyLength,
                  Function<String, String> headers, Function<String, String> cookies) {
        Workload.Check check = step.check();
        Outcome warned = null;
        int read = -1; // -1: the JSON pointers not read yet; 0: read; 1: read, and a value needs the tree
        JsonNode tree = null;
        if (check != null) {
            Outcome failed = null;
            if (check.status() != null && (status < 0 || status >= 640
                    || (check.status()[status >> 6] & (1L << status)) == 0)) {
                failed = CheckOutcomes.CHECK_STATUS;
            }
            if (failed == null && check.contains() != null) {
                check.contains().render(st, expected.clear());
                if (indexOf(body, bodyLength, expected.array, expected.length) < 0) {
                    failed = CheckOutcomes.CHECK_BODY;
                }
            }
            if (failed == null && check.regex() != null
                    && !check.regex().matcher(new String(body, 0, bodyLength, StandardCharsets.UTF_8)).find()
                    && !st.warm) { // a warm-up's answer is made for every check but a regex (see CycleState#warm)
                failed = CheckOutcomes.CHECK_BODY;
            }
            List<Workload.JsonEquals> json = check.json();
            if (failed == null && !json.isEmpty()) {
                read = readPointers(step, body, bodyLength);
                if (read == 1) {
                    tree = tree(body, bodyLength);
                }
                for (int i = 0; i < json.size(); i++) {
                    Workload.JsonEquals eq = json.get(i);
                    eq.expected().render(st, expected.clear());
                    boolean equal = read == 1 ? treeTextEquals(tree, eq.pointer(), expected)
                            : reader.textEquals(i, expected.array, expected.length)
                            || reader.kind(i) == JsonPointerReader.INTEGER // 42 and "42.0", "4.2e1": by value
                            && numberEquals(new java.math.BigDecimal(reader.text(i)), expected.toString());
                    if (!equal) {
                        failed = CheckOutcomes.CHECK_JSON;
                        break;
                    }
                }
            }
            if (failed != null) {
                if (!check.warn()) {
                    return failed;
                }
                warned = CheckOutcomes.warn(failed);
            }
        }
        List<Workload.Save> saves = step.saves();
        int target = check == null ? 0 : check.json().size();
        for (int s = 0; s < saves.size(); s++) {
            Workload.Save save = saves.get(s);
            String value;
            boolean isText;
            if (save.pointer() != null) {
                if (read < 0) {
                    read = readPointers(step, body, bodyLength);
                }
                if (read == 1) {
                    if (tree == null) {
                        tree = tree(body, bodyLength);
                    }
                    JsonNode at = tree == null ? null : tree.at(save.pointer());
                    if (at == null || at.isMissingNode() || at.isNull()) {
                        return CheckOutcomes.EXTRACT_MISSING;
                    }
                    value = text(at);
                    isText = at.isTextual(); // an object or array goes into a JSON body as JSON
                } else {
                    int kind = reader.kind(target);
                    if (kind == JsonPointerReader.MISSING || kind == JsonPointerReader.NULL) {
                        return CheckOutcomes.EXTRACT_MISSING;
                    }
                    value = reader.text(target);
                    isText = kind == JsonPointerReader.TEXT;
                }
                target++;
            } else {
                value = save.header() != null ? headers.apply(save.header()) : cookies.apply(save.cookie());
                if (value == null) {
                    return CheckOutcomes.EXTRACT_MISSING;
                }
                isText = true;
            }
            st.saved[save.slot()] = value;
            st.savedIsText[save.slot()] = isText;
        }
        return warned;
    }

    /**
     * Reads the step's pointers (its JSON checks', then its JSON saves') in one streaming pass: 1 when a value
     * found is one only the tree gives the text of, else 0.
     */
    private int readPointers(Workload.Step step, byte[] body, int bodyLength) {
        int n = 0;
        List<Workload.JsonEquals> json = step.check() == null ? List.of() : step.check().json();
        List<Workload.Save> saves = step.saves();
        if (pointers.length < json.size() + saves.size()) {
            pointers = new JsonPointer[json.size() + saves.size()];
        }
        for (int i = 0; i < json.size(); i++) {
            pointers[n++] = json.get(i).pointer();
        }
        for (int i = 0; i < saves.size(); i++) {
            if (saves.get(i).pointer() != null) {
                pointers[n++] = saves.get(i).pointer();
            }
        }
        reader.read(body, bodyLength, pointers, n);
        for (int i = 0; i < n; i++) {
            if (reader.kind(i) == JsonPointerReader.OTHER) {
                return 1;
            }
        }
        return 0;
    }

    /** Whether a step needs the response's body: a body check or a JSON save. */
    static boolean needsBody(Workload.Step step) {
        return step.check() != null && step.check().needsBody()
                || step.saves().stream().anyMatch(s -> s.pointer() != null);
    }

    /** Whether a step needs the response's headers: a header save. */
    static boolean needsHeaders(Workload.Step step) {
        return step.saves().stream().anyMatch(s -> s.header() != null || s.cookie() != null);
    }

    /** The first index of {@code needle[0, m)} in {@code hay[0, n)}, or -1. */
    static int indexOf(byte[] hay, int n, byte[] needle, int m) {
        if (m == 0) {
            return 0;
        }
        byte first = needle[0];
        for (int i = 0, last = n - m; i <= last; i++) {
            if (hay[i] != first) {
                continue;
            }
            int j = 1;
            while (j < m && hay[i + j] == needle[j]) {
                j++;
            }
            if (j == m) {
                return i;
            }
        }
        return -1;
    }

    private static boolean treeTextEquals(JsonNode tree, JsonPointer pointer, Bytes expected) {
        JsonNode at = tree == null ? null : tree.at(pointer);
        if (at == null || at.isMissingNode()) {
            return false;
        }
        return at.isNumber() ? numberEquals(at.decimalValue(), expected.toString())
                : text(at).equals(expected.toString());
    }

    /**
     * Whether a number in a body equals the expected text's number by value ({@code 4.50} and "4.5", {@code 1e2} and
     * "100"); false when the text is no number. The streaming path calls it only where the digits differ (the failing
     * side of a check); the tree's, which a fraction takes, for each number it compares, beside the tree it made.
     */
    private static boolean numberEquals(java.math.BigDecimal value, String expected) {
        try {
            return value.compareTo(new java.math.BigDecimal(expected.strip())) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static JsonNode tree(byte[] body, int length) {
        try {
            return length == 0 ? null : JSON.readTree(body, 0, length);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** A value node's text (a string's content, a number's digits), a container's JSON. */
    private static String text(JsonNode n) {
        return n.isValueNode() ? n.asText() : n.toString();
    }
}
