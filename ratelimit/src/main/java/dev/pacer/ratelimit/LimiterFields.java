package dev.pacer.ratelimit;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The limiter's shared fields, laid out JCTools-style: the contended schedule pointer sits alone
 * between 128-byte pads, so its cache line does not carry the read-mostly clock view and settings
 * that every acquirer reads. The hierarchy, in layout order: {@link LimiterPad0},
 * {@link LimiterAllocated}, {@link LimiterPad1}, {@link LimiterClockView}, then this class (the last
 * pad), which {@link LockFreeRateLimiter} extends.
 *
 * <h2>Accessors</h2>
 * Each field is read and written through an accessor named by its memory mode, declared next to the
 * field: {@code lv} volatile load, {@code sv} volatile store, {@code so} release (ordered) store,
 * {@code lp}/{@code sp} plain load/store, {@code cas} compare-and-set, {@code getAndAdd} atomic add.
 * The accessors are {@code final} and a few bytecodes long, so the JIT inlines them and a use costs
 * what the raw field or VarHandle access costs. The fields themselves are package-private only so a
 * test can stage a race by storing one directly; the limiter goes through the accessors.
 *
 * <h2>Shared fields</h2>
 * <table>
 *   <caption>who writes what</caption>
 *   <tr><th>field</th><th>writers, operation</th><th>readers may assume</th></tr>
 *   <tr><td>{@code allocated}</td><td>every acquirer: {@link LimiterAllocated#getAndAddAllocated}
 *       (strict: {@link LimiterAllocated#casAllocated}); compensation: CAS; reconfigure/resume:
 *       {@code getAndAdd(shift)}</td>
 *       <td>only grows; each returned value is a slot owned by exactly one caller</td></tr>
 *   <tr><td>{@code seen}</td><td>clock readers: {@link LimiterClockView#soSeen}, only if larger than the
 *       value they read (racy check-then-store: a slower reader may lower it again; benign)</td>
 *       <td>some caller read the clock at or after this time</td></tr>
 *   <tr><td>{@code horizon}</td><td>clock readers in fast-path modes: {@link LimiterClockView#soHorizon}
 *       after {@code seen}; the constructor and reconfigure: MIN (no reading published yet, the fast path off)</td>
 *       <td>every value ever stored was ≤ a real clock reading, so a slot ≤ horizon is truly late, in
 *       whatever order stores land</td></tr>
 *   <tr><td>{@code seenAllocated}, {@code window}</td><td>clock readers:
 *       {@link LimiterClockView#soSeenAllocated} / {@link LimiterClockView#spWindow}</td>
 *       <td>a recent {@code allocated} and window; only used to size the next window, so a stale or
 *       torn-between-fields pair only resizes it</td></tr>
 *   <tr><td>{@code settings}</td><td>reconfigure/pause/resume under the limiter's control lock:
 *       {@link LimiterClockView#svSettings} of a new immutable {@link LimiterSettings}</td>
 *       <td>one consistent configuration per read</td></tr>
 * </table>
 */
abstract class LimiterFields extends LimiterClockView {
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
}

abstract class LimiterPad1 extends LimiterAllocated {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class LimiterClockView extends LimiterPad1 {

    private static final VarHandle SEEN;
    private static final VarHandle HORIZON;
    private static final VarHandle SEEN_ALLOCATED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SEEN = l.findVarHandle(LimiterClockView.class, "seen", long.class);
            HORIZON = l.findVarHandle(LimiterClockView.class, "horizon", long.class);
            SEEN_ALLOCATED = l.findVarHandle(LimiterClockView.class, "seenAllocated", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Slots at or below this are known to be late (units). */
    volatile long horizon;
    /** Latest published clock reading (units). */
    volatile long seen;
    /** {@code allocated} at the latest published reading, for sizing the fast-path window. */
    volatile long seenAllocated;
    /** The latest fast-path window (units); a racy value only resizes the next window. */
    long window;
    /** The configuration in force; replaced whole under the control lock. */
    volatile LimiterSettings settings;

    /** Volatile load of the horizon. */
    final long lvHorizon() {
        return horizon;
    }

    /** Release store of the horizon. */
    final void soHorizon(long units) {
        HORIZON.setRelease(this, units);
    }

    /** Volatile store of the horizon. */
    final void svHorizon(long units) {
        horizon = units;
    }

    /** Volatile load of the latest published clock reading. */
    final long lvSeen() {
        return seen;
    }

    /** Release store of a clock reading. */
    final void soSeen(long units) {
        SEEN.setRelease(this, units);
    }

    /** Volatile load of the schedule pointer as of the latest published reading. */
    final long lvSeenAllocated() {
        return seenAllocated;
    }

    /** Release store of the schedule pointer that goes with a published reading. */
    final void soSeenAllocated(long units) {
        SEEN_ALLOCATED.setRelease(this, units);
    }

    /** Plain load of the fast-path window. */
    final long lpWindow() {
        return window;
    }

    /** Plain store of the fast-path window. */
    final void spWindow(long units) {
        window = units;
    }

    /** Volatile load of the settings in force. */
    final LimiterSettings lvSettings() {
        return settings;
    }

    /** Volatile store of new settings (under the control lock). */
    final void svSettings(LimiterSettings s) {
        settings = s;
    }
}
