package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateOutOfReachException;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Duration;

/**
 * The machinery Guava's two smooth limiters (behind its {@code RateLimiter}) share: {@link BurstyLimiter} and
 * {@link WarmingUpLimiter}. Each models Guava's class of the same shape closely enough that a run gives
 * the waits Guava would give for the same calls on the same clock (the tests hold them to that, against
 * Guava itself).
 *
 * <h2>The model</h2>
 * <ul>
 *   <li><b>The next caller pays.</b> {@code nextFree} is when the next request may start. A request
 *       starts at {@code nextFree} (or now, if that is past) and pushes {@code nextFree} on by its cost, so
 *       a caller of 100 permits on a free limiter starts at once and the caller after it waits for them.
 *   <li><b>Stored permits</b> remember idle time: while {@code nextFree} lies in the past, permits are
 *       stored at one per {@link #coolDownInterval()}, up to {@code maxPermits}. A request spends stored
 *       permits first, at the price {@link #storedCost} sets (nothing for bursty; more than the stable
 *       interval for a cold warm-up limiter), then fresh ones at the stable interval each.
 *   <li><b>A rate change</b> first brings the state up to now at the old rate, then sets the new stable
 *       interval and lets the design set its new {@code maxPermits}; the stored permits keep their share
 *       of the maximum ({@code stored × newMax / oldMax}), as Guava's {@code setRate} does. On a decrease
 *       {@code nextFree} is kept: a request already priced keeps its price. On an increase the time priced
 *       ahead of now shrinks by the ratio of the intervals and the callers waiting for it are moved with it
 *       ({@link LockingLimiter#reschedulesWaiters}): Guava keeps it, so one request priced at 0.01/s holds a
 *       limiter set back to 1000/s for 100 s; here the change shows within one new interval.
 * </ul>
 *
 * <h2>Resolution</h2>
 * Time is counted in whole <em>ticks</em> since the origin: by default 1 µs, as Guava counts (option
 * {@code resolution=1us}). The clock is read as whole ticks (rounded down), a caller waits a whole
 * number of ticks from when it asked (as Guava sleeps whole microseconds), and each request's cost is
 * rounded down to a whole tick, so the model inherits Guava's rounding: at the default a rate whose
 * stable interval is not a whole number of microseconds runs slightly fast (at 300k ops/s, 3.33 µs
 * becomes 3 µs: 11 % fast), and a rate whose interval is under one tick is refused (Guava would not
 * hold it at all). {@code resolution=1ns} counts nanoseconds instead, for rates up to 1e9 ops/s. The
 * resolution must divide one second.
 *
 * <h2>State</h2>
 * All fields below are guarded by the base's lock ({@link LockingLimiter}): read and written only in
 * {@link #reserve}, {@link #earliest} and {@link #retune}, which it calls with the lock held.
 * Permit counts and intervals are doubles, as Guava keeps them; times are whole ticks in {@code long}.
 */
abstract class StoredPermitsLimiter extends LockingLimiter {

    /** Nanoseconds per tick; final. */
    private final long tick;
    /** Ticks per second; final. */
    private final long ticksPerSecond;

    /** Under the lock: permits stored by idle time, in [0, maxPermits]. */
    protected double storedPermits;
    /** Under the lock: the most permits that may be stored; set by {@link #applyRate}. */
    protected double maxPermits;
    /** Under the lock: ticks per permit at the spec's rate. */
    protected double stableInterval;
    /** Under the lock: when the next request may start, in ticks since the origin. */
    private long nextFree;

    StoredPermitsLimiter(String name, RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin,
            Duration resolution) {
        super(name, spec, clock, sleeper, origin);
        this.tick = resolution.toNanos();
        this.ticksPerSecond = SECOND / tick;
        this.stableInterval = intervalTicks(spec);
    }

    /**
     * Sets the design's rate-dependent state for a stable interval of {@code stableInterval} ticks (already
     * stored in {@link #stableInterval}): {@link #maxPermits} and what the design derives from it. Called
     * once at construction and on every rate change, with the lock held (or from the constructor).
     */
    protected abstract void applyRate(double permitsPerSecond, double stableInterval);

    /** Ticks that spending {@code take} of {@code stored} stored permits costs (0 ≤ take ≤ stored). */
    protected abstract long storedCost(double stored, double take);

    /** Ticks of idle time that store one permit. */
    protected abstract double coolDownInterval();

    /** The resolution option: a duration of at least 1 ns that divides one second (default 1 µs). */
    static Duration resolution(DesignOptions options) {
        Duration d = options.duration("resolution", Duration.ofNanos(1_000), Duration.ofNanos(1));
        if (SECOND % d.toNanos() != 0 || d.toNanos() > 1_000_000) {
            throw options.bad("resolution", options.text("resolution", ""),
                    "a duration of at most 1ms that divides one second, e.g. 1us or 1ns");
        }
        return d;
    }

    /** Ticks per permit at {@code spec}'s rate, as Guava computes it; refuses a rate faster than one permit a tick. */
    private double intervalTicks(RateSpec spec) {
        double interval = ticksPerSecond / spec.opsPerSecond();
        if (interval < 1) {
            throw new RateOutOfReachException("the " + name() + " limiter counts time in whole ticks of " + tick
                    + " ns (option resolution), so its rate must be at most " + ticksPerSecond + " ops/s; got "
                    + spec.opsPerSecond() + ": set resolution=1ns");
        }
        return interval;
    }

    /** Ticks since the origin at {@code now} (≥ origin), rounded down. */
    private long ticks(long now) {
        return (now - originNanos()) / tick;
    }

    /**
     * When a request that may start at tick {@code start} starts, asked at {@code now}: a whole number of
     * ticks after {@code now}, as Guava sleeps whole microseconds from its reading of the clock.
     */
    private long startAt(long start, long now) {
        long wait = start - ticks(now);
        return wait <= 0 ? now : now + (wait >= Long.MAX_VALUE / 4 / tick ? Long.MAX_VALUE / 4 : wait * tick);
    }

    /** Stores the permits idle time since {@code nextFree} earned, if it is past. */
    private void catchUp(long nowTicks) {
        if (nowTicks > nextFree) {
            double earned = (nowTicks - nextFree) / coolDownInterval();
            storedPermits = Math.min(maxPermits, storedPermits + earned);
            nextFree = nowTicks;
        }
    }

    @Override
    protected final long reserve(long permits, long now) {
        catchUp(ticks(now));
        long start = nextFree;
        double fromStore = Math.min(permits, storedPermits);
        double fresh = permits - fromStore;
        long cost = storedCost(storedPermits, fromStore) + (long) (fresh * stableInterval);
        nextFree = saturatedAdd(nextFree, cost);
        storedPermits -= fromStore;
        return startAt(start, now);
    }

    @Override
    protected final long earliest(long permits, long now) {
        return startAt(nextFree, now); // whatever its size, a request starts at nextFree
    }

    /** The requests priced ahead moves with a rate increase: see {@link LockingLimiter#reschedulesWaiters}. */
    @Override
    protected boolean reschedulesWaiters() {
        return true;
    }

    @Override
    protected final String retune(RateSpec old, RateSpec spec, long now) {
        double interval = intervalTicks(spec); // refuses before anything changes
        long nowTicks = ticks(now);
        catchUp(nowTicks);
        if (nextFree > nowTicks && rescheduleFactor() < 1) {
            // on an increase, the requests priced ahead keep their count: the time they hold shrinks with the interval
            nextFree = nowTicks + (long) ((nextFree - nowTicks) * rescheduleFactor());
        }
        double oldMax = maxPermits;
        stableInterval = interval;
        applyRate(spec.opsPerSecond(), interval);
        storedPermits = oldMax == 0 ? 0 : storedPermits * maxPermits / oldMax;
        return "";
    }

    /** When the next request may start, in ticks since the origin (for tests). */
    final long nextFreeTicks() {
        return nextFree;
    }

    final long tickNanos() {
        return tick;
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
