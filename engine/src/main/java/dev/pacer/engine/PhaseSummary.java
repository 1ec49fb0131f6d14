package dev.pacer.engine;

import dev.pacer.engine.metrics.LatencySummary;
import dev.pacer.engine.metrics.Metric;
import java.util.Map;

/**
 * One phase of a run (a scenario phase, or the whole run when there are none).
 *
 * @param name            the phase's name
 * @param warmup          a warm-up phase: paced and logged, left out of the run's totals
 * @param ops             ops completed in the phase
 * @param errors          ops whose outcome was an error
 * @param targetRate      time-weighted target rate over the phase (NaN when unpaced)
 * @param achievedRate    ops / duration
 * @param durationSeconds how long the phase ran
 * @param latencies       wait, service and response summaries
 */
public record PhaseSummary(String name, boolean warmup, long ops, long errors, double targetRate, double achievedRate,
                           double durationSeconds, Map<Metric, LatencySummary> latencies) {
}
