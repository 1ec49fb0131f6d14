package dev.pacer.ratelimit.family;

/**
 * One of Firecracker's token buckets (its rate limiter), in integer arithmetic: {@code size} tokens when full,
 * refilled from empty to full in {@code refillNanos}, plus a {@code oneTimeBurst} of extra tokens spent
 * first and never replenished. It starts full. {@link TokenBucketLimiter} keeps one for ops and one for
 * bytes.
 *
 * <h2>Arithmetic</h2>
 * The refill ratio size / refillNanos is reduced by its greatest common divisor once, at construction
 * ({@link #processedCapacity()} tokens every {@link #processedRefillTime()} ns), as Firecracker does, so
 * the products stay small. Tokens accrue from an {@code anchor} time: {@code floor((t − anchor) ×
 * processedCapacity / processedRefillTime)} tokens by time {@code t}, of which {@code minted} are already
 * in the budget. Keeping the anchor (rather than moving it to each refill, which drops the fraction of a
 * token in progress) makes the refill exact over any number of refills; the anchor moves forward by
 * whole {@code processedRefillTime}s, and to the refill time whenever the bucket is full (a full bucket
 * holds no fraction).
 *
 * <h2>Refilling</h2>
 * Firecracker's {@code reduce} refills only when the budget is short, so a bucket that sat full for a
 * while and is then spent counts the time it sat full once it is short again: it can hand out nearly
 * twice its size in a burst. Here every {@link #reduce} and every question ({@link #readyAt}) refills to
 * its time first: the bucket never holds more than {@code size} (plus what is left of the one-time burst).
 *
 * <h2>Threads</h2>
 * Not thread-safe: every field is read and written under the owning limiter's lock.
 */
final class TokenBucket {

    /** Outcome of a {@link #reduce} that took nothing: the budget was short. */
    static final long FAILURE = -1;

    private long size;
    private long refillNanos;
    private long processedCapacity;
    private long processedRefillTime;
    /** The initial one-time burst, as configured. */
    private final long initialOneTimeBurst;
    /** What is left of the one-time burst: spent first, never replenished. */
    private long oneTimeBurst;
    /** Tokens in the bucket, 0..size. */
    private long budget;
    /** Accrual counts from here (clock's scale). */
    private long anchor;
    /**
     * Tokens accrued since {@link #anchor} and already added to the budget; always below processedCapacity after a
     * refill.
     */
    private long minted;

    /**
     * A full bucket at {@code now}.
     *
     * @throws IllegalArgumentException when size or refill time is below 1, or the burst below 0
     */
    TokenBucket(long size, long oneTimeBurst, long refillNanos, long now) {
        if (size < 1 || refillNanos < 1 || oneTimeBurst < 0) {
            throw new IllegalArgumentException("a token bucket needs size >= 1, refill time >= 1 ns and burst >= 0; "
                    + "got size "
                    + size + ", refill " + refillNanos + " ns, burst " + oneTimeBurst);
        }
        this.initialOneTimeBurst = oneTimeBurst;
        this.oneTimeBurst = oneTimeBurst;
        this.anchor = now;
        configure(size, refillNanos);
        this.budget = size;
    }

    private void configure(long size, long refillNanos) {
        long g = gcd(size, refillNanos);
        this.size = size;
        this.refillNanos = refillNanos;
        this.processedCapacity = size / g;
        this.processedRefillTime = refillNanos / g;
    }

    /** Euclid's algorithm. */
    static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    // ------------------------------------------------------------------------------------------------

    /**
     * Adds the tokens accrued by {@code now} (Firecracker's auto-replenish); nothing if {@code now} is not after the
     * anchor.
     */
    void replenish(long now) {
        long delta = now - anchor;
        if (delta <= 0) {
            return;
        }
        // minted < processedCapacity, so the minted tokens took less than processedRefillTime: a whole refill
        // time after that, the bucket is full whatever its budget was
        if (delta - processedRefillTime >= refillNanos) {
            fill(now);
            return;
        }
        long accrued = LockingLimiter.mulDiv(delta, processedCapacity, processedRefillTime);
        budget += accrued - minted;
        minted = accrued;
        if (budget >= size) {
            fill(now);
        } else if (minted >= processedCapacity) { // rebase by whole periods: exact, keeps the products small
            long periods = minted / processedCapacity;
            anchor += periods * processedRefillTime;
            minted -= periods * processedCapacity;
        }
    }

    private void fill(long now) {
        budget = size;
        anchor = now;
        minted = 0;
    }

    /**
     * When {@link #reduce}{@code (tokens)} will succeed or over-consume, asked at {@code now}: {@code now}
     * if it would already, else the instant the budget reaches what the one-time burst does not cover.
     * Refills to {@code now} first.
     */
    long readyAt(long tokens, long now) {
        replenish(now);
        long need = tokens - oneTimeBurst;
        if (need <= budget || need > size) {
            return now;
        }
        // the (minted + need − budget)-th token since the anchor
        long at = anchor + nanosFor(minted + need - budget);
        return Math.max(now, at);
    }

    /**
     * Refills to {@code now} and takes {@code tokens}: from the one-time burst first, then the budget.
     * Returns 0 when taken; {@link #FAILURE} when the budget is short (nothing is taken: Firecracker's
     * {@code reduce} drops the one-time burst it had applied, this one keeps it); or, for a request larger
     * than {@code size} (over-consumption), the tokens beyond the budget ({@code > 0}): the budget is
     * emptied and the request succeeds, and the caller holds everyone back for {@link #nanosFor} of them.
     */
    long reduce(long tokens, long now) {
        replenish(now);
        long need = tokens - oneTimeBurst;
        if (need <= 0) {
            oneTimeBurst -= tokens;
            return 0;
        }
        if (need > size) {
            oneTimeBurst = 0;
            long over = need - budget;
            budget = 0;
            return over;
        }
        if (need > budget) {
            return FAILURE;
        }
        oneTimeBurst = 0;
        budget -= need;
        return 0;
    }

    /** The time the bucket takes to accrue {@code tokens}, rounded up to the nanosecond. */
    long nanosFor(long tokens) {
        return ceilMulDiv(tokens, processedRefillTime, processedCapacity);
    }

    /**
     * Changes size and refill time at {@code now}, keeping the fill fraction: the budget is scaled by
     * newSize / size (rounded down); the one-time burst left is kept; the fraction of a token in progress
     * is dropped (accrual counts from {@code now}).
     */
    void rescale(long newSize, long newRefillNanos, long now) {
        replenish(now);
        budget = LockingLimiter.mulDiv(budget, newSize, size);
        configure(newSize, newRefillNanos);
        anchor = Math.max(anchor, now);
        minted = 0;
    }

    /**
     * Moves the bucket's accrual {@code nanos} (≥ 0) earlier: the bucket holds at {@code t − nanos} what it held
     * at {@code t}. For a rate change that moves the starts handed out ahead of now nearer.
     */
    void shiftBack(long nanos) {
        anchor -= nanos;
    }

    static long ceilMulDiv(long a, long b, long c) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if (hi == 0 && lo >= 0) {
            return lo / c + (lo % c == 0 ? 0 : 1);
        }
        java.math.BigInteger[] qr = java.math.BigInteger.valueOf(a).multiply(java.math.BigInteger.valueOf(b))
                .divideAndRemainder(java.math.BigInteger.valueOf(c));
        java.math.BigInteger q = qr[1].signum() == 0 ? qr[0] : qr[0].add(java.math.BigInteger.ONE);
        return q.min(java.math.BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    }

    // ------------------------------------------------------------------------------------------------

    long size() {
        return size;
    }

    long refillNanos() {
        return refillNanos;
    }

    long initialOneTimeBurst() {
        return initialOneTimeBurst;
    }

    long oneTimeBurst() {
        return oneTimeBurst;
    }

    /** The budget as of the last refill (the one-time burst not counted). */
    long budget() {
        return budget;
    }

    long processedCapacity() {
        return processedCapacity;
    }

    long processedRefillTime() {
        return processedRefillTime;
    }

    @Override
    public String toString() {
        return "TokenBucket[size " + size + ", refill " + refillNanos + " ns, budget " + budget + ", one-time burst "
                + oneTimeBurst + "]";
    }
}
