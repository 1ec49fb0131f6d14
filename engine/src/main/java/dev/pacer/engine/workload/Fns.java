package dev.pacer.engine.workload;

import dev.pacer.engine.workload.Fn.LongFn;
import dev.pacer.engine.workload.Fn.Stage;

/**
 * The binding functions (see docs/workloads.md): sources of values and the whole-number stages after
 * {@code |}. Distributions use integer arithmetic and {@link StrictMath}, so every JVM gives the same values,
 * and are exact over their declared range (no interpolated tables).
 */
final class Fns {

    /** Cycles are assumed below this when ranges are checked for overflow (2.8·10^14: years at 10^6 ops/s). */
    static final long CYCLE_LIMIT = 1L << 48;

    private Fns() {
    }

    /** {@code seq()}: the global cycle. */
    static final class Seq extends LongFn {
        Seq(long salt) {
            super(salt, 0, CYCLE_LIMIT - 1);
        }

        @Override
        long asLong(long cycle) {
            return cycle;
        }
    }

    /** {@code uniform(lo, hi)}: each whole number in [lo, hi] equally likely. */
    static final class Uniform extends LongFn {
        Uniform(long salt, long lo, long hi) {
            super(salt, lo, hi);
        }

        @Override
        long asLong(long cycle) {
            return new CycleRandom(salt, cycle).between(lo, hi);
        }
    }

    /** {@code hash()}: a 63-bit hash of the cycle, [0, 2^63 − 1]. */
    static final class Hash extends LongFn {
        Hash(long salt) {
            super(salt, 0, Long.MAX_VALUE);
        }

        @Override
        long asLong(long cycle) {
            return CycleRandom.mix(salt ^ CycleRandom.mix(cycle + CycleRandom.GOLDEN)) >>> 1;
        }
    }

    /**
     * {@code zipf(n, s)}: k in [1, n] with probability ∝ 1/k^s (s &gt; 0), exact, by rejection-inversion
     * (Hörmann and Derflinger 1996, as in Apache Commons RNG's {@code RejectionInversionZipfSampler}), with
     * {@link StrictMath}.
     */
    static final class Zipf extends LongFn {
        private final double exponent;
        private final double hIntegralX1;
        private final double hIntegralN;
        private final double s;

        Zipf(long salt, long n, double exponent) {
            super(salt, 1, n);
            this.exponent = exponent;
            hIntegralX1 = hIntegral(1.5) - 1;
            hIntegralN = hIntegral(n + 0.5);
            s = 2 - hIntegralInverse(hIntegral(2.5) - h(2));
        }

        @Override
        long asLong(long cycle) {
            CycleRandom r = new CycleRandom(salt, cycle);
            while (true) {
                double u = hIntegralN + r.nextDouble() * (hIntegralX1 - hIntegralN);
                double x = hIntegralInverse(u);
                long k = (long) (x + 0.5);
                if (k < 1) {
                    k = 1;
                } else if (k > hi) {
                    k = hi;
                }
                if (k - x <= s || u >= hIntegral(k + 0.5) - h(k)) {
                    return k;
                }
            }
        }

        private double h(double x) {
            return StrictMath.exp(-exponent * StrictMath.log(x));
        }

        private double hIntegral(double x) {
            double logX = StrictMath.log(x);
            return helper2((1 - exponent) * logX) * logX;
        }

        private double hIntegralInverse(double x) {
            double t = x * (1 - exponent);
            if (t < -1) {
                t = -1;
            }
            return StrictMath.exp(helper1(t) * x);
        }

        /** log1p(x) / x, continuous at 0. */
        private static double helper1(double x) {
            return StrictMath.abs(x) > 1e-8 ? StrictMath.log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
        }

        /** expm1(x) / x, continuous at 0. */
        private static double helper2(double x) {
            return StrictMath.abs(x) > 1e-8 ? StrictMath.expm1(x) / x : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1
                    + 0.25 * x));
        }
    }

    /** {@code exponential(lo, hi, p)}: pgbench's {@code random_exponential}: density ∝ e^(−p·x/(hi−lo+1)). */
    static final class Exponential extends LongFn {
        private final double p;
        /** 1 − e^(−p), exact for a small p too (where 1 − exp(−p) would round to 0). */
        private final double mass;

        /** {@code hi − lo + 1} must fit a long (the parser's check). */
        Exponential(long salt, long lo, long hi, double p) {
            super(salt, lo, hi);
            this.p = p;
            this.mass = -StrictMath.expm1(-p);
        }

        @Override
        long asLong(long cycle) {
            // pgbench's −log(e^(−p) + (1 − e^(−p))·u) / p with u = 1 − r, written so that it holds for any p > 0
            double rand = -StrictMath.log1p(-mass * new CycleRandom(salt, cycle).nextDouble()) / p; // [0, 1)
            return within(lo, hi, rand);
        }
    }

    /**
     * {@code lo + ⌊(hi − lo + 1)·rand⌋} for {@code rand} in [0, 1), never past {@code hi} (the product is a double,
     * rounded); {@code hi − lo + 1} must fit a long.
     */
    static long within(long lo, long hi, double rand) {
        return lo + Math.min(hi - lo, (long) ((hi - lo + 1.0) * rand));
    }

    /**
     * {@code gaussian(lo, hi, p)}: pgbench's {@code random_gaussian}: a normal law centred on the range, cut at
     * ±p standard deviations (p ≥ 2), by Box–Muller with rejection outside the cut. {@code hi − lo + 1} must fit a
     * long (the parser's check).
     */
    static final class Gaussian extends LongFn {
        private final double p;

        Gaussian(long salt, long lo, long hi, double p) {
            super(salt, lo, hi);
            this.p = p;
        }

        @Override
        long asLong(long cycle) {
            CycleRandom r = new CycleRandom(salt, cycle);
            double stdev;
            do {
                double rand1 = 1.0 - r.nextDouble();
                double rand2 = 1.0 - r.nextDouble();
                stdev = StrictMath.sqrt(-2.0 * StrictMath.log(rand1)) * StrictMath.sin(2.0 * StrictMath.PI * rand2);
            } while (stdev < -p || stdev >= p);
            double rand = (stdev / p + 1.0) / 2.0; // (stdev + p) / 2p, which overflows for p past 1e308 / 2
            return within(lo, hi, rand);
        }
    }

    /** {@code timestamp(start, step)}: epoch milliseconds start + cycle·step. */
    static final class Timestamp extends LongFn {
        private final long step;

        Timestamp(long salt, long start, long step, long hi) {
            super(salt, start, hi);
            this.step = step;
        }

        @Override
        long asLong(long cycle) {
            return lo + cycle * step;
        }
    }

    /** {@code double(lo, hi)}: uniform in [lo, hi) with 53 random bits. */
    static final class UniformDouble extends Fn {
        private final double lo;
        private final double hi;

        UniformDouble(long salt, double lo, double hi) {
            super(salt);
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        Kind kind() {
            return Kind.DOUBLE;
        }

        double asDouble(long cycle) {
            double d = lo + (hi - lo) * new CycleRandom(salt, cycle).nextDouble();
            // rounding can reach hi where the doubles near lo are coarse beside hi - lo (double(1e15, 1e15 + 1)):
            // the largest double below hi stands for those draws, so that the range stays [lo, hi)
            return d < hi ? d : Math.nextDown(hi);
        }

        @Override
        void write(long cycle, Bytes out) {
            out.append(asDouble(cycle));
        }
    }

    /** {@code | add(k)}. */
    static final class Add extends Stage {
        private final long k;

        Add(LongFn in, long k) {
            super(in, in.salt, Math.addExact(in.lo, k), Math.addExact(in.hi, k));
            this.k = k;
        }

        @Override
        long asLong(long cycle) {
            return in.asLong(cycle) + k;
        }
    }

    /** {@code | mul(k)}. */
    static final class Mul extends Stage {
        private final long k;

        Mul(LongFn in, long k) {
            super(in, in.salt, Math.min(Math.multiplyExact(in.lo, k), Math.multiplyExact(in.hi, k)),
                    Math.max(Math.multiplyExact(in.lo, k), Math.multiplyExact(in.hi, k)));
            this.k = k;
        }

        @Override
        long asLong(long cycle) {
            return in.asLong(cycle) * k;
        }
    }

    /** {@code | div(k)}: floor division, k &gt; 0. */
    static final class Div extends Stage {
        private final long k;

        Div(LongFn in, long k) {
            super(in, in.salt, Math.floorDiv(in.lo, k), Math.floorDiv(in.hi, k));
            this.k = k;
        }

        @Override
        long asLong(long cycle) {
            return Math.floorDiv(in.asLong(cycle), k);
        }
    }

    /** {@code | mod(k)}: floor modulus, k &gt; 0: [0, k − 1]. */
    static final class Mod extends Stage {
        private final long k;

        Mod(LongFn in, long k) {
            super(in, in.salt, 0, in.lo >= 0 && in.hi < k ? in.hi : k - 1);
            this.k = k;
        }

        @Override
        long asLong(long cycle) {
            return Math.floorMod(in.asLong(cycle), k);
        }
    }

    /** {@code | hash}: a 63-bit hash of the input value, [0, 2^63 − 1]. */
    static final class HashOf extends Stage {
        HashOf(LongFn in, long salt) {
            super(in, salt, 0, Long.MAX_VALUE);
        }

        @Override
        long asLong(long cycle) {
            return CycleRandom.mix(salt ^ CycleRandom.mix(in.asLong(cycle) + CycleRandom.GOLDEN)) >>> 1;
        }
    }

    /**
     * {@code | permute}: a bijection of the input's range [lo, hi] onto itself (keyed by the binding's salt), so
     * {@code zipf(n, s) | permute} spreads the popular values over the range. {@code permute(n)} as a source:
     * the permutation of {@code cycle mod n} over [0, n − 1].
     */
    static final class Permute extends Stage {
        private final Permutation p;

        Permute(LongFn in, long salt) {
            super(in, salt, in.lo, in.hi);
            this.p = new Permutation(salt, in.hi - in.lo + 1);
        }

        @Override
        long asLong(long cycle) {
            return lo + p.apply(in.asLong(cycle) - lo);
        }
    }

    /**
     * A keyed bijection of [0, size): a Feistel network over the smallest even power of two ≥ size, walked until
     * its value falls inside (cycle-walking keeps it a bijection; fewer than 4 rounds of walking expected).
     */
    static final class Permutation {
        private static final int ROUNDS = 4;
        private final long key;
        private final long size;
        private final int half;
        private final long mask;

        Permutation(long key, long size) {
            if (size <= 0) {
                throw new IllegalArgumentException("permute needs a range of 1 to 2^62 values");
            }
            this.key = key;
            this.size = size;
            int bits = Math.max(2, 64 - Long.numberOfLeadingZeros(size - 1));
            bits += bits & 1;
            if (bits > 62) {
                throw new IllegalArgumentException("permute needs a range of 1 to 2^62 values");
            }
            this.half = bits / 2;
            this.mask = (1L << half) - 1;
        }

        long apply(long x) {
            if (size == 1) {
                return 0;
            }
            do {
                x = feistel(x);
            } while (x >= size);
            return x;
        }

        private long feistel(long x) {
            long left = x >>> half;
            long right = x & mask;
            for (int r = 0; r < ROUNDS; r++) {
                long f = CycleRandom.mix(key + r * CycleRandom.GOLDEN ^ right) & mask;
                long next = left ^ f;
                left = right;
                right = next;
            }
            return (left << half) | right;
        }
    }

    /** {@code uuid()}: a random (version 4) UUID, 36 ASCII characters. */
    static final class Uuid extends Fn {
        Uuid(long salt) {
            super(salt);
        }

        @Override
        Kind kind() {
            return Kind.TEXT;
        }

        @Override
        void write(long cycle, Bytes out) {
            CycleRandom r = new CycleRandom(salt, cycle);
            long msb = (r.nextLong() & ~0xF000L) | 0x4000L;
            long lsb = (r.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
            out.appendHex(msb >>> 32, 8).append((byte) '-').appendHex(msb >>> 16, 4).append((byte) '-')
                    .appendHex(msb, 4).append((byte) '-').appendHex(lsb >>> 48, 4).append((byte) '-')
                    .appendHex(lsb, 12);
        }
    }

    /** {@code alnum(min, max)}: a length uniform in [min, max], each character uniform over [0-9A-Za-z]. */
    static final class Alnum extends Fn {
        private static final byte[] ALPHABET =
                "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        private final int min;
        private final int max;

        Alnum(long salt, int min, int max) {
            super(salt);
            this.min = min;
            this.max = max;
        }

        @Override
        Kind kind() {
            return Kind.TEXT;
        }

        @Override
        void write(long cycle, Bytes out) {
            CycleRandom r = new CycleRandom(salt, cycle);
            int n = (int) r.between(min, max);
            for (int i = 0; i < n; i++) {
                out.append(ALPHABET[(int) r.nextBelow(ALPHABET.length)]);
            }
        }
    }

    /** {@code pick(a:70, b:30)}: one of the labels, each with its weight's share, exactly. */
    static final class Pick extends Fn {
        private final byte[][] labels;
        private final long[] cumulative;

        Pick(long salt, byte[][] labels, long[] weights) {
            super(salt);
            this.labels = labels;
            this.cumulative = new long[weights.length];
            long sum = 0;
            for (int i = 0; i < weights.length; i++) {
                sum = Math.addExact(sum, weights[i]);
                cumulative[i] = sum;
            }
        }

        @Override
        Kind kind() {
            return Kind.TEXT;
        }

        int index(long cycle) {
            long x = new CycleRandom(salt, cycle).nextBelow(cumulative[cumulative.length - 1]);
            int i = java.util.Arrays.binarySearch(cumulative, x);
            return i >= 0 ? i + 1 : -i - 1;
        }

        @Override
        void write(long cycle, Bytes out) {
            out.append(labels[index(cycle)]);
        }
    }
}
