package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Duration;
import java.util.Set;

/**
 * {@code tokenpool}: EngineBlock's token pool with backfill (the EngineBlock rate limiter design notes,
 * {@link TokenPool}). Tokens are
 * nanoseconds of schedule: time passing refills the pool one token per nanosecond, and an op costs one
 * interval (1 / rate) of tokens. While callers keep up, the pool paces them at the rate; time they leave
 * unused once the active pool is full is not lost but kept in the waiting pool, and given back as
 * backfill, so a caller that fell behind catches up at up to burst ratio × the rate until the backlog is
 * repaid: the design notes' "burst rate limiting", going faster only as long as it takes to bring the wait back
 * to zero.
 *
 * <h2>Options</h2>
 * <ul>
 *   <li>{@code pool=D}: the active pool's size, a <b>duration</b> of tokens (e.g. {@code 1s},
 *       {@code 100ms}); default {@code 1s}. A duration, not a count of ops, because tokens are time: the
 *       pool stays the same through rate changes.</li>
 *   <li>{@code burst=R}: the burst ratio, ≥ 1, default {@code 1.1}: the active pool may hold up to R × the
 *       pool, and a backlog drains at up to R × the rate. The design notes' {@code backfill_rate} is R − 1
 *       (1.25 here is its 0.25); {@code burst=1} turns backfill off.</li>
 * </ul>
 *
 * <h2>Decisions where the design notes say TBD</h2>
 * <ul>
 *   <li><b>Refilled lazily, no filler thread.</b> Each call that asks ({@code acquire} or
 *       {@code tryAcquire}) refills the time elapsed since the previous one, as one refill. While callers
 *       wait (the active pool at or below zero) how the elapsed time is split into refills makes no
 *       difference; after an idle gap it does, as it did with the design notes' filler thread and its period: a
 *       single refill longer than the pool backfills at most the pool × (R − 1).</li>
 *   <li><b>Tokens owed.</b> A caller takes its tokens from the active pool at once and the pool may go below
 *       zero; the caller starts when refills (with their backfill) have brought it back to zero. So callers
 *       start in the order they asked, one interval apart at the rate, and a request larger than the pool
 *       simply waits for its tokens. A caller never starts before one that reserved ahead of it.</li>
 *   <li><b>Opens full:</b> the active pool holds the pool's worth at the origin, nothing waiting: the first
 *       pool's worth of ops (a second's worth by default) starts at once, as a token bucket that opens
 *       full.</li>
 *   <li><b>The waiting pool is unbounded</b> (the design notes destroy no token): after an idle hour the limiter
 *       owes an hour, repaid at R × the rate (at 1.1, for ten hours) while callers keep asking.</li>
 *   <li><b>A pause is not a backlog:</b> the paused time refills nothing; on resume the pool continues
 *       from where it stood.</li>
 *   <li><b>A rate change</b> keeps both pools (they are time) and the tokens owed; the following ops cost
 *       the new interval. Nothing is reset: {@link #rateChangeNote()} is "".</li>
 *   <li><b>The worked example's 62.5</b> contradicts its own formula; this follows the formula (125 per
 *       refill of 500 at pool 1000, ratio 1.25).</li>
 * </ul>
 *
 * <h2>State</h2>
 * All under the base's lock: {@code pool} (active and waiting tokens), {@code lastRefill} (the clock at the
 * last refill), {@code interval} (ns per op at the rate in force), {@code lastStart} (the latest start handed
 * out).
 */
final class TokenPoolLimiter extends LockingLimiter {

    private final TokenPool pool;
    private long lastRefill;
    private long interval;
    private long lastStart;

    TokenPoolLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("tokenpool", spec, clock, sleeper, origin);
        options.only(Set.of("pool", "burst"));
        Duration size = options.duration("pool", Duration.ofSeconds(1), Duration.ZERO);
        if (size.isZero()) {
            throw options.bad("pool", options.text("pool", ""), "a duration > 0, e.g. 100ms or 1s");
        }
        double ratio = options.number("burst", 1.1, 1, false);
        if (size.toNanos() * ratio > 1e18) {
            throw options.bad("burst", options.text("burst", "1.1"), "small enough that pool x burst fits 1e18 ns");
        }
        this.pool = new TokenPool(size.toNanos(), ratio);
        this.interval = intervalNanos(spec);
        this.lastRefill = originNanos();
        this.lastStart = originNanos();
    }

    /**
     * Refills the time since the last refill; returns the refill's time (a caller that read the clock before another's
     * refill counts from that one).
     */
    private long refillTo(long now) {
        if (now - lastRefill > 0) {
            pool.refill(now - lastRefill);
            lastRefill = now;
        }
        return lastRefill;
    }

    /** When {@code cost} tokens taken now would be repaid. */
    private long startFor(long cost, long now) {
        long deficit = cost - pool.active();
        long start = deficit <= 0 ? now : now + pool.refillToRepay(deficit);
        return Math.max(start, lastStart);
    }

    @Override
    protected long reserve(long permits, long now) {
        long at = refillTo(now);
        long cost = mulDiv(permits, interval, 1);
        long start = startFor(cost, at);
        pool.take(cost);
        lastStart = start;
        return start;
    }

    @Override
    protected long earliest(long permits, long now) {
        return startFor(mulDiv(permits, interval, 1), refillTo(now));
    }

    /** The debt moves with a rate increase: see {@link LockingLimiter#reschedulesWaiters}. */
    @Override
    protected boolean reschedulesWaiters() {
        return true;
    }

    @Override
    protected String retune(RateSpec old, RateSpec spec, long now) {
        long was = interval;
        interval = intervalNanos(spec);
        if (rescheduleFactor() < 1) {
            // on an increase a debt keeps its size in ops: taken at the old interval per op, owed at the new one
            refillTo(now);
            pool.scaleDebt(interval, was);
            lastStart = rescheduled(lastStart);
        }
        return "";
    }

    /** The paused time is no backlog: skip it. */
    @Override
    protected void resumed(long pausedNanos, long now) {
        lastRefill = Math.min(now, lastRefill + pausedNanos);
    }

    // For tests
    TokenPool pool() {
        return pool;
    }
}
