package dev.pacer.ratelimit.atomic;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.ScheduleUnits;

/**
 * The {@link LockFreeRateLimiter}'s grant: the results (in {@link Grant}), and the state behind them in a
 * {@link GrantState}, kept apart so the limiter's registry can hold the state strongly and the grant weakly.
 * The limiter takes a {@link Grant} and checks it is one of these with one type check per acquire (a final
 * class: one compare of the class word); every field here is final but {@link #ref}, set once before the
 * grant is handed out.
 */
final class AtomicGrant extends Grant {

    /** The limiter this grant belongs to. */
    final LockFreeRateLimiter limiter;
    final GrantState state;
    /** The thread this grant was made for behind {@link RateLimiter#acquire()}; -1 for grants handed out. */
    final long ownerThreadId;
    /** This grant's entry in the limiter's registry; set once, before the grant is handed out. */
    GrantRegistry.GrantRef ref;

    AtomicGrant(LockFreeRateLimiter limiter, GrantState state, long ownerThreadId) {
        super(limiter.origin);
        this.limiter = limiter;
        this.state = state;
        this.ownerThreadId = ownerThreadId;
    }

    /** Records a grant and returns its wait in nanoseconds. Owner thread only. */
    long granted(long schUnits, long startUnits, long permits) {
        long wait = recorded(schUnits, startUnits);
        state.tally(permits, wait);
        return wait;
    }

    @Override
    public long permitsGranted() {
        return state.permits;
    }

    @Override
    public long totalWaitNanos() {
        return state.waitSum;
    }

    @Override
    public void sawClock(long nanoTime) {
        long units = ScheduleUnits.fromNanos(nanoTime - originNanos());
        state.hintUnits = units;
        limiter.sawClock(units);
    }

    @Override
    public void close() {
        limiter.registry.retire(this);
    }
}
