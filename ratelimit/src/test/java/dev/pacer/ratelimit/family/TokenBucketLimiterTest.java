package dev.pacer.ratelimit.family;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.DesignOnManualClock;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code bucket} design on the manual clock. The tests named in snake_case mirror the tests of the same
 * name in Firecracker's rate limiter (its token bucket and its test module), with their numbers; where Firecracker
 * refuses and the device retries, here the caller waits until the bucket allows, so "blocked until t"
 * reads "the earliest start is t".
 */
class TokenBucketLimiterTest extends DesignOnManualClock {

    TokenBucketLimiter bucket(String design, double rate) {
        return (TokenBucketLimiter) RateLimiters.builder(RateSpec.of(rate)).design(LimiterDesign.parse(design))
                .clock(clock).sleeper(new ManualSleeper(clock)).build();
    }

    static TokenBucket tb(long size, long oneTimeBurst, long refillMs) {
        return new TokenBucket(size, oneTimeBurst, refillMs * MS, T0);
    }

    // ------------------------------------------------------------------------------------------------
    // Firecracker's TokenBucket tests

    @Test
    void test_token_bucket_create() {
        TokenBucket b = tb(1000, 0, 1000);
        assertEquals(1000, b.size());
        assertEquals(1000, b.budget(), "starts full");
        assertEquals(1, b.processedCapacity());
        assertEquals(1_000_000, b.processedRefillTime());
        // Firecracker returns None (limiting off) for a zero size or refill time; a bucket here must limit
        assertThrows(IllegalArgumentException.class, () -> tb(0, 1234, 1000));
        assertThrows(IllegalArgumentException.class, () -> tb(100, 1234, 0));
        assertThrows(IllegalArgumentException.class, () -> tb(0, 1234, 0));
    }

    @Test
    void test_token_bucket_preprocess() {
        TokenBucket b = tb(1000, 0, 1000);
        assertEquals(1, b.processedCapacity());
        assertEquals(MS, b.processedRefillTime());
        long thousand = 1000;
        b = tb(3 * 7 * 11 * 19 * thousand, 0, 7 * 11 * 13 * 17);
        assertEquals(3 * 19, b.processedCapacity());
        assertEquals(13 * 17 * (MS / thousand), b.processedRefillTime());
    }

    @Test
    void test_token_bucket_reduce() {
        // capacity 1000, refill 1000 ms: one token per ms
        long capacity = 1000;
        TokenBucket b = tb(capacity, 0, 1000);
        assertEquals(0, b.reduce(123, T0));
        assertEquals(capacity - 123, b.budget());
        assertEquals(0, b.reduce(1, T0 + 123 * MS), "123 ms refilled the 123");
        assertEquals(capacity - 1, b.budget());
        assertEquals(0, b.reduce(100, T0 + 123 * MS));
        assertEquals(TokenBucket.FAILURE, b.reduce(capacity, T0 + 123 * MS));
        assertEquals(T0 + 224 * MS, b.readyAt(capacity, T0 + 123 * MS), "pacer's caller waits for the 101 missing "
                + "tokens");

        // capacity 1000, one-time burst 1100, refill 1000 ms
        b = tb(1000, 1100, 1000);
        long t = T0;
        assertEquals(0, b.reduce(1000, t));
        assertEquals(100, b.oneTimeBurst());
        assertEquals(0, b.reduce(500, t));
        assertEquals(0, b.oneTimeBurst());
        assertEquals(600, b.budget(), "100 from the burst, 400 from the budget");
        assertEquals(0, b.reduce(500, t));
        assertEquals(TokenBucket.FAILURE, b.reduce(500, t));
        t += 500 * MS;
        assertEquals(0, b.reduce(500, t));
        t += 1000 * MS;
        long over = b.reduce(2500, t);
        assertEquals(1500, over, "Firecracker's OverConsumption(1.5): 1.5 x the size beyond the budget");
        assertEquals(1500 * MS, b.nanosFor(over), "ratio 1.5 x refill time 1000 ms");
        assertEquals(0, b.budget());
    }

    // ------------------------------------------------------------------------------------------------
    // Firecracker's RateLimiter tests

    @Test
    void test_rate_limiter_new() {
        // RateLimiter::new(1000, 1001, 1002, 1003, 1004, 1005): bytes 1000/1001/1002 ms, ops 1003/1004/1005 ms;
        // here the ops rate is the spec's, so 1003 ops per 1.005 s
        TokenBucketLimiter l = bucket("bucket:size=1003,one-time-burst=1004,"
                + "bytes-size=1000,bytes-burst=1001,bytes-refill=1002ms", 1003 / 1.005);
        TokenBucket bw = l.bytesBucket();
        assertEquals(1000, bw.size());
        assertEquals(1001, bw.oneTimeBurst());
        assertEquals(1002 * MS, bw.refillNanos());
        assertEquals(1000, bw.budget());
        TokenBucket ops = l.opsBucket();
        assertEquals(1003, ops.size());
        assertEquals(1004, ops.oneTimeBurst());
        assertEquals(1005 * MS, ops.refillNanos());
        assertEquals(1003, ops.budget());
        assertTrue(l.metersBytes());
    }

    @Test
    void test_rate_limiter_bandwidth() throws InterruptedException {
        // 1000 bytes/s; Firecracker's ops bucket is off, here it is at the spec's rate, high enough not to bind
        TokenBucketLimiter l = bucket("bucket:bytes-rate=1000", 1e6);
        assertEquals(1000, l.bytesBucket().size());
        assertEquals(S, l.bytesBucket().refillNanos());
        assertEquals(T0, l.reserve(1, 1000, T0), "the full 1000 bytes at once");
        assertEquals(T0 + 100 * MS, l.startFor(1, 100, T0), "another 100: blocked for 100 ms");
        clock.advance(50 * MS);
        assertEquals(T0 + 100 * MS, l.startFor(1, 100, clock.nanoTime()), "half the period: still blocked");
        Grant g = l.newGrant();
        assertEquals(50 * MS, l.acquireInterruptibly(g, 100), "the 100 bytes start when they have refilled");
        assertEquals(T0 + 100 * MS, g.startNanos());
        assertEquals(T0 + 100 * MS, clock.nanoTime());
    }

    @Test
    void test_rate_limiter_ops() {
        TokenBucketLimiter l = bucket("bucket", 1000); // 1000 ops/s: size 1000, refill 1 s
        assertEquals(1000, l.opsBucket().size());
        assertEquals(T0, l.reserve(1000, T0), "the full 1000 ops at once");
        assertEquals(T0 + 100 * MS, l.earliest(100, T0), "another 100: blocked for 100 ms");
        clock.advance(50 * MS);
        assertEquals(T0 + 100 * MS, l.earliest(100, clock.nanoTime()), "half the period: still blocked");
        assertEquals(50 * MS, l.acquire(100), "the 100 ops start when they have refilled");
        assertEquals(T0 + 100 * MS, clock.nanoTime());
    }

    @Test
    void test_rate_limiter_full() {
        TokenBucketLimiter l = bucket("bucket:bytes-rate=1000", 1000);
        assertEquals(T0, l.reserve(1000, 1000, T0), "1000 ops and 1000 bytes at once");
        assertEquals(T0 + 100 * MS, l.startFor(100, 0, T0), "100 ops more: blocked");
        assertEquals(T0 + 100 * MS, l.startFor(1, 100, T0), "100 bytes more: blocked");
        assertEquals(T0 + 100 * MS, l.startFor(100, 0, T0 + 50 * MS), "half the period: still blocked");
        assertEquals(T0 + 100 * MS, l.reserve(100, 100, T0 + 50 * MS), "100 ops and 100 bytes after the period");
    }

    @Test
    void test_rate_limiter_overconsumption() throws InterruptedException {
        TokenBucketLimiter l = bucket("bucket:bytes-rate=1000", 1000);
        Grant g = l.newGrant();
        assertEquals(0, l.acquireInterruptibly(g, 2500), "2.5 x the bucket: granted at once");
        assertEquals(T0 + 1500 * MS, l.blockedUntil(), "borrowed 1.5 x the size: blocked for 1.5 x the refill time");
        clock.advance(1000 * MS);
        assertFalse(l.tryAcquire(), "a whole second later: still blocked");
        assertEquals(T0 + 1500 * MS, l.startFor(1, 0, clock.nanoTime()), "ops are held too: one timer for both");
        clock.advance(500 * MS);
        assertEquals(0, l.acquireInterruptibly(g, 100), "after 1.5 s: available again");

        clock.set(T0 + 10 * S);
        l = bucket("bucket:bytes-rate=1000", 1000);
        g = l.newGrant();
        long t0 = clock.nanoTime();
        assertEquals(0, l.acquireInterruptibly(g, 1500), "1.5 x the bucket: granted, blocked for 0.5 x the refill "
                + "time");
        clock.advance(200 * MS);
        assertFalse(l.tryAcquire());
        assertEquals(t0 + 500 * MS, l.startFor(1, 100, clock.nanoTime()), "200 ms: blocked");
        clock.advance(100 * MS);
        assertEquals(t0 + 500 * MS, l.startFor(1, 100, clock.nanoTime()), "300 ms: the asking did not move the block");
        assertEquals(200 * MS, l.acquireInterruptibly(g, 100), "asked at 300 ms, starts at 500 ms");
        assertEquals(t0 + 500 * MS, g.startNanos());
    }

    @Test
    void test_update_buckets() {
        TokenBucketLimiter l = bucket("bucket:one-time-burst=20,bytes-size=1000,bytes-burst=2000", 10);
        l.reconfigure(RateSpec.of(10)); // BucketUpdate::None: the same rate keeps both buckets as they are
        assertEquals(10, l.opsBucket().size());
        assertEquals(20, l.opsBucket().oneTimeBurst());
        assertEquals(S, l.opsBucket().refillNanos());
        assertEquals(T0, l.reserve(25, T0), "20 from the one-time burst, 5 from the budget");
        assertEquals(5, l.opsBucket().budget());
        l.reconfigure(RateSpec.of(40)); // pacer keeps the fill fraction where Firecracker installs a full bucket
        assertEquals(40, l.opsBucket().size());
        assertEquals(S, l.opsBucket().refillNanos());
        assertEquals(20, l.opsBucket().budget(), "half full stays half full");
        assertEquals(1000, l.bytesBucket().size(), "the bytes bucket is not the spec's: untouched");
        assertEquals(2000, l.bytesBucket().oneTimeBurst());
        assertEquals("", l.rateChangeNote());
    }

    // ------------------------------------------------------------------------------------------------
    // pacer's own decisions

    @Test
    void aGreedyCallerAtAnAwkwardRateDoesNotDrift() {
        TokenBucketLimiter l = bucket("bucket", 3); // 3 tokens per 1e9 ns: a token every 333,333,333.3 ns
        Grant g = l.newGrant();
        for (int i = 0; i < 3; i++) {
            assertEquals(0, l.acquire(g), "the full bucket");
        }
        l.acquire(g);
        assertEquals(T0 + 333_333_334, g.startNanos(), "the first token's time, rounded up");
        l.acquire(g);
        assertEquals(T0 + 666_666_667, g.startNanos());
        for (int i = 0; i < 2_998; i++) {
            l.acquire(g);
        }
        // moving the refill mark to each refill (dropping the fraction of a token, as Firecracker's code does) is a
        // nanosecond late by the second token and 2 us late by the 3000th
        assertEquals(T0 + 1_000 * S, g.startNanos(), "3000 tokens after the bucket emptied: exactly 1000 s");
    }

    @Test
    void aBucketThatSatFullHandsOutItsSizeAndNoMore() {
        TokenBucketLimiter l = bucket("bucket", 1000);
        clock.advance(10 * S); // sat full for 10 s: Firecracker's lazy refill would count them once it ran short
        long now = clock.nanoTime();
        assertEquals(now, l.reserve(1000, now));
        assertEquals(now + MS, l.reserve(1, now), "then one per ms");
    }

    @Test
    void waitingCallersAreServedInTurnEachWhenItsTokensHaveRefilled() {
        TokenBucketLimiter l = bucket("bucket", 1000);
        assertEquals(T0, l.reserve(1000, T0));
        assertEquals(T0 + 10 * MS, l.reserve(10, T0));
        assertEquals(T0 + 15 * MS, l.reserve(5, T0));
        assertEquals(T0 + 16 * MS, l.reserve(1, T0 + 2 * MS), "a later caller waits behind the two");
    }

    @Test
    void overConsumingTwiceTheSizeEveryTimeLetsThroughTwiceTheRateAsFirecrackerDoes() {
        TokenBucketLimiter l = bucket("bucket", 1000);
        Grant g = l.newGrant();
        for (int i = 0; i < 10; i++) {
            l.acquire(2000, g);
        }
        // each 2000 takes the full 1000 and borrows 1000: blocked 1 s, in which the bucket refills to 1000
        assertEquals(T0 + 9 * S, g.startNanos(), "20,000 ops in 9 s at 1000/s");
        assertEquals(T0 + 10 * S, l.blockedUntil());
    }

    @Test
    void theOneTimeBurstIsSpentFirstAndDoesNotComeBack() {
        TokenBucketLimiter l = bucket("bucket:one-time-burst=500", 1000);
        assertEquals(T0, l.reserve(1500, T0), "burst 500 + size 1000");
        assertEquals(T0 + MS, l.reserve(1, T0));
        assertEquals(0, l.opsBucket().oneTimeBurst());
        long later = T0 + 60 * S;
        assertEquals(later, l.reserve(1000, later));
        assertEquals(later + MS, l.reserve(1, later), "an idle minute refills the size, never the burst");
    }

    @Test
    void sizeAndRefillOptionsSetTheOpsBucketAtTheSpecsRate() {
        assertEquals(250, bucket("bucket:refill=250ms", 1000).opsBucket().size());
        TokenBucketLimiter l = bucket("bucket:size=50", 1000);
        assertEquals(50 * MS, l.opsBucket().refillNanos());
        l = bucket("bucket:refill=1s", 0.5);
        assertEquals(1, l.opsBucket().size(), "at least one op");
        assertEquals(2 * S, l.opsBucket().refillNanos(), "refilled at the spec's rate");
        assertFalse(bucket("bucket", 1000).metersBytes());
        assertNull(bucket("bucket", 1000).bytesBucket());
        l = bucket("bucket:bytes-rate=10M,bytes-refill=100ms", 1000);
        assertEquals(1_000_000, l.bytesBucket().size());
        assertEquals(100 * MS, l.bytesBucket().refillNanos());
        l = bucket("bucket:bytes-rate=1k,bytes-size=100", 1000);
        assertEquals(100 * MS, l.bytesBucket().refillNanos());
    }

    @Test
    void aDesignWithoutABytesBucketIgnoresBytes() throws InterruptedException {
        TokenBucketLimiter l = bucket("bucket", 1000);
        assertEquals(0, l.acquireInterruptibly(l.newGrant(), 1L << 40));
        assertEquals(999, l.opsBucket().budget());
    }

    @Test
    void badOptionsSayWhich() {
        List<String[]> bad = List.of(
                new String[] {"bucket:size=10,refill=1s", "size or refill, not both"},
                new String[] {"bucket:size=0", "the bucket limiter's size must be a whole number >= 1, got '0'"},
                new String[] {"bucket:refill=0", "the bucket limiter's refill must be a duration > 0"},
                new String[] {"bucket:one-time-burst=-1", "one-time-burst must be a whole number >= 0"},
                new String[] {"bucket:bytes-rate=0", "the bucket limiter's bytes-rate must be a number > 0, got '0'"},
                new String[] {"bucket:bytes-burst=10", "bytes-burst needs bytes-rate or bytes-size"},
                new String[] {"bucket:bytes-rate=1k,bytes-size=1,bytes-refill=1s", "not all three"},
                new String[] {"bucket:queue=1", "the bucket limiter has no option 'queue'"});
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bucket(b[0], 1000), b[0]);
            assertTrue(e.getMessage().contains(b[1]), b[0] + " -> " + e.getMessage());
        }
        TokenBucketLimiter l = bucket("bucket:bytes-rate=1k", 1000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> l.acquireInterruptibly(l.newGrant(), -1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
    }
}
