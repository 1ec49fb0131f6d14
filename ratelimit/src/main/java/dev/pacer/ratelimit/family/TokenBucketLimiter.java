package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateOutOfReachException;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Duration;
import java.util.Set;

/**
 * {@code bucket}: Firecracker's token buckets (its rate limiter), one for ops and, optionally, one for bytes, in
 * integer arithmetic ({@link TokenBucket}: sizes and refill times in whole tokens and nanoseconds, the
 * refill ratio reduced by its gcd). Each bucket starts full, holds at most its size, refills from empty to
 * full in its refill time, and may start with a one-time burst of extra tokens that is spent first and
 * never comes back.
 *
 * <h2>Options</h2>
 * The ops bucket's rate is the spec's; one of its size and refill time is free:
 * <ul>
 *   <li>{@code size=N}: the ops bucket holds N ops; it refills in N / rate. Or</li>
 *   <li>{@code refill=D} (default {@code 1s}): the bucket holds one refill's worth, rate × D ops rounded
 *       to a whole op (at least 1), and refills in size / rate (so the rate stays the spec's: at 0.5 ops/s,
 *       {@code refill=1s} gives a 1-op bucket refilled in 2 s). Not both.</li>
 *   <li>{@code one-time-burst=N} (default 0): extra ops at the start.</li>
 *   <li>{@code bytes-rate=R} (bytes/s; {@code 10M} allowed), {@code bytes-size=N}, {@code bytes-refill=D},
 *       {@code bytes-burst=N}: the bytes bucket, on when {@code bytes-rate} or {@code bytes-size} is given.
 *       Two of rate, size and refill fix it: rate alone refills in 1 s (size = rate × 1 s); size alone
 *       refills in {@code bytes-refill} (default 1 s); rate and size refill in size / rate. Bytes are
 *       charged only by {@link #acquireInterruptibly(Grant, long)}, one op and its bytes in one
 *       reservation: the op starts when both buckets allow it.</li>
 * </ul>
 * Sizes and rates are converted to whole tokens and nanoseconds once (in floating point); the buckets'
 * arithmetic afterwards is integer only.
 *
 * <h2>Waiting instead of refusing</h2>
 * Firecracker's {@code consume} refuses a request the budget cannot cover and the device retries on a
 * 100 ms timer. Here the caller waits exactly until the buckets hold its tokens: {@link #reserve} returns
 * that time and takes the tokens then. Callers are served in the order they reserve: a caller never
 * starts before one that reserved ahead of it ({@code busyUntil}), so a queue of waiters is paid in turn.
 *
 * <h2>Over-consumption</h2>
 * A request larger than a bucket's size (after its one-time burst) is granted at once (or when the callers
 * ahead of it have started) and empties the bucket; it then <em>blocks the limiter</em> for the time the
 * bucket takes to accrue the tokens it took beyond the budget (Firecracker's one-shot timer of ratio ×
 * refill time, here rounded up to the nanosecond): nothing starts, ops or bytes, until
 * {@code blockedUntil}. As in Firecracker the bucket refills during the block, so when it lifts the bucket
 * holds what accrued (up to its size): a caller whose every request is k × the size gets k sizes per
 * (k − 1) refill times, above the rate (twice it for k = 2). That is the load Firecracker lets through;
 * requests no larger than the size are held exactly to the rate.
 *
 * <h2>Rate changes and pauses</h2>
 * A rate change rescales the ops bucket to the new rate (its size, unless {@code size=} fixed it, and its
 * refill time) keeping its fill fraction: the budget is scaled by the size's ratio; the one-time burst
 * left, the bytes bucket, the queue and a block are kept; nothing is reset, so {@link #rateChangeNote()}
 * is "". (Firecracker replaces its buckets with full ones.) A pause counts as idle time: the buckets
 * refill during it, up to their sizes.
 *
 * <h2>State</h2>
 * All under the base's lock: {@code ops} and {@code bytes} (the buckets; bytes null when off),
 * {@code busyUntil} (the latest start handed out), {@code blockedUntil} (when an over-consumption's block
 * lifts).
 */
final class TokenBucketLimiter extends LockingLimiter {

    private static final Duration ONE_SECOND = Duration.ofSeconds(1);

    /** The ops bucket's size when {@code size=} fixed it; 0 when it follows the rate. */
    private final long fixedSize;
    /** The ops bucket's refill time when its size follows the rate (ns). */
    private final long refillOption;

    private final TokenBucket ops;
    private final TokenBucket bytes;
    private long busyUntil;
    private long blockedUntil;

    TokenBucketLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("bucket", spec, clock, sleeper, origin);
        options.only(Set.of("size", "refill", "one-time-burst", "bytes-rate", "bytes-size", "bytes-refill",
                "bytes-burst"));
        if (options.has("size") && options.has("refill")) {
            throw new IllegalArgumentException("the bucket limiter takes size or refill, not both: the rate comes from "
                    + "the"
                    + " rate spec, so either fixes the other");
        }
        this.fixedSize = options.count("size", 0, 1);
        this.refillOption = positive(options, "refill", ONE_SECOND).toNanos();
        long burst = options.count("one-time-burst", 0, 0);
        long start = originNanos();
        this.ops = new TokenBucket(opsSize(spec), burst, opsRefill(spec), start);
        this.bytes = bytesBucket(options, start);
        this.busyUntil = start;
        this.blockedUntil = start;
    }

    private long opsSize(RateSpec spec) {
        return fixedSize > 0 ? fixedSize : Math.max(1, Math.round(spec.opsPerSecond() * refillOption / 1e9));
    }

    private long opsRefill(RateSpec spec) {
        return refillFor(opsSize(spec), spec.opsPerSecond());
    }

    /** The refill time of a bucket of {@code size} tokens at {@code rate} tokens/s (ns, at least 1). */
    private static long refillFor(long size, double rate) {
        double nanos = size * 1e9 / rate;
        if (nanos >= Long.MAX_VALUE / 4) {
            throw new RateOutOfReachException("the bucket limiter's bucket of " + size + " at " + rate
                    + "/s would take longer than a century to refill");
        }
        return Math.max(1, Math.round(nanos));
    }

    private static Duration positive(DesignOptions options, String key, Duration fallback) {
        Duration d = options.duration(key, fallback, Duration.ZERO);
        if (d.isZero()) {
            throw options.bad(key, options.text(key, ""), "a duration > 0, e.g. 500ms or 1s");
        }
        return d;
    }

    private static TokenBucket bytesBucket(DesignOptions options, long start) {
        boolean rate = options.has("bytes-rate");
        boolean size = options.has("bytes-size");
        if (!rate && !size) {
            for (String k : new String[] {"bytes-refill", "bytes-burst"}) {
                if (options.has(k)) {
                    throw new IllegalArgumentException("the bucket limiter's " + k + " needs bytes-rate or bytes-size");
                }
            }
            return null;
        }
        if (rate && size && options.has("bytes-refill")) {
            throw new IllegalArgumentException("the bucket limiter takes two of bytes-rate, bytes-size and "
                    + "bytes-refill,"
                    + " not all three");
        }
        long burst = options.count("bytes-burst", 0, 0);
        if (rate) {
            double r = options.number("bytes-rate", 0, 0, true);
            long n = size ? options.count("bytes-size", 0, 1)
                    : Math.max(1, Math.round(r * positive(options, "bytes-refill", ONE_SECOND).toNanos() / 1e9));
            return new TokenBucket(n, burst, refillFor(n, r), start);
        }
        return new TokenBucket(options.count("bytes-size", 0, 1), burst,
                positive(options, "bytes-refill", ONE_SECOND).toNanos(), start);
    }

    // ------------------------------------------------------------------------------------------------

    @Override
    public boolean metersBytes() {
        return bytes != null;
    }

    @Override
    protected long reserve(long permits, long now) {
        return reserve(permits, 0, now);
    }

    @Override
    protected long reserve(long permits, long byteCount, long now) {
        long start = startFor(permits, byteCount, now);
        take(ops, permits, start);
        if (bytes != null && byteCount > 0) {
            take(bytes, byteCount, start);
        }
        busyUntil = start;
        return start;
    }

    /**
     * Takes {@code tokens} at {@code start}; an over-consumption holds everyone back until its excess would have
     * accrued.
     */
    private void take(TokenBucket bucket, long tokens, long start) {
        long over = bucket.reduce(tokens, start);
        if (over == TokenBucket.FAILURE) {
            throw new IllegalStateException("a bucket was short at the start it gave: " + bucket);
        }
        if (over > 0) {
            long until = start + bucket.nanosFor(over);
            blockedUntil = Math.max(blockedUntil, until < start ? Long.MAX_VALUE / 2 : until);
        }
    }

    @Override
    protected long earliest(long permits, long now) {
        return startFor(permits, 0, now);
    }

    /**
     * When {@code permits} ops carrying {@code byteCount} bytes could start, asked at {@code now}: after
     * the callers ahead, after a block, and when both buckets hold their tokens (or would over-consume).
     */
    long startFor(long permits, long byteCount, long now) {
        long t = Math.max(now, Math.max(busyUntil, blockedUntil));
        long start = ops.readyAt(permits, t);
        if (bytes != null && byteCount > 0) {
            start = Math.max(start, bytes.readyAt(byteCount, t));
        }
        return start;
    }

    /** The callers queued ahead moves with a rate increase: see {@link LockingLimiter#reschedulesWaiters}. */
    @Override
    protected boolean reschedulesWaiters() {
        return true;
    }

    @Override
    protected String retune(RateSpec old, RateSpec spec, long now) {
        long at = Math.max(now, busyUntil);
        ops.rescale(opsSize(spec), opsRefill(spec), at);
        long moved = rescheduled(at);
        if (moved != at) {
            // on an increase the queue ahead keeps its length in ops: the buckets' accrual, counted up to the last
            // start handed out, counts up to that start moved nearer
            ops.shiftBack(at - moved);
            if (bytes != null) {
                bytes.shiftBack(at - moved);
            }
            busyUntil = rescheduled(busyUntil);
        }
        blockedUntil = rescheduled(blockedUntil);
        return "";
    }

    // ------------------------------------------------------------------------------------------------
    // For tests

    TokenBucket opsBucket() {
        return ops;
    }

    TokenBucket bytesBucket() {
        return bytes;
    }

    long blockedUntil() {
        return blockedUntil;
    }
}
