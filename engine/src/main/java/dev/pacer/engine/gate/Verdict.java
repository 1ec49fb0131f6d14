package dev.pacer.engine.gate;

import dev.pacer.engine.api.Threshold;

import dev.pacer.engine.api.RunFigures;
import dev.pacer.engine.api.ThresholdResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a run passed: every gate evaluated, and the error ratio against its allowance.
 *
 * @param thresholds each gate and how it fared, in the order given
 * @param failure    why the run failed (error ratio, failed gates), or null when it passed
 */
public record Verdict(List<ThresholdResult> thresholds, String failure) {

    public Verdict {
        thresholds = List.copyOf(thresholds);
    }

    /** Judges {@code figures} by {@code gates} and the allowed error ratio. */
    public static Verdict judge(RunFigures figures, List<Threshold> gates, double maxErrorRatio) {
        List<ThresholdResult> results = new ArrayList<>();
        for (Threshold t : gates) {
            results.add(t.evaluate(figures));
        }
        List<String> why = new ArrayList<>();
        if (figures.errorRatio() > maxErrorRatio) {
            why.add(String.format(Locale.ROOT, "error ratio %.4f is over the %s allowed (max-error-ratio)",
                    figures.errorRatio(), maxErrorRatio));
        }
        long failed = results.stream().filter(r -> !r.passed()).count();
        if (failed > 0) {
            why.add(failed + " threshold" + (failed > 1 ? "s" : "") + " failed");
        }
        return new Verdict(results, why.isEmpty() ? null : String.join("; ", why));
    }

    public boolean passed() {
        return failure == null;
    }
}
