package dev.pacer.engine.hlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
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
 * #[pacer interval] {"start":12.0,"end":13.0,"target":2000.0,"ops":1998,"errors":{"unexpected-5xx":3},
 *                    "phase":"up","warmup":false,"drain":false}          (one line in the log)
 * #[pacer interval] {"start":0.0,...,"ops":4,"perOp":{"a":{"ops":3,"errors":{}},"b":{"ops":1,"errors":{}}},...}
 * </pre>
 * {@code at}, {@code start} and {@code end} are seconds since the log's start time; an interval line
 * follows that interval's histograms; {@code target} is absent when the run is unpaced,
 * {@code phase} when it has no phases and {@code perOp} when its op is not a mix (each named op's
 * ops and errors, in the ops' order, beside its histograms tagged {@code wait.NAME}, ...).
 */
public final class HlogComments {

    /** The tag of the run's settings line (the comment text after the {@code #}). */
    static final String RUN = "[pacer run] ";
    /** The tag of a change line. */
    static final String CHANGE = "[pacer change] ";
    /** The tag of an interval line. */
    static final String INTERVAL = "[pacer interval] ";

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
        if (!c.note().isEmpty()) {
            n.put("note", c.note());
        }
        return CHANGE + write(n);
    }

    /** The comment text (without the {@code #}) recording an interval's target, ops, errors and phase. */
    public static String interval(IntervalNote i) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("start", Math.round(i.start() * 1e3) / 1e3).put("end", Math.round(i.end() * 1e3) / 1e3);
        if (!Double.isNaN(i.target())) {
            n.put("target", Math.round(i.target() * 1e3) / 1e3);
        }
        n.put("ops", i.ops());
        putErrors(n, i.errors());
        if (!i.perOp().isEmpty()) {
            ObjectNode perOp = n.putObject("perOp");
            i.perOp().forEach((op, c) -> putErrors(perOp.putObject(op).put("ops", c.ops()), c.errors()));
        }
        if (i.phase() != null) {
            n.put("phase", i.phase());
        }
        n.put("warmup", i.warmup()).put("drain", i.drain());
        return INTERVAL + write(n);
    }

    /** {@code "errors": {...}} on {@code n}, by label. */
    private static void putErrors(ObjectNode n, Map<String, Long> counts) {
        ObjectNode errors = n.putObject("errors");
        counts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> errors.put(e.getKey(), e.getValue()));
    }

    /**
     * The interval on an interval line ({@code #[pacer interval] ...}), or null if the line is not one.
     *
     * @throws IllegalArgumentException when it is an interval line but its JSON is broken or lacks
     *                                  {@code start}, {@code end} or {@code ops}, or an op in {@code perOp}
     *                                  lacks {@code ops}
     */
    static IntervalNote parseInterval(String line) {
        JsonNode n = body(line, INTERVAL);
        if (n == null) {
            return null;
        }
        if (!n.path("start").isNumber() || !n.path("end").isNumber() || !n.path("ops").canConvertToLong()) {
            throw new IllegalArgumentException("an interval without 'start', 'end' and 'ops'");
        }
        double start = n.get("start").asDouble();
        double end = n.get("end").asDouble();
        if (!Double.isFinite(start) || start < 0 || !Double.isFinite(end) || end < start) {
            throw new IllegalArgumentException("an interval from " + n.get("start") + " s to " + n.get("end") + " s");
        }
        double target = n.path("target").isNumber() ? n.get("target").asDouble() : Double.NaN;
        if (!Double.isNaN(target) && !(Double.isFinite(target) && target >= 0)) {
            throw new IllegalArgumentException("a target of " + n.get("target") + " ops/s");
        }
        Map<String, IntervalNote.OpCounts> perOp = new LinkedHashMap<>();
        n.path("perOp").fields().forEachRemaining(e -> {
            if (!e.getValue().path("ops").canConvertToLong()) {
                throw new IllegalArgumentException("op '" + e.getKey() + "' without 'ops'");
            }
            long ops = ops(e.getValue(), "op '" + e.getKey() + "': ");
            perOp.put(e.getKey(), new IntervalNote.OpCounts(ops, errors(e.getValue(), ops, "op '" + e.getKey()
                    + "': ")));
        });
        long ops = ops(n, "");
        return new IntervalNote(start, end, target, ops, errors(n, ops, ""),
                n.path("phase").isTextual() ? n.get("phase").asText() : null, n.path("warmup").asBoolean(false),
                n.path("drain").asBoolean(false), perOp);
    }

    /** {@code n}'s {@code ops}, a count. */
    private static long ops(JsonNode n, String of) {
        long ops = n.get("ops").asLong();
        if (ops < 0) {
            throw new IllegalArgumentException(of + "ops " + ops + " is not a count");
        }
        return ops;
    }

    /** The counts in {@code n}'s {@code errors}, by label: each a count, together at most the {@code ops}. */
    private static Map<String, Long> errors(JsonNode n, long ops, String of) {
        Map<String, Long> errors = new LinkedHashMap<>();
        long[] total = {0};
        n.path("errors").fields().forEachRemaining(e -> {
            if (!e.getValue().canConvertToLong() || e.getValue().asLong() < 0) {
                throw new IllegalArgumentException(of + "error count '" + e.getKey() + "' is not a count: "
                        + e.getValue());
            }
            long count = e.getValue().asLong();
            total[0] = count > ops - total[0] ? Long.MAX_VALUE : total[0] + count;
            errors.put(e.getKey(), count);
        });
        if (total[0] > ops) {
            throw new IllegalArgumentException(of + "more errors than its " + ops + " ops");
        }
        return errors;
    }

    /** The settings on a run line ({@code #[pacer run] ...}), or null if the line is not one. */
    static Map<String, String> parseRun(String line) {
        JsonNode n = body(line, RUN);
        if (n == null || !n.isObject()) {
            return null;
        }
        Map<String, String> settings = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> {
            if (!e.getValue().isNull()) {
                settings.put(e.getKey(), e.getValue().asText());
            }
        });
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
