package dev.pacer.ratelimit.atomic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A long with {@link java.util.concurrent.atomic.AtomicLong}'s operations, alone on its cache line: 128
 * bytes of padding before and after the value (a class hierarchy, JCTools-style, so the JVM cannot
 * reorder the pads around it). The atomic limiter's {@code idle} and {@code burstNext} are these, so
 * the adds of one do not take the other's line (or a neighbouring object's) from its readers.
 */
final class PaddedAtomicLong extends PaddedLongValue {
    long q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, qa, qb, qc, qd, qe, qf;

    PaddedAtomicLong() {
    }

    PaddedAtomicLong(long initial) {
        value = initial;
    }
}

abstract class PaddedLongPad {
    long p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, pa, pb, pc, pd, pe, pf;
}

abstract class PaddedLongValue extends PaddedLongPad {

    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedLongValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    volatile long value;

    /** Volatile load. */
    final long get() {
        return value;
    }

    /** Atomic add; returns the value before. */
    final long getAndAdd(long delta) {
        return (long) VALUE.getAndAdd(this, delta);
    }

    /** Atomically sets the value to {@code update} if it is {@code expect}. */
    final boolean compareAndSet(long expect, long update) {
        return VALUE.compareAndSet(this, expect, update);
    }

    /** Atomically sets the value to {@code update} if it is {@code expect}; returns the value seen (the witness). */
    final long compareAndExchange(long expect, long update) {
        return (long) VALUE.compareAndExchange(this, expect, update);
    }
}
