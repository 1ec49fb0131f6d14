package dev.pacer.ratelimit.atomic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The limiter's shared fields, laid out JCTools-style, each alone between 128-byte pads: the contended
 * schedule pointer, the published clock (written rarely) and the settings (read on every acquire, written
 * only by control), so a write to one never takes the others' line from their readers. The hierarchy, in
 * layout order: {@link LimiterPad0}, {@link LimiterAllocated}, {@link LimiterPad1},
 * {@link LimiterClockView}, {@link LimiterPad2}, {@link LimiterConfig}, then this class (the last pad),
 * which {@link LockFreeRateLimiter} extends. Its {@code idle} and {@code burstNext} are
 * {@link PaddedAtomicLong}s, on lines of their own too.
 *
 * <h2>Accessors</h2>
 * Each field is read and written through an accessor named by its memory mode, declared next to the
 * field: {@code lv} volatile load, {@code sv} volatile store, {@code so} release (ordered) store,
 * {@code cas} compare-and-set, {@code cae} compare-and-exchange (returns the witness),
 * {@code getAndAdd} atomic add. The accessors are {@code final} and a few bytecodes long, so the JIT
 * inlines them and a use costs what the raw field or VarHandle access costs (the {@link LimiterCounters}
 * checks in them are constant-folded away unless counting is on). The fields themselves are
 * package-private only so a test can stage a race by storing one directly; the limiter goes through the
 * accessors.
 *
 * <h2>Shared fields</h2>
 * <table>
 *   <caption>who writes what</caption>
 *   <tr><th>field</th><th>writers, operation</th><th>readers may assume</th></tr>
 *   <tr><td>{@code allocated}</td><td>a caller claiming a slot or a run of 2..64 slices:
 *       {@link LimiterAllocated#getAndAddAllocated} (a thread far behind: once per run); strict
 *       grants and compensation: {@link LimiterAllocated#caeAllocated}, a loser retrying from the witness;
 *       tryAcquire: {@link LimiterAllocated#casAllocated}; reconfigure/resume: {@code getAndAdd(shift)}; a
 *       grant giving back the unused tail of its run: {@link LimiterAllocated#casAllocated} from the run's
 *       end to its next slot, only while that end is still the value (nothing claimed since) and no rewind
 *       has begun since the run's claim (a rewind landing between that check and the CAS, followed by claims up to
 *       exactly the run's end, could still double a slot: documented in {@code abandonRun}); a rewinding reconfigure
 * (rate increase with waiters ahead), under
 *       the control lock: {@link LimiterAllocated#caeAllocated} back to the rewind's point, retrying from
 *       the witness</td>
 *       <td>grows, but for a give-back, which only frees slots no one else holds, and a rewind; slots below
 *       it are claimed, each value returned by an add or a winning CAS starts slots owned by exactly one
 *       caller, or, for a slot at or after a rewind's point claimed before it, stale (its owner gives it
 *       back as idle time)</td></tr>
 *   <tr><td>{@code horizon}</td><td>a caller (or control: reconfigure, pause, resume) that read the clock
 *       on a slow path, in a fast-path mode:
 *       {@link LimiterClockView#casHorizon} from the value it read, only if that is at least the staleness
 *       target older than its reading (one winner per election; never on the fast path); the constructor:
 *       MIN; reconfigure to a mode without the fast path: {@link LimiterClockView#soHorizon} MIN</td>
 *       <td>every value ever stored is MIN or a real clock reading (a single field: nothing to tear), so a
 *       slot ≤ horizon is truly late; it only grows between resets, but may be older than a grant's own
 *       clock, so a caller starts at the later of the two</td></tr>
 *   <tr><td>{@code settings}</td><td>reconfigure/pause/resume under the limiter's control lock:
 *       {@link LimiterConfig#svSettings} of a new immutable {@link LimiterSettings}</td>
 *       <td>one consistent configuration per read; its line is written by nothing else, so the read every
 *       acquire makes hits its own cache</td></tr>
 * </table>
 */
abstract class LimiterFields extends LimiterConfig {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

abstract class LimiterPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

abstract class LimiterAllocated extends LimiterPad0 {

    private static final VarHandle ALLOCATED;

    static {
        try {
            ALLOCATED = MethodHandles.lookup().findVarHandle(LimiterAllocated.class, "allocated", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The schedule pointer, in units since origin: the next free slot. */
    volatile long allocated;

    /** Volatile load of the schedule pointer. */
    final long lvAllocated() {
        return allocated;
    }

    /** Atomically adds {@code delta} to the schedule pointer; returns the value before (the slot claimed). */
    final long getAndAddAllocated(long delta) {
        if (LimiterCounters.ON) {
            LimiterCounters.ADDS.increment();
        }
        return (long) ALLOCATED.getAndAdd(this, delta);
    }

    /** Atomically sets the schedule pointer to {@code update} if it is {@code expect}. */
    final boolean casAllocated(long expect, long update) {
        if (LimiterCounters.ON) {
            LimiterCounters.ADDS.increment();
        }
        return ALLOCATED.compareAndSet(this, expect, update);
    }

    /**
     * Atomically sets the schedule pointer to {@code update} if it is {@code expect}; returns the value it
     * held (the witness: {@code expect} if this call won), so a loser retries without another load.
     */
    final long caeAllocated(long expect, long update) {
        if (LimiterCounters.ON) {
            LimiterCounters.ADDS.increment();
        }
        return (long) ALLOCATED.compareAndExchange(this, expect, update);
    }
}

abstract class LimiterPad1 extends LimiterAllocated {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class LimiterClockView extends LimiterPad1 {

    private static final VarHandle HORIZON;

    static {
        try {
            HORIZON = MethodHandles.lookup().findVarHandle(LimiterClockView.class, "horizon", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A clock reading (units) published by an elected reader: slots at or below it are known to be late. */
    volatile long horizon;

    /** Volatile load of the horizon. */
    final long lvHorizon() {
        return horizon;
    }

    /** Release store of the horizon (reconfigure: fast path off). */
    final void soHorizon(long units) {
        HORIZON.setRelease(this, units);
    }

    /** Volatile store of the horizon (the constructor). */
    final void svHorizon(long units) {
        horizon = units;
    }

    /** Publishes {@code units} if the horizon still is {@code expect}: the one winner of an election. */
    final boolean casHorizon(long expect, long units) {
        boolean won = HORIZON.compareAndSet(this, expect, units);
        if (won && LimiterCounters.ON) {
            LimiterCounters.PUBLISHES.increment();
        }
        return won;
    }
}

abstract class LimiterPad2 extends LimiterClockView {
    long p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
}

abstract class LimiterConfig extends LimiterPad2 {

    /** The configuration in force; replaced whole under the control lock. */
    volatile LimiterSettings settings;

    /** Volatile load of the settings in force. */
    final LimiterSettings lvSettings() {
        return settings;
    }

    /** Volatile store of new settings (under the control lock). */
    final void svSettings(LimiterSettings s) {
        settings = s;
    }
}
