package dev.pacer.ratelimit.atomic;

import dev.pacer.ratelimit.api.Grant;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The mutable state behind an {@link AtomicGrant}, kept in its own object so the limiter's registry can
 * hold it strongly while holding the grant weakly (a dropped grant is folded in, not leaked).
 *
 * <p>Single writer: the thread using the grant. {@link #permits} and {@link #waitSum} are written with
 * opaque stores so the limiter's {@code snapshot()} (another thread) reads each as a whole, recent
 * value with opaque loads; the run and clock fields are plain, the run fields read by other threads only after the
 * owner is gone or closed. A {@code snapshot()} taken while the owner claims runs reads {@code runNext} and
 * {@code runEnd} racily and may pair fields of two runs: its {@code reserved} figure is then off by up
 * to the distance between them; once the grants are closed it is exact.
 */
final class GrantState {

    private static final VarHandle PERMITS;
    private static final VarHandle WAIT_SUM;
    private static final VarHandle IDLE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PERMITS = l.findVarHandle(GrantState.class, "permits", long.class);
            WAIT_SUM = l.findVarHandle(GrantState.class, "waitSum", long.class);
            IDLE = l.findVarHandle(GrantState.class, "idleUnits", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Next pre-claimed slot (units); the run is {@code [runNext, runEnd)} in steps of the run's slice. */
    long runNext;
    long runEnd;
    /** The settings the run was claimed under; a run is only used while they are still in force. */
    LimiterSettings runSettings;
    /** The last grant was far enough behind schedule for the next claim to be a run. */
    boolean wantRun;
    /**
     * The grant's clock: its latest reading (units), {@link Long#MIN_VALUE} before the first. Slots at or
     * before it go at once, and start at it (or at the handed-over {@link #hintUnits}, if later).
     */
    long clockUnits = Long.MIN_VALUE;
    /** When the grant's clock was last refreshed on schedule (units); MIN before the first. */
    long refreshedUnits = Long.MIN_VALUE;
    /** Acquires one refresh of the clock serves (1 .. {@code MAX_REFRESH}), adapted to this caller's pace. */
    int refreshEvery = 1;
    /** Acquires left before the next refresh; the one that takes it below 0 refreshes. */
    int refreshLeft;
    /** Slices the next run claim takes: doubled per consecutive claim while far behind, back to the first after. */
    int runLen = FIRST_RUN;
    /** The first run's length. */
    static final int FIRST_RUN = 2;
    /**
     * A clock reading the caller handed over ({@link Grant#sawClock}), in units; {@link Long#MIN_VALUE} if none
     * (0 is a reading: the origin's, which for a process started after its test's instant lies in the past).
     */
    long hintUnits = Long.MIN_VALUE;
    /**
     * The owner while it is parked waiting for a slot, else null: the owner writes it (volatile) before its last
     * check of the settings and clears it after the wait; a rescheduling reconfigure reads it (volatile) after
     * publishing its settings and wakes the thread, so a waiter either sees the new settings or is woken.
     */
    volatile Thread parked;
    /** The owner is in a reschedule (a rewind took its slot back), which takes the new slots; owner only. */
    boolean rescheduling;
    /** Set by close(); a closed grant is refused, so its tallies cannot escape the totals. */
    boolean closed;

    /** This grant's own generator for Poisson gaps (SplitMix64 state); owner only, plain. */
    long random;

    GrantState(long seed) {
        this.random = seed;
    }

    /**
     * A gap drawn from the exponential distribution with mean {@code sliceUnits}: {@code -ln(u) × slice}
     * with {@code u} uniform on (0, 1] from SplitMix64. The draw is capped at 40 means (probability
     * e<sup>-40</sup>) so it cannot overflow; at least one unit.
     */
    long drawGap(long sliceUnits) {
        long z = random += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        double u = ((z >>> 11) + 1) * 0x1.0p-53;
        double e = Math.min(40.0, -Math.log(u));
        double gap = e * sliceUnits;
        return gap >= 0x1.0p62 ? 1L << 62 : Math.max(1, Math.round(gap));
    }

    /** Permits granted; owner writes (opaque), snapshot reads (opaque). */
    long permits;
    /** Sum of waits in ns; owner writes (opaque), snapshot reads (opaque). */
    long waitSum;
    /**
     * Schedule this grant's strict acquires gave away (their lateness), in units, not yet in the limiter's
     * {@code idle}: owner writes (opaque), snapshot reads (opaque); moved into {@code idle} once, when the grant
     * is folded. Kept here so a strict acquire touches one shared line (the schedule), not two.
     */
    long idleUnits;

    void tally(long granted, long waitNanos) {
        PERMITS.setOpaque(this, permits + granted);
        WAIT_SUM.setOpaque(this, waitSum + waitNanos);
    }

    /** Gives {@code units} of schedule away as idle time, on this grant's tally (owner only). */
    void forfeit(long units) {
        IDLE.setOpaque(this, idleUnits + units);
    }

    long idleOpaque() {
        return (long) IDLE.getOpaque(this);
    }

    long permitsOpaque() {
        return (long) PERMITS.getOpaque(this);
    }

    long waitSumOpaque() {
        return (long) WAIT_SUM.getOpaque(this);
    }

    /** Units claimed but not yet used. */
    long reservedUnits() {
        long r = runEnd - runNext;
        return r > 0 ? r : 0;
    }
}
