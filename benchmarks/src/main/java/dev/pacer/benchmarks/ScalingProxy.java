package dev.pacer.benchmarks;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.atomic.LimiterCounters;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.LongAdder;

/**
 * What 2 cores can show of how the atomic limiter scales: threads sharing one limiter at an unreachable rate
 * (1e9 ops/s, every caller late), each op followed by an injected busy time, and per acquire the limiter's
 * own counts ({@link LimiterCounters}, on with {@code -Dpacer.limiter.count=true}): atomic adds and CASes on
 * {@code allocated}, stores to the shared clock line, slow passes. Those are what become cache-line transfers
 * on many cores; they should stay rare at every per-op time and thread count.
 *
 * <p>Prints one table per thread count, one row per per-op time. {@code ns/op} is wall time per op over all
 * threads together (throughput's inverse), so it mostly shows the injected time divided among the cores.
 * Arguments: {@code [measureMillis [threads,...]]}. Run by {@code benchmarks/scaling-proxy.sh}.
 */
public final class ScalingProxy {

    static final long[] PER_OP_NANOS = {0, 50, 140, 800, 2_500, 10_000};
    static final int[] THREADS = {1, 2, 4, 16};

    /** Keeps the waits alive so the JIT cannot drop the acquires' results. */
    static volatile long sink;

    private ScalingProxy() {
    }

    public static void main(String[] args) throws Exception {
        if (!LimiterCounters.ON) {
            System.err.println("scaling-proxy: run with -Dpacer.limiter.count=true (the limiter's counts are off)");
            System.exit(2);
        }
        long measureMillis = args.length > 0 ? Long.parseLong(args[0]) : 500;
        int[] threads = THREADS;
        if (args.length > 1) {
            String[] t = args[1].split(",");
            threads = new int[t.length];
            for (int i = 0; i < t.length; i++) {
                threads[i] = Integer.parseInt(t[i]);
            }
        }
        double worst = 0;
        for (int n : threads) {
            System.out.printf(Locale.ROOT, "%n%d thread%s, acquire(grant) at 1e9 ops/s, %d ms per row%n",
                    n, n == 1 ? "" : "s", measureMillis);
            System.out.println("| per-op time | ns/op | adds/op | publishes/op | slow/op |");
            System.out.println("|---:|---:|---:|---:|---:|");
            for (long work : PER_OP_NANOS) {
                measure(n, work, measureMillis / 2); // warm-up
                double[] r = measure(n, work, measureMillis);
                worst = Math.max(worst, Math.max(r[1], Math.max(r[2], r[3])));
                System.out.printf(Locale.ROOT, "| %s | %.1f | %.4f | %.4f | %.4f |%n",
                        label(work), r[0], r[1], r[2], r[3]);
            }
        }
        System.out.printf(Locale.ROOT, "%nlargest count per op: %.4f (%s: the bound is %.2f)%n", worst,
                worst <= BOUND ? "PASS" : "FAIL", BOUND);
        if (worst > BOUND) {
            System.exit(1);
        }
    }

    /** What issue #30 asks of every count per acquire, at every per-op time and thread count. */
    static final double BOUND = 0.05;

    static String label(long nanos) {
        return nanos >= 1_000 ? (nanos / 1_000.0) + " µs" : nanos + " ns";
    }

    /** Returns ns/op, adds/op, publishes/op, slow/op. */
    static double[] measure(int threads, long workNanos, long millis) throws Exception {
        RateLimiter limiter = RateLimiters.create(RateSpec.of(1e9));
        LongAdder ops = new LongAdder();
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        List<Thread> workers = new ArrayList<>();
        final long[] deadline = new long[1];
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try (Grant g = limiter.newGrant()) {
                    start.await();
                    long end = deadline[0];
                    long n = 0;
                    long blackhole = 0;
                    while (true) {
                        blackhole += limiter.acquire(g);
                        n++;
                        if (workNanos > 0) {
                            long until = System.nanoTime() + workNanos;
                            while (System.nanoTime() < until) {
                                Thread.onSpinWait();
                            }
                        }
                        if ((n & 63) == 0 && System.nanoTime() >= end) {
                            break;
                        }
                    }
                    ops.add(n);
                    sink += blackhole;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            t.start();
            workers.add(t);
        }
        LimiterCounters.reset();
        long t0 = System.nanoTime();
        deadline[0] = t0 + millis * 1_000_000;
        start.await();
        for (Thread t : workers) {
            t.join();
        }
        long elapsed = System.nanoTime() - t0;
        double n = ops.sum();
        return new double[] {elapsed / n, LimiterCounters.adds() / n, LimiterCounters.publishes() / n,
                LimiterCounters.slowPasses() / n};
    }
}
