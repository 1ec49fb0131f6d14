package dev.pacer.ratelimit.api;

/**
 * A design's options that cannot be used at one particular rate (a bucket that would take a century to refill at
 * it, a log too long for it), as opposed to options that are wrong at every rate. {@code LimiterDesign.parse}
 * checks options at 1 op/s and lets these pass; they are judged at the run's own rates
 * ({@code LimiterDesign.check}) before anything runs.
 */
public final class RateOutOfReachException extends IllegalArgumentException {

    public RateOutOfReachException(String message) {
        super(message);
    }
}
