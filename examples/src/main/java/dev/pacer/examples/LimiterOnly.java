package dev.pacer.examples;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.RateSpec;

/**
 * The limiter on its own, inside your program: pace a loop at 1 000 ops/s and see how late each op
 * started. No engine, no threads of pacer's: just {@code pacer-ratelimit}, which depends on nothing.
 *
 * <pre>mvn -q -f examples/pom.xml compile exec:java</pre>
 */
public final class LimiterOnly {

    private LimiterOnly() {
    }

    public static void main(String[] args) {
        RateLimiter limiter = RateLimiters.create(RateSpec.parse("1k,0.5")); // 1 000 ops/s, burst compensation 0.5
        long worstWait = 0;
        long totalWait = 0;
        int ops = 2_000;
        try (Grant grant = limiter.newGrant()) {          // one per thread: the op's scheduled and start time
            for (int i = 0; i < ops; i++) {
                long waitNanos = limiter.acquire(grant);  // blocks until this op may start
                worstWait = Math.max(worstWait, waitNanos);
                totalWait += waitNanos;
                doWork(i);
            }
        }
        System.out.printf("%d ops at %s: mean wait %.1f us, worst %.1f us; limiter %s%n", ops, limiter.spec(),
                totalWait / 1e3 / ops, worstWait / 1e3, limiter.snapshot());
    }

    private static void doWork(int i) {
        // your op here
    }
}
