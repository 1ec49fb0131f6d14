package dev.pacer.ratelimit;

/**
 * A {@link Sleeper} for deterministic tests: a park advances a {@link ManualNanoClock} by exactly the
 * requested time and returns. Meant for single-threaded tests; with several threads, parks from
 * different threads all move the one shared clock.
 */
public final class ManualSleeper implements Sleeper {

    private final ManualNanoClock clock;
    private final long thresholdNanos;
    private final long overshootNanos;

    /** A sleeper with no park threshold and no overshoot: every early caller sleeps exactly its delay. */
    public ManualSleeper(ManualNanoClock clock) {
        this(clock, 0, 0);
    }

    /**
     * A sleeper that pretends parks cost something: callers early by less than {@code thresholdNanos}
     * go at once, longer parks are shortened by {@code overshootNanos} (and last exactly what is asked).
     */
    public ManualSleeper(ManualNanoClock clock, long thresholdNanos, long overshootNanos) {
        this.clock = clock;
        this.thresholdNanos = thresholdNanos;
        this.overshootNanos = overshootNanos;
    }

    @Override
    public void park(long nanos) {
        clock.advance(Math.max(0, nanos));
    }

    @Override
    public long parkThresholdNanos() {
        return thresholdNanos;
    }

    @Override
    public long parkOvershootNanos() {
        return overshootNanos;
    }
}
