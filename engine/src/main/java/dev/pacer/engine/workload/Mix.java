package dev.pacer.engine.workload;

/**
 * Which op a cycle runs: the weights reduced by their gcd (70/25/5 → 14/5/1, L = 20) laid out once in nginx's
 * smooth weighted round-robin order ({@code ABAAABAACABAAABAAABA}), and the op of global cycle c is
 * {@code order[(c / N) mod L]} for a test run as N shards. Shard I runs cycles I + kN, so its k-th op is
 * {@code order[k mod L]}: every L consecutive ops of every shard hold exactly the weights. The op chosen for a
 * cycle therefore depends on N; the cycle's data never does. Immutable, thread-safe.
 */
final class Mix {

    /** The longest order: weights whose reduced sum is larger are refused (use rounder weights). */
    static final int MAX_LENGTH = 1 << 20;

    private final int[] order;
    private final long shards;

    private Mix(int[] order, long shards) {
        this.order = order;
        this.shards = shards;
    }

    /**
     * @param weights each op's weight, ≥ 1
     * @param shards  the test's shard count N (1 for one process)
     * @throws IllegalArgumentException when the reduced weights sum to more than {@link #MAX_LENGTH}
     */
    static Mix of(long[] weights, int shards) {
        return new Mix(order(weights), shards);
    }

    /** The smooth weighted round-robin order of the gcd-reduced weights: each op index its weight times. */
    static int[] order(long[] weights) {
        long g = 0;
        for (long w : weights) {
            if (w < 1) {
                throw new IllegalArgumentException("a weight must be ≥ 1, got " + w);
            }
            g = gcd(g, w);
        }
        long total = 0;
        long[] reduced = new long[weights.length];
        for (int i = 0; i < weights.length; i++) {
            reduced[i] = weights[i] / g;
            total += reduced[i];
            if (total > MAX_LENGTH) {
                throw new IllegalArgumentException("the weights reduce to a cycle of more than " + MAX_LENGTH
                        + " ops; use rounder weights (e.g. percentages)");
            }
        }
        int[] order = new int[(int) total];
        long[] current = new long[weights.length];
        for (int k = 0; k < order.length; k++) { // nginx: add each weight, pick the largest, subtract the total
            int best = 0;
            for (int i = 0; i < reduced.length; i++) {
                current[i] += reduced[i];
                if (current[i] > current[best]) {
                    best = i;
                }
            }
            current[best] -= total;
            order[k] = best;
        }
        return order;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** The op index of a global cycle. */
    int op(long cycle) {
        return order[(int) ((cycle / shards) % order.length)];
    }

    /** L: the window in which the weights are exact. */
    int length() {
        return order.length;
    }
}
