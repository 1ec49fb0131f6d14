package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.Grant;

/**
 * A {@link LockingLimiter}'s grant: the results (in {@link Grant}) and this grant's own tallies. Every field
 * is the owner thread's (plain); the limiter keeps its totals itself.
 */
final class LockingGrant extends Grant {

    /** The limiter this grant belongs to. */
    final LockingLimiter limiter;
    private long permits;
    private long waitSum;
    /** Set by close(); a closed grant is refused. */
    boolean closed;

    LockingGrant(LockingLimiter limiter) {
        super(limiter.originNanos());
        this.limiter = limiter;
    }

    /** Records a grant asked for at {@code askedUnits} that started at {@code startUnits}; returns its wait. */
    long granted(long askedUnits, long startUnits, long n) {
        long wait = recorded(askedUnits, startUnits);
        permits += n;
        waitSum += wait;
        return wait;
    }

    @Override
    public long permitsGranted() {
        return permits;
    }

    @Override
    public long totalWaitNanos() {
        return waitSum;
    }

    /** Nothing: the family designs read the clock on every acquire, so a reading handed over changes nothing. */
    @Override
    public void sawClock(long nanoTime) {
    }

    @Override
    public void close() {
        closed = true;
    }
}
