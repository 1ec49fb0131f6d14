package dev.pacer.ratelimit.family;

/**
 * EngineBlock's token pool with backfill (the EngineBlock rate limiter design notes), tokens counted in
 * nanoseconds of schedule.
 *
 * <p>Two pools. The <b>active</b> pool is what consumers take from; it is topped up to {@code poolSize} by
 * every refill directly, and past that, up to {@code poolSize + burstPool} (= pool size × burst ratio), only
 * by <b>backfill</b> from the <b>waiting</b> pool. A refill's tokens fill the active pool's room below
 * {@code poolSize} first; the rest go to the waiting pool. Then up to
 * {@code min(refill, poolSize) / poolSize × burstPool} tokens move from the waiting pool to the active
 * pool, bounded by the active pool's room below {@code poolSize + burstPool} and by what is waiting: the
 * backfill is amortized over the tokens refilled, so a backlog drains at burst ratio × the refill rate.
 * No token is ever destroyed or scaled: only when a waiting token may move forward is limited.
 *
 * <p>Worked example (the design notes'): pool 1000, burst ratio 1.25, so burstPool 250 and the active pool's ceiling
 * 1250. With the active pool at or above 1000, a refill of 500 goes to the waiting pool, and 500 / 1000 of
 * the 250, i.e. 125, may come back. (The notes' example also says 62.5, against its own formula; 125 is what
 * makes two refills of 500, one pool's worth, yield "the full 25 %" it describes.)
 *
 * <p>The active pool may go below zero: {@link #take} never refuses, and tokens owed are repaid by later
 * refills before anything else ({@link #refillToRepay}).
 *
 * <h2>Threads</h2>
 * Not thread-safe: every field is read and written under the owning limiter's lock.
 */
final class TokenPool {

    private final long poolSize;
    private final long burstPool;
    /** Tokens consumers may take; may be negative (owed). At most poolSize + burstPool. */
    private long active;
    /** Tokens held back, moved to the active pool by backfill; never negative, unbounded. */
    private long waiting;

    /**
     * A pool whose active pool starts at {@code poolSize} (full) with nothing waiting.
     *
     * @param poolSize   the active pool's size when 100 % full, ≥ 1
     * @param burstRatio the active pool's ceiling over its size, ≥ 1 (1.25: a backlog drains 25 % faster)
     */
    TokenPool(long poolSize, double burstRatio) {
        if (poolSize < 1 || !(burstRatio >= 1) || poolSize * burstRatio > 1e18) {
            throw new IllegalArgumentException("a token pool needs size >= 1 and burst ratio >= 1 (size x ratio <= "
                    + "1e18); got "
                    + poolSize + " and " + burstRatio);
        }
        this.poolSize = poolSize;
        this.burstPool = Math.round(poolSize * (burstRatio - 1));
        this.active = poolSize;
    }

    /** Adds {@code tokens} (≥ 0): the active pool's room below its size first, the rest waiting; then the backfill. */
    void refill(long tokens) {
        long direct = Math.min(tokens, Math.max(poolSize - active, 0));
        active += direct;
        waiting += tokens - direct;
        long allowed = LockingLimiter.mulDiv(Math.min(tokens, poolSize), burstPool, poolSize);
        long backfill = Math.min(Math.min(allowed, Math.max(poolSize + burstPool - active, 0)), waiting);
        waiting -= backfill;
        active += backfill;
    }

    /** Takes {@code tokens} from the active pool, which may go below zero. */
    void take(long tokens) {
        active -= tokens;
    }

    /**
     * The smallest refill after which the active pool has grown by {@code deficit} (> 0), for a pool whose
     * active pool would still be at or below zero then (so all of that refill goes to it directly, and its
     * backfill is bounded only by the refill's share of burstPool and by what is waiting).
     */
    long refillToRepay(long deficit) {
        long forBackfill;
        if (burstPool == 0) {
            forBackfill = deficit;
        } else if (deficit >= poolSize + burstPool) {
            forBackfill = deficit - burstPool; // a refill of poolSize or more backfills burstPool at most
        } else {
            forBackfill = TokenBucket.ceilMulDiv(deficit, poolSize, poolSize + burstPool);
            if (forBackfill + LockingLimiter.mulDiv(forBackfill, burstPool, poolSize) < deficit) {
                forBackfill++;
            }
        }
        return Math.max(forBackfill, deficit - waiting);
    }

    /** Scales what the active pool owes (if it is below zero) by {@code num / den} (≤ 1). */
    void scaleDebt(long num, long den) {
        if (active < 0) {
            active = -LockingLimiter.mulDiv(-active, num, den);
        }
    }

    long active() {
        return active;
    }

    long waiting() {
        return waiting;
    }

    long poolSize() {
        return poolSize;
    }

    long burstPool() {
        return burstPool;
    }

    @Override
    public String toString() {
        return "TokenPool[active " + active + ", waiting " + waiting + " of " + poolSize + " + " + burstPool + "]";
    }
}
