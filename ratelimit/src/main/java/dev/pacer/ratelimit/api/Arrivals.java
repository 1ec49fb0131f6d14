package dev.pacer.ratelimit.api;

/**
 * How a limiter spaces the slots it hands out. Either way the rate holds on average and the schedule
 * is one atomic add per op.
 */
public enum Arrivals {
    /** Every slot one slice after the previous one: a metronome (the default). */
    UNIFORM,
    /**
     * Open traffic as it arrives: each slot's gap to the next is drawn from an exponential distribution
     * whose mean is the slice, so arrivals form a Poisson process at the target rate. Each grant draws
     * from its own generator (no shared random state). Under strictness 1 the drawn gap is the minimum
     * spacing. An acquire of several permits at once is spaced by their mean, not drawn.
     */
    POISSON;

    /** Parses {@code uniform} or {@code poisson} (any case). */
    public static Arrivals parse(String text) {
        for (Arrivals a : values()) {
            if (a.name().equalsIgnoreCase(text.strip())) {
                return a;
            }
        }
        throw new IllegalArgumentException("arrivals must be uniform or poisson, got '" + text + "'");
    }

    @Override
    public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
