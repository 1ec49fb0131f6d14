package dev.pacer.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.sink.SummaryJson;
import dev.pacer.engine.text.Json;

/**
 * {@code pacer report --json}: {@code files, startTime, from, to, durationSeconds, ops, rate},
 * then per tag the same shape as the run summary's ({@code count, mean, min, max, percentiles}, ns),
 * the series ({@code intervals}: start, end, ops, rate, and from the log's notes target, errors by
 * type, phase, warm-up and drain; per tag p50, p90, p99 and max) and the {@code changes}. The run's
 * {@code settings} and measured {@code errors} (warm-up left out, as in the totals) come first. A workload's
 * log adds {@code perOp}: per named op its {@code ops, rate, errors} (null when not noted) and its
 * {@code wait, service, response} as the totals'; and each interval's {@code perOp}: per op its
 * {@code ops}, {@code errors} (when noted) and p50, p90, p99 and max per metric.
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
        ObjectNode settings = root.putObject("settings");
        r.settings().forEach(settings::put);
        ObjectNode errors = root.putObject("errors");
        errors.put("total", r.errorCount());
        r.errors().forEach(errors::put);
        r.summaries().forEach((tag, l) -> root.set(tag, SummaryJson.latency(l)));
        if (!r.perOp().isEmpty()) {
            ObjectNode perOp = root.putObject("perOp");
            for (Report.OpFigures op : r.perOp()) {
                ObjectNode n = perOp.putObject(op.op()).put("ops", op.ops()).put("rate", op.rate());
                if (op.errors() == null) {
                    n.putNull("errors");
                } else {
                    n.put("errors", op.errors());
                }
                op.latencies().forEach((m, l) -> n.set(m.tag(), SummaryJson.latency(l)));
            }
        }
        ArrayNode series = root.putArray("intervals");
        for (Report.Point p : r.points()) {
            ObjectNode n = series.addObject().put("start", p.start()).put("end", p.end());
            long ops = p.count(r.opsTag());
            n.put("ops", ops).put("rate", p.end() > p.start() ? ops / (p.end() - p.start()) : 0);
            if (p.noted()) {
                if (!Double.isNaN(p.target())) {
                    n.put("target", p.target());
                }
                ObjectNode e = n.putObject("errors");
                p.errors().forEach(e::put);
                n.put("phase", p.phase()).put("warmup", p.warmup()).put("drain", p.drain());
            }
            ObjectNode p99 = n.putObject("p99");
            p.byTag().forEach((tag, f) -> p99.put(tag.isEmpty() ? "(untagged)" : tag, f.p99()));
            ObjectNode latency = n.putObject("latency");
            p.byTag().forEach((tag, f) -> latency.putObject(tag.isEmpty() ? "(untagged)" : tag)
                    .put("p50", f.p50()).put("p90", f.p90()).put("p99", f.p99()).put("max", f.max()));
            if (!p.byOp().isEmpty()) {
                ObjectNode perOp = n.putObject("perOp");
                p.byOp().forEach((op, byMetric) -> {
                    ObjectNode o = perOp.putObject(op).put("ops", p.opCount(op));
                    if (p.opErrors().containsKey(op)) {
                        o.put("errors", p.opErrors().get(op));
                    }
                    byMetric.forEach((tag, f) -> o.putObject(tag)
                            .put("p50", f.p50()).put("p90", f.p90()).put("p99", f.p99()).put("max", f.max()));
                });
            }
        }
        ArrayNode changes = root.putArray("changes");
        r.markers().forEach(m -> changes.addObject().put("at", m.atSec()).put("change", m.label()).put("source",
                m.source()));
        ArrayNode warnings = root.putArray("warnings");
        r.warnings().forEach(warnings::add);
        try {
            return Json.PRETTY.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
