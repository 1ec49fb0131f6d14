package dev.pacer.ratelimit.atomic;

import dev.pacer.ratelimit.api.Sleeper;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A limiter's live grants and the tallies of those gone: what {@link LockFreeRateLimiter#snapshot()}
 * adds up. Touched when a grant is made, closed or collected and when a snapshot is taken, never by an
 * acquire.
 *
 * <p>Each grant is held weakly and its {@link GrantState} strongly (through a {@link GrantRef}), so a
 * grant its user drops is not leaked: once collected, its tallies are folded into the retired totals
 * and its unused run of slices is given to the limiter as idle time, at the next registration or
 * snapshot. A closed grant is folded at once.
 *
 * <h2>Shared fields</h2>
 * <table>
 *   <caption>who writes what</caption>
 *   <tr><th>field</th><th>writers, operation</th><th>readers may assume</th></tr>
 *   <tr><td>{@code grants}</td><td>registration: {@code add}; close and folding a collected grant:
 *       {@code remove} (concurrent set)</td>
 *       <td>each grant is removed, and so folded, exactly once; a snapshot iterating it sees each
 *       live grant at most once</td></tr>
 *   <tr><td>{@code collected}</td><td>the garbage collector enqueues; registration and snapshots
 *       {@code poll}</td><td>each collected grant is polled by one thread</td></tr>
 *   <tr><td>{@code retiredPermits}, {@code retiredWait}</td><td>whoever removed a grant from
 *       {@code grants}: {@code getAndAdd}</td>
 *       <td>only grow; a grant is added here after it left {@code grants}, so a snapshot (which reads
 *       these first, then iterates {@code grants}) never counts one twice, but one racing a fold may
 *       miss that grant's tallies</td></tr>
 * </table>
 */
final class GrantRegistry {

    private final LockFreeRateLimiter limiter;
    /** Live grants' state, held strongly; the grants themselves weakly (see {@link GrantRef}). */
    private final Set<GrantRef> grants = ConcurrentHashMap.newKeySet();
    private final ReferenceQueue<AtomicGrant> collected = new ReferenceQueue<>();
    /** Tallies of grants closed or collected. */
    private final AtomicLong retiredPermits = new AtomicLong();
    private final AtomicLong retiredWait = new AtomicLong();

    /** The registry of {@code limiter}'s grants, which takes their unused slices as idle time. */
    GrantRegistry(LockFreeRateLimiter limiter) {
        this.limiter = limiter;
    }

    /** Registers a new grant, and folds in the grants collected since the last look. */
    void register(AtomicGrant grant) {
        GrantRef ref = new GrantRef(grant, grant.state, collected);
        grant.ref = ref;
        grants.add(ref);
        foldCollected();
    }

    /** Closes a grant: unused run slices become idle time, tallies move to the retired totals. */
    void retire(AtomicGrant grant) {
        grant.state.closed = true;
        if (grants.remove(grant.ref)) {
            fold(grant.state);
        }
    }

    /** Folds in the grants collected since the last look. */
    void foldCollected() {
        for (Object ref; (ref = collected.poll()) != null; ) {
            GrantRef gr = (GrantRef) ref;
            if (grants.remove(gr)) {
                fold(gr.state);
            }
        }
    }

    private void fold(GrantState st) {
        limiter.abandonRun(st);
        limiter.giveIdle(st.idleOpaque());
        retiredPermits.getAndAdd(st.permitsOpaque());
        retiredWait.getAndAdd(st.waitSumOpaque());
    }

    /**
     * Permits granted and wait summed over all grants, live and retired, the schedule the live grants hold
     * in unused runs (units) and the idle time they have not yet handed to the limiter (units). Does not fold in
     * collected grants: {@link #foldCollected}
     * first.
     */
    Totals totals() {
        long permits = retiredPermits.get();
        long wait = retiredWait.get();
        long reserved = 0;
        long idle = 0;
        for (GrantRef ref : grants) {
            permits += ref.state.permitsOpaque();
            wait += ref.state.waitSumOpaque();
            reserved += ref.state.reservedUnits();
            idle += ref.state.idleOpaque();
        }
        return new Totals(permits, wait, reserved, idle);
    }

    /** Wakes every live grant's owner that is parked waiting for a slot (see {@link GrantState#parked}). */
    void wakeParked(Sleeper sleeper) {
        for (GrantRef ref : grants) {
            Thread t = ref.state.parked;
            if (t != null) {
                sleeper.wake(t);
            }
        }
    }

    /**
     * See {@link #totals()}: wait in nanoseconds; reserved, and the idle time live grants hold on their own tally
     * ({@link GrantState#idleUnits}), in units.
     */
    record Totals(long permits, long waitNanos, long reservedUnits, long idleUnits) { }

    /** Weak reference to a grant that keeps its state reachable, so a dropped grant's tallies are folded in. */
    static final class GrantRef extends WeakReference<AtomicGrant> {
        final GrantState state;

        GrantRef(AtomicGrant grant, GrantState state, ReferenceQueue<AtomicGrant> queue) {
            super(grant, queue);
            this.state = state;
        }
    }
}
