package dev.pacer.ratelimit.atomic;

import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import dev.pacer.ratelimit.api.StrictnessMode;
import java.util.concurrent.CountDownLatch;

/**
 * One immutable configuration of a {@link LockFreeRateLimiter}: the spec and every number derived
 * from it. The limiter publishes a new instance through one volatile reference on every
 * {@code reconfigure}, {@code pause} and {@code resume}; a caller reads the reference once per
 * acquire, so every grant is computed from exactly one configuration.
 */
final class LimiterSettings {

    /** Slices a thread claims at once when it is far behind (see {@link #runLagUnits}); fixed, whatever its pace. */
    static final int MAX_RUN = 64;

    final RateSpec spec;
    final StrictnessMode mode;
    /** Units per permit. */
    final long sliceUnits;
    /** Units per permit on the burst line (slice / strictness) in {@link StrictnessMode#BURST}. */
    final long burstSliceUnits;
    /** Fraction of the open gap forfeited per clock read in {@link StrictnessMode#COMPENSATING}. */
    final double compensation;
    /** Whether late callers may go on the cached clock (AVERAGE and COMPENSATING, staleness > 0). */
    final boolean fastPath;
    /** Target staleness of the cached clock, in units (each grant's refresh period is sized from it). */
    final long stalenessUnits;
    /** A caller this far behind (units) claims {@link #MAX_RUN} slices at once; MAX_VALUE disables runs. */
    final long runLagUnits;
    /** True while paused; then {@link #resumed} is the latch that resume() releases. */
    final boolean paused;
    final long pausedAtUnits;
    final CountDownLatch resumed;
    /** Slot gaps drawn from an exponential distribution (see {@link Arrivals#POISSON}); no runs then. */
    final boolean poisson;
    /**
     * How many times a rate increase has moved the schedule back to reschedule its waiters (the rewind
     * generation): a claim made under settings with a lower count that lies at or after that rewind's point is
     * stale (see {@code LockFreeRateLimiter#reconfigure}).
     */
    final int rewinds;

    private LimiterSettings(RateSpec spec, long stalenessUnits, boolean paused, long pausedAtUnits,
                            CountDownLatch resumed, boolean poisson, int rewinds) {
        this.spec = spec;
        this.rewinds = rewinds;
        this.poisson = poisson;
        this.mode = spec.mode();
        this.sliceUnits = ScheduleUnits.slice(spec.opsPerSecond());
        this.burstSliceUnits = mode == StrictnessMode.BURST
                ? Math.max(1, Math.round(sliceUnits / spec.strictness()))
                : sliceUnits;
        this.compensation = mode == StrictnessMode.COMPENSATING ? spec.strictness() : 0.0;
        this.stalenessUnits = stalenessUnits;
        this.fastPath = stalenessUnits > 0
                && (mode == StrictnessMode.AVERAGE || mode == StrictnessMode.COMPENSATING);
        this.runLagUnits = fastPath && !poisson && sliceUnits <= Long.MAX_VALUE / (4L * MAX_RUN)
                ? 4L * MAX_RUN * sliceUnits : Long.MAX_VALUE;
        this.paused = paused;
        this.pausedAtUnits = pausedAtUnits;
        this.resumed = resumed;
    }

    static LimiterSettings initial(RateSpec spec, long stalenessUnits, Arrivals arrivals) {
        return new LimiterSettings(spec, stalenessUnits, false, 0, null, arrivals == Arrivals.POISSON, 0);
    }

    LimiterSettings withSpec(RateSpec newSpec) {
        return new LimiterSettings(newSpec, stalenessUnits, paused, pausedAtUnits, resumed, poisson, rewinds);
    }

    /** These settings after one more rewind of the schedule. */
    LimiterSettings rewound() {
        return new LimiterSettings(spec, stalenessUnits, paused, pausedAtUnits, resumed, poisson, rewinds + 1);
    }

    LimiterSettings pausedAt(long nowUnits) {
        return new LimiterSettings(spec, stalenessUnits, true, nowUnits, new CountDownLatch(1), poisson, rewinds);
    }

    LimiterSettings unpaused() {
        return new LimiterSettings(spec, stalenessUnits, false, 0, null, poisson, rewinds);
    }
}
