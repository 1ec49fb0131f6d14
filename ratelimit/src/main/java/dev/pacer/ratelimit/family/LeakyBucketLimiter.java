package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.util.Set;

/**
 * {@code leaky}: the leaky bucket as a queue (the classic shapes, as the article "Rate Limiting Part 1" draws
 * them). Requests leave at a fixed spacing, one every
 * 1/rate, however bursty their arrivals; a request that finds the queue full is refused and asks again.
 *
 * <p>Options: {@code queue=N}, how many requests may wait ahead of their turn (default: unbounded).
 * A request is accepted when it would leave within {@code N} spacings of now; {@code queue=0} is the
 * article's version: a request is allowed only when the previous one left at least a spacing ago, and
 * refused otherwise. A refused caller asks again when a place frees ({@link LockingLimiter#retryAt}).
 *
 * <p>State: {@code next}, when the next request may leave (clock's scale). After an idle gap it is in the
 * past and the next request leaves at once: a leaky bucket stores no credit, so idle time is never
 * released as a burst. A rate change spaces the following requests at the new rate; on a decrease the requests
 * already queued keep their times, on an increase the queue keeps its length in requests (its waiters are moved
 * nearer, {@link LockingLimiter#reschedulesWaiters}): nothing is reset.
 */
final class LeakyBucketLimiter extends LockingLimiter {

    private final long queue;
    /** Under the lock: when the next request may leave. */
    private long next;
    /** Under the lock: the spacing at the rate in force, ns. */
    private long interval;

    LeakyBucketLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("leaky", spec, clock, sleeper, origin);
        options.only(Set.of("queue"));
        this.queue = options.has("queue") ? options.count("queue", 0, 0) : Long.MAX_VALUE;
        this.interval = intervalNanos(spec);
        this.next = originNanos();
    }

    @Override
    protected long reserve(long permits, long now) {
        long start = earliestInQueue(now);
        if (queue != Long.MAX_VALUE && start - now > mulDiv(queue, interval, 1)) {
            return REFUSED;
        }
        next = start + mulDiv(permits, interval, 1);
        return start;
    }

    private long earliestInQueue(long now) {
        return next - now > 0 ? next : now;
    }

    @Override
    protected long earliest(long permits, long now) {
        return earliestInQueue(now); // accepted at retryAt at the latest, and leaves at next
    }

    /** A place frees when the queue ahead drops to {@code queue} spacings. */
    @Override
    protected long retryAt(long permits, long now) {
        return queue == Long.MAX_VALUE ? now : Math.max(now, next - mulDiv(queue, interval, 1));
    }

    /** Its queue moves with a rate increase: see {@link LockingLimiter#reschedulesWaiters}. */
    @Override
    protected boolean reschedulesWaiters() {
        return true;
    }

    @Override
    protected String retune(RateSpec old, RateSpec spec, long now) {
        interval = intervalNanos(spec);
        next = rescheduled(next); // on an increase, the queue ahead keeps its length in requests
        return "";
    }
}
