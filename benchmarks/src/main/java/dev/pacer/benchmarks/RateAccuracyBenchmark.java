package dev.pacer.benchmarks;


import dev.pacer.ratelimit.api.Grant;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Achieved rate against target: two threads acquire from one paced limiter for 10 s; JMH's throughput
 * score (ops/s) is the achieved rate, to be compared with {@code rate}. The score should sit within
 * ±0.5 % of the target.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 1, time = 10)
@Threads(2)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class RateAccuracyBenchmark {

    @State(Scope.Benchmark)
    public static class Paced {
        @Param({"1000", "100000", "1000000"})
        public double rate;
        @Param({"0"})
        public double strictness;
        RateLimiter limiter;

        @Setup(Level.Trial)
        public void setup() {
            limiter = RateLimiters.create(new RateSpec(rate, strictness));
        }
    }

    @State(Scope.Thread)
    public static class Worker {
        Grant grant;

        @Setup(Level.Trial)
        public void setup(Paced paced) {
            grant = paced.limiter.newGrant();
        }

        @TearDown(Level.Trial)
        public void close() {
            grant.close();
        }
    }

    @Benchmark
    public long acquire(Paced paced, Worker worker) {
        return paced.limiter.acquire(worker.grant);
    }
}
