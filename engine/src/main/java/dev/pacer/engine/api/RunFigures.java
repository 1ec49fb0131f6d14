package dev.pacer.engine.api;

import java.util.Map;

/**
 * What was measured over a span of a run (the whole measured run, one phase, or a window of logs):
 * the figures every gate is judged on.
 *
 * @param ops             ops completed
 * @param errors          ops whose outcome was an error
 * @param targetRate      time-weighted target over the paced part, ops/s (NaN when unpaced)
 * @param achievedRate    ops started / durationSeconds: the ops counted {@code not-sent} (their slot came, the run
 *                        ended before they could start) are in {@code ops}, not in the rate
 * @param durationSeconds measured time
 * @param latencies       wait, service and response
 */
public record RunFigures(long ops, long errors, double targetRate, double achievedRate, double durationSeconds,
                         Map<Metric, LatencySummary> latencies) {

    public RunFigures {
        latencies = Map.copyOf(latencies);
    }

    /** errors / ops, 0 when nothing ran. */
    public double errorRatio() {
        return ops == 0 ? 0 : (double) errors / ops;
    }
}
