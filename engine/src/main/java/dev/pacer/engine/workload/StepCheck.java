package dev.pacer.engine.workload;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pacer.engine.op.Outcome;
import java.nio.charset.StandardCharsets;

/**
 * Judges one step's response: status, then each check as written, then the saves. The first failure is the
 * step's outcome; null when all passed.
 *
 * <p>Not thread-safe: one per connection, used on its event loop.
 */
final class StepCheck {

    private static final ObjectMapper JSON = new ObjectMapper().disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);

    /**
     * @param body    the body's bytes, {@code [0, bodyLength)} (any array when the step needs no body)
     * @param headers the response's headers: a name to its first value, or null
     * @return the failure (a warn check's is its {@code warn-} outcome), or null
     */
    Outcome judge(Workload.Step step, CycleState st, int status, byte[] body, int bodyLength,
                  java.util.function.Function<String, String> headers) {
        Workload.Check check = step.check();
        Outcome warned = null;
        JsonNode tree = null;
        if (check != null) {
            Outcome failed = null;
            if (check.status() != null && (status < 0 || status >= 640
                    || (check.status()[status >> 6] & (1L << status)) == 0)) {
                failed = CheckOutcomes.CHECK_STATUS;
            }
            String text = failed == null && check.needsBody()
                    ? new String(body, 0, bodyLength, StandardCharsets.UTF_8) : null;
            if (failed == null && check.contains() != null && !text.contains(check.contains().render(st))) {
                failed = CheckOutcomes.CHECK_BODY;
            }
            if (failed == null && check.regex() != null && !check.regex().matcher(text).find()) {
                failed = CheckOutcomes.CHECK_BODY;
            }
            if (failed == null && !check.json().isEmpty()) {
                tree = tree(body, bodyLength);
                for (Workload.JsonEquals eq : check.json()) {
                    JsonNode at = tree == null ? null : tree.at(eq.pointer());
                    if (at == null || at.isMissingNode() || !text(at).equals(eq.expected().render(st))) {
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
        for (Workload.Save save : step.saves()) {
            String value;
            boolean isText;
            if (save.pointer() != null) {
                if (tree == null) {
                    tree = tree(body, bodyLength);
                }
                JsonNode at = tree == null ? null : tree.at(save.pointer());
                if (at == null || at.isMissingNode() || at.isNull()) {
                    return CheckOutcomes.EXTRACT_MISSING;
                }
                value = text(at);
                isText = at.isTextual() || at.isContainerNode();
            } else {
                value = headers.apply(save.header());
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

    /** Whether a step needs the response's body: a body check or a JSON save. */
    static boolean needsBody(Workload.Step step) {
        return step.check() != null && step.check().needsBody() || step.saves().stream().anyMatch(s -> s.pointer() != null);
    }

    /** Whether a step needs the response's headers: a header save. */
    static boolean needsHeaders(Workload.Step step) {
        return step.saves().stream().anyMatch(s -> s.header() != null);
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
