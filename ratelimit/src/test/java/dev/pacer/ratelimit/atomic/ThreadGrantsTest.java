package dev.pacer.ratelimit.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.RateLimiter;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The per-thread grants behind acquire(): one per thread, stable, whatever the thread ids collide on. */
class ThreadGrantsTest {

    @Test
    void aThreadAlwaysGetsItsOwnGrant() throws Exception {
        AtomicInteger created = new AtomicInteger();
        LockFreeRateLimiter limiter = (LockFreeRateLimiter) RateLimiters.create(1e6, 0);
        ThreadGrants grants = new ThreadGrants(id -> {
            created.incrementAndGet();
            return limiter.newGrant(id);
        });
        // more live threads than cache slots, so ids collide and some threads stay on the thread-local
        int threads = 600;
        CyclicBarrier allStarted = new CyclicBarrier(threads);
        Map<Grant, Integer> owners = new IdentityHashMap<>();
        List<Thread> workers = new ArrayList<>();
        AtomicInteger unstable = new AtomicInteger();
        for (int t = 0; t < threads; t++) {
            int me = t;
            Thread w = Thread.ofVirtual().unstarted(() -> {
                try {
                    Grant first = grants.get();
                    allStarted.await();
                    for (int i = 0; i < 1_000; i++) {
                        if (grants.get() != first) {
                            unstable.incrementAndGet();
                        }
                    }
                    synchronized (owners) {
                        owners.put(first, me);
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        assertEquals(0, unstable.get(), "a thread was handed another grant than its own");
        assertEquals(threads, owners.size(), "two threads shared a grant");
        assertEquals(threads, created.get());
    }

    @Test
    void threadsComingAndGoingNeverGetAnotherThreadsGrant() throws Exception {
        LockFreeRateLimiter limiter = (LockFreeRateLimiter) RateLimiters.create(1e6, 0);
        ThreadGrants grants = new ThreadGrants(limiter::newGrant);
        Grant main = grants.get();
        Map<Grant, Boolean> given = new IdentityHashMap<>();
        for (int round = 0; round < 1_000; round++) {
            Grant[] seen = new Grant[2];
            Thread t = new Thread(() -> {
                seen[0] = grants.get();
                seen[1] = grants.get();
            });
            t.start();
            t.join();
            assertSame(seen[0], seen[1]);
            assertEquals(null, given.put(seen[0], true), "a new thread was given a dead thread's grant");
            assertEquals(false, seen[0] == main, "a new thread was given the main thread's grant");
        }
        assertSame(main, grants.get());
    }

    @Test
    void aDroppedLimiterIsNotKeptAliveByTheThreadsThatAcquiredFromIt() throws Exception {
        // this (long-lived) thread acquires through the per-thread grant, then drops the limiter
        WeakReference<RateLimiter> dropped = acquireOnceAndDrop();
        for (int i = 0; i < 50 && dropped.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(dropped.get(), "the thread's grant kept the limiter reachable");
    }

    private static WeakReference<RateLimiter> acquireOnceAndDrop() {
        RateLimiter limiter = RateLimiters.create(1e6, 0);
        limiter.acquire();
        limiter.tryAcquire();
        return new WeakReference<>(limiter);
    }
}
