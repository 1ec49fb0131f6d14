package dev.pacer.engine.api;

import dev.pacer.ratelimit.api.LimiterSnapshot;
import java.util.List;
import java.util.Map;

/**
 * A finished run, as the end summary, the JSON file and the gates see it. Warm-up phases are left out
 * of the top-level figures (they appear under {@link #phases()}).
 *
 * @param op             the op spec
 * @param threads        workers at the end
 * @param virtualThreads whether workers were virtual threads
 * @param strictness     strictness at the end (NaN when unpaced)
 * @param figures        the measured run's figures (warm-up excluded)
 * @param outcomes       every outcome's count by label ({@code ok}, {@code 2xx}, {@code timeout}, ...)
 * @param errorsByType   the error outcomes only
 * @param changes        every change made while it ran
 * @param phases         per-phase figures (empty when the run had no phases)
 * @param thresholds     gates and how they fared
 * @param maxErrorRatio  the allowed error ratio
 * @param stopReason     why it stopped
 * @param stoppedBy      who stopped it: {@code duration}, {@code cycles}, {@code signal}, {@code console},
 *                       {@code http}, {@code api}, ...
 * @param failure        why the run failed, or null when it passed
 * @param knee           what a knee search found, or null when the run had none
 * @param limiter        the limiter's accounts at the end, or null when unpaced
 * @param perOp          each named op's figures, in their order, when the op is a mix (a workload); else empty
 */
public record Summary(String op, int threads, boolean virtualThreads, double strictness, RunFigures figures,
                      Map<String, Long> outcomes, Map<String, Long> errorsByType, List<Change> changes,
                      List<PhaseSummary> phases, List<ThresholdResult> thresholds, double maxErrorRatio,
                      StopReason stopReason, String stoppedBy, String failure, Knee knee,
                      LimiterSnapshot limiter, List<OpSummary> perOp) {

    public Summary {
        perOp = List.copyOf(perOp);
    }

    public boolean passed() {
        return failure == null;
    }

    /** This summary, failed with {@code why} unless it had failed already (then its first failure stays). */
    public Summary failedWith(String why) {
        return failure != null ? this : new Summary(op, threads, virtualThreads, strictness, figures, outcomes,
                errorsByType, changes, phases, thresholds, maxErrorRatio, stopReason, stoppedBy, why, knee, limiter,
                perOp);
    }

    public long ops() {
        return figures.ops();
    }

    public long errors() {
        return figures.errors();
    }

    public double errorRatio() {
        return figures.errorRatio();
    }

    public double targetRate() {
        return figures.targetRate();
    }

    public double achievedRate() {
        return figures.achievedRate();
    }

    public double durationSeconds() {
        return figures.durationSeconds();
    }

    public Map<Metric, LatencySummary> latencies() {
        return figures.latencies();
    }
}
