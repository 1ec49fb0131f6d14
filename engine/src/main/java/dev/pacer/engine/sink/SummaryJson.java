package dev.pacer.engine.sink;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.Knee;
import dev.pacer.engine.api.OpSummary;
import dev.pacer.engine.api.PhaseSummary;
import dev.pacer.engine.api.RunFigures;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.ThresholdResult;
import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import java.io.IOException;
import java.nio.file.Path;
import dev.pacer.engine.text.Json;
import dev.pacer.engine.text.OutputFile;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import java.util.Map;

/**
 * The summary as JSON, for scripts and CI gates. Latencies are in nanoseconds. Top level:
 * {@code ops, errors, targetRate, achievedRate, durationSeconds, wait, service, response}, then
 * {@code outcomes, errorsByType, thresholds, changes, phases, stopReason, stoppedBy, passed, failure}; a mix's run
 * (a workload) has {@code perOp} too, before {@code phases}: an object with a member per named op, in their order,
 * each {@code ops, errors, targetRate (null), achievedRate, durationSeconds, wait, service, response, outcomes,
 * errorsByType}. A NaN (no target rate) is written as {@code null}.
 */
public final class SummaryJson {

    private SummaryJson() {
    }

    public static ObjectNode toJson(Summary s) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        putFigures(root, s.figures());
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
            ObjectNode n = changes.addObject().put("elapsedSeconds", c.elapsedSec()).put("kind", c.kind().label())
                    .put("value", c.value()).put("source", c.source());
            if (!c.note().isEmpty()) { // as the .hlog's comment and the live feed give it
                n.put("note", c.note());
            }
        }
        if (!s.perOp().isEmpty()) {
            ObjectNode perOp = root.putObject("perOp");
            for (OpSummary op : s.perOp()) {
                ObjectNode n = perOp.putObject(op.op());
                putFigures(n, op.figures());
                n.set("outcomes", counts(op.outcomes()));
                n.set("errorsByType", counts(op.errorsByType()));
                if (!op.steps().isEmpty()) { // each step's service time, in order
                    ArrayNode steps = n.putArray("steps");
                    op.steps().forEach(l -> steps.add(latency(l)));
                }
            }
        }
        ArrayNode phases = root.putArray("phases");
        for (PhaseSummary p : s.phases()) {
            putFigures(phases.addObject().put("name", p.name()).put("warmup", p.warmup()), p.figures());
        }
        if (s.knee() != null) {
            Knee k = s.knee();
            ObjectNode knee = root.putObject("knee").put("slo", k.slo()).put("status", k.status());
            putNumber(knee, "rate", k.rate());
            if (k.atKnee() != null) {
                putFigures(knee.putObject("atKnee"), k.atKnee());
            }
            ArrayNode probes = knee.putArray("probes");
            for (Knee.Probe p : k.probes()) {
                putFigures(probes.addObject().put("rate", p.rate()).put("startSeconds", p.startSec())
                        .put("judgedSeconds", p.judgedSec()).put("passed", p.passed()).put("why", p.why()),
                                p.figures());
            }
        }
        if (s.limiter() != null) {
            LimiterSnapshot l = s.limiter();
            // at the run's end: allocated = granted schedule + idle + reserved (see LimiterSnapshot)
            root.putObject("limiter").put("design", l.design()).put("rate", l.spec().opsPerSecond()).put("strictness",
                    l.spec().strictness())
                    .put("allocatedNanos", l.allocatedNanos()).put("idleNanos", l.idleNanos())
                    .put("reservedNanos", l.reservedNanos()).put("permitsGranted", l.permitsGranted())
                    .put("totalWaitNanos", l.totalWaitNanos()).put("lagNanos", l.lagNanos())
                    .put("refusals", l.refusals());
        }
        root.put("stopReason", s.stopReason().label());
        root.put("stoppedBy", s.stoppedBy());
        root.put("passed", s.passed());
        if (s.failure() == null) {
            root.putNull("failure");
        } else {
            root.put("failure", s.failure());
        }
        return root;
    }

    /**
     * Writes the summary, replacing a regular file atomically (a reader never sees half of it) and writing into a
     * device or a pipe: see {@link OutputFile#replace}.
     */
    public static void write(Summary s, Path file) throws IOException {
        OutputFile.replace(file, Json.PRETTY.writeValueAsBytes(toJson(s)));
    }

    /** {@code ops, errors, targetRate, achievedRate, durationSeconds, wait, service, response}. */
    private static void putFigures(ObjectNode n, RunFigures f) {
        n.put("ops", f.ops()).put("errors", f.errors());
        putNumber(n, "targetRate", f.targetRate());
        n.put("achievedRate", f.achievedRate()).put("durationSeconds", f.durationSeconds());
        for (Metric m : Metric.values()) {
            n.set(m.tag(), latency(f.latencies().get(m)));
        }
    }

    /** One latency summary as JSON: {@code count, mean, min, max, percentiles} (ns). */
    public static ObjectNode latency(LatencySummary l) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("count", l.count()).put("mean", l.mean()).put("min", l.min()).put("max", l.max());
        ObjectNode p = n.putObject("percentiles");
        l.percentiles().forEach(p::put);
        return n;
    }

    private static ObjectNode counts(Map<String, Long> counts) {
        ObjectNode n = Json.MAPPER.createObjectNode();
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
