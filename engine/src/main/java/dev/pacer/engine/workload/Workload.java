package dev.pacer.engine.workload;

import com.fasterxml.jackson.core.JsonPointer;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A loaded workload file, compiled: its bindings, its ops (each a request or steps of them, with checks and
 * saves) and its mix. Immutable, thread-safe. Built by {@link WorkloadParser}.
 *
 * @param name     the workload's name (the file's, by default)
 * @param source   the file it came from, for messages
 * @param base     the server's base URL: scheme, host and port
 * @param seed     the seed every binding's values derive from
 * @param bindings each binding by name, in the file's order
 * @param ops      the ops, in the file's order
 */
public record Workload(String name, String source, URI base, long seed, Map<String, Binding> bindings, List<Op> ops) {

    /** A binding: its name, its text as written (vars resolved) and its compiled function. */
    record Binding(String name, String text, Fn fn) {
    }

    /**
     * One op of the mix.
     *
     * @param savedNames the names its steps save, by slot
     */
    public record Op(String name, long weight, List<Step> steps, List<String> savedNames) {
    }

    /** One request of an op, its checks and what it saves for the later steps. */
    record Step(String method, Template target, List<Header> headers, Template body, String contentType,
                Check check, List<Save> saves, int line) {
    }

    /** A header: its name and its value's template. */
    record Header(String name, Template value) {
    }

    /**
     * What a response must be. Each part null or empty when absent.
     *
     * @param status   the accepted statuses, bit per status 0..599; null: any
     * @param contains text the body must contain
     * @param regex    a pattern the body must match somewhere
     * @param json     JSON pointers and the values they must equal
     * @param warn     true: failures are counted, not errors, and the cycle goes on
     */
    record Check(long[] status, String statusText, Template contains, Pattern regex, List<JsonEquals> json,
                 boolean warn) {

        boolean needsBody() {
            return contains != null || regex != null || !json.isEmpty();
        }
    }

    /** A JSON check: the value at {@code pointer} equals the template's text. */
    record JsonEquals(JsonPointer pointer, Template expected) {
    }

    /**
     * A value saved for the cycle's later steps.
     *
     * @param slot    its index in {@link CycleState#saved}
     * @param pointer the JSON value to save, or null
     * @param header  the header to save, or null
     */
    record Save(String name, int slot, JsonPointer pointer, String header, String cookie) {
    }

    /** The op names, in the file's order. */
    public List<String> opNames() {
        return ops.stream().map(Op::name).toList();
    }
}
