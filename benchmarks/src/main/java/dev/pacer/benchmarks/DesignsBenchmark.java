package dev.pacer.benchmarks;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.concurrent.TimeUnit;
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
 * Acquire throughput of every limiter design at an unreachable rate (1e9 permits/s), each shared by all
 * benchmark threads, with the engine's call ({@code acquire(grant)}). Run with {@code -t 1} and {@code -t 2}:
 * {@code benchmarks/run DesignsBenchmark -t 2}. The sliding log keeps one entry per permit of its window,
 * so it runs with a 1 ms window here (a million entries), and Guava's two count in nanoseconds rather than
 * microseconds (at microsecond ticks they refuse rates over 1M/s); the others keep their defaults.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class DesignsBenchmark {

    @State(Scope.Benchmark)
    public static class Shared {
        @Param({"atomic", "tokenpool", "bucket", "warmup:resolution=1ns", "bursty:resolution=1ns", "bandwidths",
                "leaky", "fixed-window",
                "sliding-log:window=1ms", "sliding-window"})
        public String design;
        RateLimiter limiter;

        @Setup(Level.Trial)
        public void setup() {
            limiter = RateLimiters.builder(RateSpec.of(AcquireBenchmark.UNLIMITED)).design(LimiterDesign.parse(design))
                    .build();
        }
    }

    @State(Scope.Thread)
    public static class PerThread {
        Grant grant;

        @Setup(Level.Trial)
        public void setup(Shared shared) {
            grant = shared.limiter.newGrant();
        }

        @TearDown(Level.Trial)
        public void close() {
            grant.close();
        }
    }

    @Benchmark
    public long acquireGrant(Shared s, PerThread t) {
        return s.limiter.acquire(t.grant);
    }
}
