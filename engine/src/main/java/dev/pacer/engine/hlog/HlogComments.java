package dev.pacer.engine.hlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.event.Change;
import dev.pacer.engine.event.ChangeKind;
import dev.pacer.engine.text.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * pacer's own lines in an HdrHistogram interval log: {@code #} comments that HdrHistogram's tools read
 * past, each a tag and one JSON object. Written by {@link HlogWriter}, read by {@link HlogReader}; this
 * class is the only place that knows their shape.
 * <pre>
 * #[pacer run] {"op":"sleep:1ms","threads":4,"virtualThreads":false,"rate":"2000,0","duration":"10.0s"}
 * #[pacer change] {"at":12.345,"kind":"rate","value":"8000,0","source":"console"}
 * </pre>
 * {@code at} is seconds since the log's start time.
 */
public final class HlogComments {

    /** The tag of the run's settings line (the comment text after the {@code #}). */
    static final String RUN = "[pacer run] ";
    /** The tag of a change line. */
    static final String CHANGE = "[pacer change] ";

    private HlogComments() {
    }

    /** The comment text (without the {@code #}) recording the run's settings. */
    static String run(Map<String, ?> settings) {
        return RUN + write(Json.MAPPER.valueToTree(settings));
    }

    /** The comment text (without the {@code #}) recording a change. */
    public static String change(Change c) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("at", Math.round(c.elapsedSec() * 1e6) / 1e6);
        n.put("kind", c.kind().label()).put("value", c.value()).put("source", c.source());
        return CHANGE + write(n);
    }

    /** The settings on a run line ({@code #[pacer run] ...}), or null if the line is not one. */
    static Map<String, String> parseRun(String line) {
        JsonNode n = body(line, RUN);
        if (n == null || !n.isObject()) {
            return null;
        }
        Map<String, String> settings = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> settings.put(e.getKey(), e.getValue().asText()));
        return settings;
    }

    /**
     * The change on a change line ({@code #[pacer change] ...}) as a marker, or null if the line is not
     * one.
     *
     * @param startSec the log's start time, seconds since the epoch
     * @throws IllegalArgumentException when it is a change line but its JSON is broken
     */
    static Marker parseChange(String line, double startSec) {
        JsonNode n = body(line, CHANGE);
        if (n == null) {
            return null;
        }
        if (!n.path("at").isNumber() || !n.path("kind").isTextual()) {
            throw new IllegalArgumentException("a change without 'at' and 'kind'");
        }
        return new Marker(startSec + n.get("at").asDouble(), ChangeKind.ofLabel(n.get("kind").asText()),
                n.path("value").asText(""), n.path("source").asText(""));
    }

    private static JsonNode body(String line, String tag) {
        String prefix = "#" + tag;
        if (!line.startsWith(prefix)) {
            return null;
        }
        try {
            return Json.MAPPER.readTree(line.substring(prefix.length()));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("broken JSON after '" + prefix.strip() + "': " + e.getOriginalMessage());
        }
    }

    private static String write(JsonNode n) {
        try {
            return Json.MAPPER.writeValueAsString(n); // one line: newlines in values are escaped
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
