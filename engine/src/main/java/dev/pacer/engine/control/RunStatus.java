package dev.pacer.engine.control;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.run.Activity;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.text.Json;
import dev.pacer.engine.api.Metric;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The state of a running load for {@code status}: settings now, and the figures of the last
 * completed interval. Fed by the reporter after every interval (a volatile reference to the latest
 * report), read by the console and HTTP threads.
 */
public final class RunStatus implements Consumer<IntervalReport> {

    private final Activity activity;
    private volatile IntervalReport last;

    public RunStatus(Activity activity) {
        this.activity = activity;
    }

    @Override
    public void accept(IntervalReport report) {
        last = report;
    }

    /**
     * The status as JSON: {@code targetRate}, {@code strictness}, {@code achievedRate} (last interval),
     * {@code overallRate}, {@code threads}, {@code retiringThreads} (lowered away, finishing the op whose
     * slot they hold), {@code inFlight} (asynchronous ops), {@code paused}, {@code running}, {@code ops}, {@code
     * errors},
     * {@code elapsedSeconds}, {@code phase}, and {@code interval} with the last interval's {@code ops},
     * {@code rate} and {@code wait}/{@code response} p50, p99 and max in nanoseconds.
     */
    public ObjectNode toJson() {
        ObjectNode n = Json.MAPPER.createObjectNode();
        RateSpec rate = activity.rate();
        IntervalReport r = last;
        if (rate == null) {
            n.putNull("targetRate");
            n.putNull("strictness");
        } else {
            n.put("targetRate", rate.opsPerSecond());
            n.put("strictness", rate.strictness());
        }
        n.put("achievedRate", r == null ? 0 : r.rate());
        n.put("overallRate", r == null ? 0 : r.overallRate());
        n.put("threads", activity.threads());
        n.put("retiringThreads", activity.retiringThreads());
        n.put("inFlight", activity.inFlight());
        n.put("paused", activity.isPaused());
        n.put("running", activity.isRunning());
        n.put("ops", r == null ? 0 : r.totalOps());
        n.put("errors", r == null ? 0 : r.totalErrors());
        n.put("elapsedSeconds", r == null ? 0 : r.elapsedSec());
        if (r == null || r.phase() == null) {
            n.putNull("phase");
        } else {
            n.put("phase", r.phase());
        }
        ObjectNode interval = n.putObject("interval");
        interval.put("ops", r == null ? 0 : r.stats().ops());
        interval.put("errors", r == null ? 0 : r.stats().errors());
        interval.put("rate", r == null ? 0 : r.rate());
        for (Metric m : new Metric[] {Metric.WAIT, Metric.RESPONSE}) {
            ObjectNode h = interval.putObject(m.tag());
            Histogram hist = r == null ? null : r.stats().histogram(m);
            boolean empty = hist == null || hist.getTotalCount() == 0;
            h.put("p50", empty ? 0 : hist.getValueAtPercentile(50));
            h.put("p99", empty ? 0 : hist.getValueAtPercentile(99));
            h.put("max", empty ? 0 : hist.getMaxValue());
        }
        return n;
    }

    /** One line for the console. */
    public String describe() {
        ObjectNode s = toJson();
        ObjectNode i = (ObjectNode) s.get("interval");
        return String.format("status: target %s, strictness %s, threads %d%s, last interval %.1f ops/s, wait p99 %s, "
                        + "response p99 %s; overall %.1f ops/s, %d ops, %d errors",
                s.get("targetRate").isNull() ? "unpaced" : s.get("targetRate").asText(),
                s.get("strictness").isNull() ? "-" : s.get("strictness").asText(), s.get("threads").asInt(),
                s.get("paused").asBoolean() ? ", paused" : "", i.get("rate").asDouble(),
                dev.pacer.engine.api.Durations.format(i.get("wait").get("p99").asDouble()),
                dev.pacer.engine.api.Durations.format(i.get("response").get("p99").asDouble()),
                s.get("overallRate").asDouble(), s.get("ops").asLong(), s.get("errors").asLong());
    }
}
