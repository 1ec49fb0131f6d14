package dev.pacer.ratelimit.atomic;

import dev.pacer.ratelimit.api.RateLimiter;
import java.lang.ref.WeakReference;
import java.util.function.LongFunction;

/**
 * The per-thread grants behind {@link RateLimiter#acquire()}: a {@link ThreadLocal}, with a small
 * direct-mapped cache in front of it keyed by {@link Thread#threadId()}, so the common case is one
 * array load and one compare instead of a thread-local map lookup (which costs about as much as the
 * rest of an acquire on the fast path: 82 against 123 M acquires/s on one thread in
 * {@code AcquireBenchmark}).
 *
 * <h2>Shared fields</h2>
 * {@code grants[i]} and {@code holders[i]}: written with plain stores by a thread that missed. A
 * reader of {@code grants[i]} may see any grant ever stored there, or null; it uses the grant only if
 * the grant's {@link AtomicGrant#ownerThreadId} (a final field, so safely published) is its own id, which
 * means it stored that grant itself. {@code holders[i]} is only read on a miss, to see whether the
 * thread holding the slot is still alive: a live holder keeps its slot, so threads whose ids collide
 * do not evict each other on every call (the later one keeps using the thread-local). A stale read
 * only delays a takeover; two threads taking a slot over at once may leave the grant of one beside
 * the holder of the other, and then the one whose grant is not there keeps using the thread-local. A slot keeps a dead
 * thread's grant (and any run of slices it had claimed,
 * at most one per slot) until another thread takes the slot over.
 */
final class ThreadGrants {

    private static final int SLOTS = 256;

    /**
     * Each thread's grant, held weakly: a strong value would reach this object through the grant's
     * limiter and keep the thread-local's key, and so the limiter, alive as long as the thread lives
     * (a limiter dropped by its user would leak into every pool thread that ever acquired from it).
     * The grant is held strongly by the cache below, or by the caller while it acquires; a thread
     * without a cache slot may get a fresh grant after a collection (its tallies are folded in and its
     * unused slices given away, as for any collected grant).
     */
    private final ThreadLocal<WeakReference<AtomicGrant>> local = new ThreadLocal<>();
    private final LongFunction<AtomicGrant> newGrant;
    private final AtomicGrant[] grants = new AtomicGrant[SLOTS];
    @SuppressWarnings("unchecked")
    private final WeakReference<Thread>[] holders = new WeakReference[SLOTS];

    /** {@code newGrant} makes a grant for the thread with the given id. */
    ThreadGrants(LongFunction<AtomicGrant> newGrant) {
        this.newGrant = newGrant;
    }

    /** The calling thread's grant. */
    AtomicGrant get() {
        long id = Thread.currentThread().threadId();
        AtomicGrant g = grants[(int) id & (SLOTS - 1)];
        if (g != null && g.ownerThreadId == id) {
            return g;
        }
        return miss(id);
    }

    private AtomicGrant miss(long id) {
        Thread t = Thread.currentThread();
        WeakReference<AtomicGrant> mine = local.get();
        AtomicGrant g = mine == null ? null : mine.get();
        if (g == null) {
            g = newGrant.apply(id);
            local.set(new WeakReference<>(g));
        }
        int i = (int) id & (SLOTS - 1);
        WeakReference<Thread> ref = holders[i];
        Thread holder = ref == null ? null : ref.get();
        if (holder == null || !holder.isAlive()) {
            holders[i] = new WeakReference<>(t);
            grants[i] = g;
        }
        return g;
    }
}
