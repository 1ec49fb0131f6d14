package dev.pacer.engine.workload;

/**
 * The random numbers of one binding in one cycle: a SplitMix64 stream whose start is a hash of the binding's
 * salt (seed and name) and the global cycle, so a value depends on nothing else (not the thread, the shard or
 * the time). Integer arithmetic only: every JVM gives the same numbers.
 *
 * <p>Not thread-safe: a caller makes one per evaluation (it is a local: escape analysis keeps it off the
 * heap) or keeps one per thread and calls {@link #start} for each evaluation.
 */
final class CycleRandom {

    static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** 2^-53: a 53-bit integer times this is a double in [0, 1). */
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private long state;

    CycleRandom() {
    }

    CycleRandom(long salt, long cycle) {
        start(salt, cycle);
    }

    /** Starts the stream for (salt, cycle); returns this. */
    CycleRandom start(long salt, long cycle) {
        state = mix(salt ^ mix(cycle + GOLDEN));
        return this;
    }

    /** SplitMix64's finalizer (Stafford's variant 13): a bijection of 64-bit values that mixes every bit. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A binding's salt: the seed and its name, so two bindings over one cycle are independent. */
    static long salt(long seed, String name) {
        long h = mix(seed);
        for (int i = 0; i < name.length(); i++) {
            h = mix(h ^ name.charAt(i));
        }
        return h;
    }

    long nextLong() {
        return mix(state += GOLDEN);
    }

    /** Uniform in [0, 1) with 53 bits. */
    double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    /**
     * Uniform in [0, n) for n ≥ 1 taken as unsigned (0 means 2^64: every long), exact: Lemire's multiply-high
     * method with rejection of the biased low part.
     */
    long nextBelow(long n) {
        long x = nextLong();
        if (n == 0) {
            return x;
        }
        long low = x * n;
        if (Long.compareUnsigned(low, n) < 0) {
            long threshold = Long.remainderUnsigned(-n, n);
            while (Long.compareUnsigned(low, threshold) < 0) {
                x = nextLong();
                low = x * n;
            }
        }
        return Math.unsignedMultiplyHigh(x, n);
    }

    /** Uniform in [lo, hi], inclusive, exact over the whole range. */
    long between(long lo, long hi) {
        return lo + nextBelow(hi - lo + 1);
    }
}
