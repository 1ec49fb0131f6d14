package dev.pacer.engine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A load run: the activity plus how it is reported and judged.
 *
 * @param activity      what to run
 * @param interval      reporting interval: progress lines and .hlog intervals
 * @param hlog          interval histogram log to write, or null
 * @param summaryJson   JSON summary to write, or null
 * @param progress      print a progress line every interval
 * @param thresholds    pass/fail gates
 * @param maxErrorRatio the run fails when errors / ops exceeds this
 */
public record RunOptions(ActivityConfig activity, Duration interval, Path hlog, Path summaryJson, boolean progress,
                         List<Threshold> thresholds, double maxErrorRatio) {

    /** Errors may be at most 1 % of ops by default. */
    public static final double DEFAULT_MAX_ERROR_RATIO = 0.01;

    public RunOptions {
        Objects.requireNonNull(activity, "activity");
        Objects.requireNonNull(interval, "interval");
        if (interval.toMillis() < 10) {
            throw new IllegalArgumentException("invalid --interval '" + Durations.format(interval) + "': must be at least 10ms");
        }
        thresholds = List.copyOf(thresholds);
        if (!(maxErrorRatio >= 0 && maxErrorRatio <= 1)) {
            throw new IllegalArgumentException("invalid --max-error-ratio '" + maxErrorRatio + "': must be between 0 and 1");
        }
    }

    public static RunOptions of(ActivityConfig activity) {
        return new RunOptions(activity, Duration.ofSeconds(1), null, null, false, List.of(), DEFAULT_MAX_ERROR_RATIO);
    }
}
