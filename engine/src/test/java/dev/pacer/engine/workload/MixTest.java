package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MixTest {

    @Test
    void seventyTwentyFiveFiveIsNginxsSmoothOrder() {
        int[] order = Mix.order(new long[] {70, 25, 5});
        StringBuilder s = new StringBuilder();
        for (int o : order) {
            s.append((char) ('A' + o));
        }
        assertEquals("ABAAABAACABAAABAAABA", s.toString());
    }

    @Test
    void everyWindowOfEveryShardHoldsTheWeightsExactlyForOneToEightShards() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 20; trial++) {
            int ops = 1 + random.nextInt(5);
            long[] weights = new long[ops];
            for (int i = 0; i < ops; i++) {
                weights[i] = 1 + random.nextInt(40);
            }
            if (trial == 0) {
                weights = new long[] {70, 25, 5};
                ops = 3;
            }
            int length = Mix.order(weights).length;
            long g = 0;
            for (long w : weights) {
                g = java.math.BigInteger.valueOf(g).gcd(java.math.BigInteger.valueOf(w)).longValue();
            }
            for (int n = 1; n <= 8; n++) {
                Mix mix = Mix.of(weights, n);
                for (int shard = 0; shard < n; shard++) {
                    // every window of L consecutive cycles this shard runs, starting anywhere
                    int runs = 3 * length;
                    int[] ran = new int[runs];
                    for (int k = 0; k < runs; k++) {
                        ran[k] = mix.op(shard + (long) k * n);
                    }
                    for (int start = 0; start + length <= runs; start++) {
                        long[] counts = new long[ops];
                        for (int k = start; k < start + length; k++) {
                            counts[ran[k]]++;
                        }
                        long[] expected = new long[ops];
                        for (int i = 0; i < ops; i++) {
                            expected[i] = weights[i] / g;
                        }
                        assertArrayEquals(expected, counts, "N=" + n + " shard " + shard + " window at " + start);
                    }
                }
            }
        }
    }

    @Test
    void theShardsTogetherRunTheSameCountsAsOneProcessOverWholeWindows() {
        long[] weights = {70, 25, 5};
        for (int n = 1; n <= 8; n++) {
            Mix mix = Mix.of(weights, n);
            long[] counts = new long[3];
            for (long c = 0; c < 20L * n * 10; c++) { // 10 windows of every shard
                counts[mix.op(c)]++;
            }
            assertArrayEquals(new long[] {140L * n, 50L * n, 10L * n}, counts, "N=" + n);
        }
    }
}
