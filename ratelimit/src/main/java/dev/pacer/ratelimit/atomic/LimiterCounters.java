package dev.pacer.ratelimit.atomic;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of the atomic limiter's shared writes and slow passes, for the scaling proxy benchmark
 * ({@code benchmarks/scaling-proxy.sh}): off unless the JVM runs with {@code -Dpacer.limiter.count=true}.
 *
 * <p>{@link #ON} is a {@code static final} constant, so when it is false the JIT removes every
 * {@code if (ON)} branch and the limiter pays nothing; the checks sit in the accessors and slow paths,
 * never in the fast path's own bytecode, so they do not change what the JIT inlines either. When on,
 * each count is a {@link LongAdder} (striped, so counting does not add a contended line of its own),
 * summed over every limiter in the JVM.
 */
public final class LimiterCounters {

    /** Whether counting is on for this JVM ({@code -Dpacer.limiter.count=true}). */
    public static final boolean ON = Boolean.getBoolean("pacer.limiter.count");

    static final LongAdder ADDS = new LongAdder();
    static final LongAdder PUBLISHES = new LongAdder();
    static final LongAdder SLOW = new LongAdder();

    private LimiterCounters() {
    }

    /** Atomic adds and CASes on the schedule pointer {@code allocated}. */
    public static long adds() {
        return ADDS.sum();
    }

    /** Clock publishes: passes that stored into the shared clock view's line. */
    public static long publishes() {
        return PUBLISHES.sum();
    }

    /** Acquires that took the slow path (read the clock to settle a slot not known to be late). */
    public static long slowPasses() {
        return SLOW.sum();
    }

    /** Sets every count to 0 (between measurements; not atomic with respect to running acquirers). */
    public static void reset() {
        ADDS.reset();
        PUBLISHES.reset();
        SLOW.reset();
    }
}
