package dev.pacer.engine.run;

/**
 * What the target asked for over time: the integral of the target rate, with paused time counting as
 * none. An interval's target is then the ops the schedule called for in it, however often the rate
 * changed inside it (a ramp retunes it every 10 ms, a user may type {@code rate 2000} mid-interval);
 * sampling the rate at the interval's end would credit the whole interval with the last value.
 *
 * <p>Threading: changes come from the {@link Activity}'s control methods, cuts from the reporter
 * thread; every method is synchronized (a few calls per interval and per change, never per op).
 */
public final class TargetLedger {

    /**
     * The target over a span: the ops it asked for, the paced seconds (a rate was set, paused or not),
     * and the lowest and highest rate in force.
     */
    public record Target(double ops, double pacedSeconds, double minRate, double maxRate) {

        /** Nothing paced. */
        public static final Target NONE = new Target(0, 0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);

        /** The two spans together. */
        public Target plus(Target other) {
            return new Target(ops + other.ops, pacedSeconds + other.pacedSeconds, Math.min(minRate, other.minRate),
                    Math.max(maxRate, other.maxRate));
        }

        /** Mean target rate over the paced time (exactly the rate when it never changed), or NaN if unpaced. */
        public double rate() {
            if (pacedSeconds <= 0) {
                return Double.NaN;
            }
            return minRate == maxRate ? minRate : ops / pacedSeconds;
        }
    }

    /** The rate set, in ops/s; NaN while unpaced. */
    private double rate = Double.NaN;
    private boolean paused;
    /** Monotonic time up to which {@link #ops} and {@link #pacedNanos} are summed. */
    private long since;
    private double ops;
    private long pacedNanos;
    /** Since the last cut. */
    private double opsAtCut;
    private long pacedAtCut;
    private double minRate = Double.POSITIVE_INFINITY;
    private double maxRate = Double.NEGATIVE_INFINITY;

    /** The run starts at {@code now} with {@code rate} ops/s (NaN: unpaced). */
    public synchronized void start(long now, double rate) {
        this.since = now;
        this.rate = rate;
    }

    /** From {@code now} the target is {@code rate} ops/s. */
    public synchronized void setRate(long now, double rate) {
        advance(now);
        this.rate = rate;
    }

    /** From {@code now} the run is paused (the target asks for nothing) or resumed. */
    public synchronized void setPaused(long now, boolean paused) {
        advance(now);
        this.paused = paused;
    }

    /** The target since the previous cut (or the start), up to {@code now}. */
    public synchronized Target cut(long now) {
        advance(now);
        Target t = pacedNanos == pacedAtCut ? Target.NONE
                : new Target(ops - opsAtCut, (pacedNanos - pacedAtCut) / 1e9, minRate, maxRate);
        opsAtCut = ops;
        pacedAtCut = pacedNanos;
        minRate = Double.POSITIVE_INFINITY;
        maxRate = Double.NEGATIVE_INFINITY;
        return t;
    }

    private void advance(long now) {
        long dt = now - since;
        if (dt <= 0) {
            return;
        }
        if (!Double.isNaN(rate)) {
            double r = paused ? 0 : rate;
            ops += r * dt / 1e9;
            pacedNanos += dt;
            minRate = Math.min(minRate, r);
            maxRate = Math.max(maxRate, r);
        }
        since = now;
    }
}
