package dev.pacer.engine.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.Change;
import dev.pacer.engine.PhaseSummary;
import dev.pacer.engine.Summary;
import dev.pacer.engine.ThresholdResult;
import dev.pacer.engine.metrics.LatencySummary;
import dev.pacer.engine.metrics.Metric;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * The summary as JSON, for scripts and CI gates. Latencies are in nanoseconds. Top level:
 * {@code ops, errors, targetRate, achievedRate, durationSeconds, wait, service, response}, then
 * {@code outcomes, errorsByType, thresholds, changes, phases, passed, failure}. A NaN (no target
 * rate) is written as {@code null}.
 */
public final class SummaryJson {

    static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryJson() {
    }

    public static ObjectNode toJson(Summary s) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("ops", s.ops());
        root.put("errors", s.errors());
        putNumber(root, "targetRate", s.targetRate());
        root.put("achievedRate", s.achievedRate());
        root.put("durationSeconds", s.durationSeconds());
        for (Metric m : Metric.values()) {
            root.set(m.tag(), latency(s.latencies().get(m)));
        }
        root.put("op", s.op());
        root.put("threads", s.threads());
        root.put("virtualThreads", s.virtualThreads());
        putNumber(root, "strictness", s.strictness());
        root.put("errorRatio", s.errorRatio());
        root.put("maxErrorRatio", s.maxErrorRatio());
        root.set("outcomes", counts(s.outcomes()));
        root.set("errorsByType", counts(s.errorsByType()));
        ArrayNode gates = root.putArray("thresholds");
        for (ThresholdResult t : s.thresholds()) {
            gates.addObject().put("expression", t.expression()).put("passed", t.passed()).put("actual", t.actual());
        }
        ArrayNode changes = root.putArray("changes");
        for (Change c : s.changes()) {
            changes.addObject().put("elapsedSeconds", c.elapsedSec()).put("kind", c.kind()).put("value", c.value())
                    .put("source", c.source());
        }
        ArrayNode phases = root.putArray("phases");
        for (PhaseSummary p : s.phases()) {
            ObjectNode n = phases.addObject();
            n.put("name", p.name()).put("warmup", p.warmup()).put("ops", p.ops()).put("errors", p.errors());
            putNumber(n, "targetRate", p.targetRate());
            n.put("achievedRate", p.achievedRate()).put("durationSeconds", p.durationSeconds());
            for (Metric m : Metric.values()) {
                n.set(m.tag(), latency(p.latencies().get(m)));
            }
        }
        root.put("stopReason", s.stopReason());
        root.put("passed", s.passed());
        if (s.failure() == null) {
            root.putNull("failure");
        } else {
            root.put("failure", s.failure());
        }
        return root;
    }

    /**
     * Writes the summary atomically (temp file beside it, then move), so a reader never sees half a file.
     * The temp file is created like any other file (the umask decides its mode; a createTempFile would
     * be private, 0600, and so would the summary).
     */
    public static void write(Summary s, Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path tmp = absolute.resolveSibling("." + absolute.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            MAPPER.writeValue(tmp.toFile(), toJson(s));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** One latency summary as JSON: {@code count, mean, min, max, percentiles} (ns). */
    public static ObjectNode latency(LatencySummary l) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("count", l.count()).put("mean", l.mean()).put("min", l.min()).put("max", l.max());
        ObjectNode p = n.putObject("percentiles");
        l.percentiles().forEach(p::put);
        return n;
    }

    private static ObjectNode counts(Map<String, Long> counts) {
        ObjectNode n = MAPPER.createObjectNode();
        counts.forEach(n::put);
        return n;
    }

    private static void putNumber(ObjectNode n, String key, double v) {
        if (Double.isNaN(v)) {
            n.putNull(key);
        } else {
            n.put(key, v);
        }
    }
}
