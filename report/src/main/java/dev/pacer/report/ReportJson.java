package dev.pacer.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.sink.SummaryJson;
import dev.pacer.engine.text.Json;

/**
 * {@code pacer report --json}: {@code files, startTime, from, to, durationSeconds, ops, rate},
 * then per tag the same shape as the run summary's ({@code count, mean, min, max, percentiles}, ns),
 * the series ({@code intervals}: start, end, ops, rate, p99 per tag) and the {@code changes}.
 */
public final class ReportJson {

    private ReportJson() {
    }

    public static String format(Report r) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ArrayNode files = root.putArray("files");
        r.files().forEach(f -> files.add(f.toString()));
        root.put("startTime", r.startSec());
        root.put("from", r.from());
        root.put("to", r.to());
        root.put("durationSeconds", r.durationSeconds());
        root.put("ops", r.ops());
        root.put("rate", r.rate());
        r.summaries().forEach((tag, l) -> root.set(tag, SummaryJson.latency(l)));
        ArrayNode series = root.putArray("intervals");
        for (Report.Point p : r.points()) {
            ObjectNode n = series.addObject().put("start", p.start()).put("end", p.end());
            long ops = p.count(r.opsTag());
            n.put("ops", ops).put("rate", p.end() > p.start() ? ops / (p.end() - p.start()) : 0);
            ObjectNode p99 = n.putObject("p99");
            p.byTag().forEach((tag, f) -> p99.put(tag.isEmpty() ? "(untagged)" : tag, f.p99()));
        }
        ArrayNode changes = root.putArray("changes");
        r.markers().forEach(m -> changes.addObject().put("at", m.atSec()).put("change", m.label()).put("source", m.source()));
        ArrayNode warnings = root.putArray("warnings");
        r.warnings().forEach(warnings::add);
        try {
            return Json.PRETTY.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
