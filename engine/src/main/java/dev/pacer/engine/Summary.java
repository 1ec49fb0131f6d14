package dev.pacer.engine;

import dev.pacer.engine.metrics.LatencySummary;
import dev.pacer.engine.metrics.Metric;
import java.util.List;
import java.util.Map;

/**
 * A finished run, as the end summary, the JSON file and the threshold gates see it. Warm-up phases
 * are left out of the top-level figures (they appear under {@link #phases()}).
 *
 * @param op              the op spec
 * @param threads         workers at the end
 * @param virtualThreads  whether workers were virtual threads
 * @param targetRate      time-weighted target over the paced part (NaN when unpaced)
 * @param strictness      strictness at the end (NaN when unpaced)
 * @param achievedRate    ops / durationSeconds
 * @param ops             ops completed
 * @param errors          ops whose outcome was an error
 * @param outcomes        every outcome's count by label ({@code ok}, {@code 2xx}, {@code timeout}, ...)
 * @param errorsByType    the error outcomes only
 * @param durationSeconds measured time (warm-up excluded)
 * @param latencies       wait, service, response
 * @param changes         every change made while it ran
 * @param phases          per-phase figures (empty when the run had no phases)
 * @param thresholds      gates and how they fared
 * @param maxErrorRatio   the allowed error ratio
 * @param stopReason      why it stopped: {@code duration}, {@code cycles}, {@code SIGINT}, {@code control}, ...
 * @param failure         why the run failed, or null when it passed
 */
public record Summary(String op, int threads, boolean virtualThreads, double targetRate, double strictness,
                      double achievedRate, long ops, long errors, Map<String, Long> outcomes,
                      Map<String, Long> errorsByType, double durationSeconds, Map<Metric, LatencySummary> latencies,
                      List<Change> changes, List<PhaseSummary> phases, List<ThresholdResult> thresholds,
                      double maxErrorRatio, String stopReason, String failure) {

    public boolean passed() {
        return failure == null;
    }

    public double errorRatio() {
        return ops == 0 ? 0 : (double) errors / ops;
    }
}
