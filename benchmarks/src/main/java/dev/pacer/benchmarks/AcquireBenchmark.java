package dev.pacer.benchmarks;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.RateSpec;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Acquire throughput at an effectively unlimited rate (1e9 permits/s, which no caller here reaches),
 * pacer beside Guava, Bucket4j and Resilience4j, with {@code System.nanoTime()} and a bare shared
 * {@code AtomicLong.getAndAdd} as floors in the same run. Run with {@code -t 1} and {@code -t 2}.
 *
 * <p>Every limiter is shared by all benchmark threads ({@link Scope#Benchmark}), as a load generator's
 * workers share one. The numbers are ops/µs per thread group: JMH sums the threads.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class AcquireBenchmark {

    /** A rate no thread here can reach: every limiter is measured on its no-wait path. */
    static final double UNLIMITED = 1e9;

    @State(Scope.Benchmark)
    public static class Pacer {
        /** 0 = average (the fast path), 0.5 = burst compensation, 1 = strict, 1.1 = burst allowance. */
        @Param({"0"})
        public double strictness;
        RateLimiter limiter;

        @Setup(Level.Trial)
        public void setup() {
            limiter = RateLimiters.create(new RateSpec(UNLIMITED, strictness));
        }
    }

    @State(Scope.Thread)
    public static class PacerGrant {
        Grant grant;

        @Setup(Level.Trial)
        public void setup(Pacer pacer) {
            grant = pacer.limiter.newGrant();
        }

        @TearDown(Level.Trial)
        public void close() {
            grant.close();
        }
    }

    @State(Scope.Benchmark)
    public static class Guava {
        com.google.common.util.concurrent.RateLimiter limiter;

        @Setup(Level.Trial)
        public void setup() {
            limiter = com.google.common.util.concurrent.RateLimiter.create(UNLIMITED);
        }
    }

    @State(Scope.Benchmark)
    public static class Bucket4j {
        Bucket bucket;

        @Setup(Level.Trial)
        public void setup() {
            bucket = Bucket.builder()
                    .addLimit(Bandwidth.builder().capacity((long) UNLIMITED)
                            .refillGreedy((long) UNLIMITED, Duration.ofSeconds(1)).build())
                    .build();
        }
    }

    @State(Scope.Benchmark)
    public static class Resilience4j {
        AtomicRateLimiter limiter;

        @Setup(Level.Trial)
        public void setup() {
            limiter = new AtomicRateLimiter("bench", RateLimiterConfig.custom()
                    .limitForPeriod(1_000)
                    .limitRefreshPeriod(Duration.ofNanos(1_000))
                    .timeoutDuration(Duration.ZERO)
                    .build());
        }
    }

    @State(Scope.Benchmark)
    public static class Counter {
        final AtomicLong value = new AtomicLong();
    }

    /** pacer's plain {@code acquire()}: the per-thread grant is found through a ThreadLocal. */
    @Benchmark
    public long pacerAcquire(Pacer p) {
        return p.limiter.acquire();
    }

    /** pacer's {@code acquire(grant)}: what the engine's workers call, each with its own grant. */
    @Benchmark
    public long pacerAcquireGrant(Pacer p, PacerGrant g) {
        return p.limiter.acquire(g.grant);
    }

    @Benchmark
    public double guavaAcquire(Guava g) {
        return g.limiter.acquire();
    }

    @Benchmark
    public boolean bucket4jTryConsume(Bucket4j b) {
        return b.bucket.tryConsume(1);
    }

    @Benchmark
    public boolean resilience4jAcquirePermission(Resilience4j r) {
        return r.limiter.acquirePermission();
    }

    /** Floor: one clock read, what a limiter without a cached clock pays per op at least. */
    @Benchmark
    public long floorNanoTime() {
        return System.nanoTime();
    }

    /** Floor: one atomic add on a shared counter, what any shared-schedule limiter pays at least. */
    @Benchmark
    public long floorGetAndAdd(Counter c) {
        return c.value.getAndAdd(256);
    }

    /**
     * Floor of a strict grant: one clock read, then {@code value = max(value, now) + 256} by CAS, retried from
     * the witness; what a limiter that reads the clock and moves a shared schedule on every op pays at least.
     */
    @Benchmark
    public long floorClockCas(Counter c) {
        long now = System.nanoTime();
        long a = c.value.get();
        while (true) {
            long witness = c.value.compareAndExchange(a, Math.max(a, now) + 256);
            if (witness == a) {
                return a;
            }
            a = witness;
        }
    }

    /** Floor: the same CAS loop without the clock ({@code value += 256} by CAS). */
    @Benchmark
    public long floorCas(Counter c) {
        long a = c.value.get();
        while (true) {
            long witness = c.value.compareAndExchange(a, a + 256);
            if (witness == a) {
                return a;
            }
            a = witness;
        }
    }
}
