package dev.pacer.ratelimit.api;

/**
 * A {@link Sleeper} that wakes a caller at most once per tick: a caller early by any amount parks for at
 * least the tick, so when it wakes every slot that fell due meanwhile goes at once, each late by what it
 * waited. Nothing is granted early (no park threshold), so a slot's wait is never hidden; the price is a
 * wait of up to about a tick per op, and the gain one wake-up per tick per caller instead of one per slot
 * (or per park threshold's worth of slots).
 *
 * <p>This is how wrk2 paces (an event loop on millisecond timers): at a tick of 1 ms a caller at 40 000
 * slots/s wakes 1 000 times a second and takes about 40 slots each time, where the {@link ParkingSleeper}
 * alone wakes it every park threshold (about 0.1 ms on a VM). Each wake-up costs a context switch and the
 * system calls around it, so CPU per op falls with the tick; the waits show what it cost in timing.
 *
 * <p>A rate change's {@link #wake} goes to the base sleeper at once: the woken caller asks the limiter again
 * and parks a tick more if its (new) slot is still ahead.
 */
public final class TickSleeper implements Sleeper {

    private final Sleeper base;
    private final long tickNanos;

    /**
     * @param base      parks the thread (its threshold and overshoot are not used)
     * @param tickNanos the shortest park, above 0
     */
    public TickSleeper(Sleeper base, long tickNanos) {
        if (tickNanos <= 0) {
            throw new IllegalArgumentException("tick must be above 0 ns, got " + tickNanos);
        }
        this.base = java.util.Objects.requireNonNull(base, "base");
        this.tickNanos = tickNanos;
    }

    /** Parks for {@code nanos}, or for the tick if that is longer. */
    @Override
    public void park(long nanos) {
        base.park(Math.max(nanos, tickNanos));
    }

    @Override
    public void wake(Thread thread) {
        base.wake(thread);
    }

    /** 0: every early caller parks (for at least a tick); none is let through early. */
    @Override
    public long parkThresholdNanos() {
        return 0;
    }

    /** 0: a park of at least a tick is not shortened; what it oversleeps is wait, recorded. */
    @Override
    public long parkOvershootNanos() {
        return 0;
    }

    @Override
    public String toString() {
        return "TickSleeper[tick=" + tickNanos + "ns, " + base + "]";
    }
}
