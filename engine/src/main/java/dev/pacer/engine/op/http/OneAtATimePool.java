package dev.pacer.engine.op.http;

import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import dev.pacer.ratelimit.api.NanoClock;
import io.netty.channel.EventLoop;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.1 keep-alive connections that each carry one request (a workload: one cycle) at a time, taken by the
 * threads that send: a request takes an idle connection (the most recently used: hot connections stay hot, unused
 * ones are never opened), or waits in a queue for the next one released when all are busy (only when the run's
 * in-flight bound is above the number of connections). The http op's {@link H1Pool} and the workloads'
 * {@link RequestClient} each hold one.
 *
 * <h2>Shared state</h2>
 * {@code idle}, {@code idleCount}, {@code pending}, {@code closed}: guarded by this object's monitor; written by
 * the threads that send and by the event loops that release a connection. A connection passes to its new owner
 * through that monitor, then through its event loop's task queue ({@link Carrier#dispatch}), which orders the new
 * owner's reads after the old owner's writes. {@code all} and {@code scanners}: written in the constructor only.
 *
 * <p>Request timeouts: each event loop scans its own connections every tick (a twentieth of the timeout, 1 to
 * 10 ms) and each gives up a request older than the timeout: no timer task per request.
 *
 * @param <C> the connections
 */
final class OneAtATimePool<C extends OneAtATimePool.Carrier> {

    /** A connection of the pool: all its work runs on its one event loop. */
    interface Carrier {

        /** The event loop this connection's work runs on. */
        EventLoop loop();

        /** Hands this connection, just taken idle, a request to run on its event loop; called on any thread. */
        void dispatch(long cycle, Completion completion);

        /** On the event loop, every tick: gives up the request in flight if it is older than the timeout. */
        void checkTimeout(long now);
    }

    /** A request waiting for a connection (allocated only when every connection is busy). */
    private record Pending(long cycle, Completion completion) {
    }

    private final C[] all;
    private final C[] idle;
    private int idleCount;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /** Requests sent a second time after their reused connection closed unanswered: the event loops add. */
    private final java.util.concurrent.atomic.LongAdder resent = new java.util.concurrent.atomic.LongAdder();
    private boolean closed;
    private final List<ScheduledFuture<?>> scanners = new ArrayList<>();

    /**
     * A pool of {@code all}, connection 0 taken first, whose event loops scan them for timeouts.
     *
     * @param timeoutNanos the request timeout, which sets the tick of the scans
     */
    OneAtATimePool(C[] all, NanoClock clock, long timeoutNanos) {
        this.all = all.clone();
        this.idle = all.clone();
        // idle is a stack, its top the last: reversed, so that connection 0 is taken first
        for (int i = 0; i < idle.length; i++) {
            idle[i] = all[all.length - 1 - i];
        }
        this.idleCount = idle.length;
        long tick = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(TimeUnit.MILLISECONDS.toNanos(10),
                timeoutNanos / 20));
        List<EventLoop> loops = new ArrayList<>();
        for (C c : all) {
            if (!loops.contains(c.loop())) {
                loops.add(c.loop());
            }
        }
        for (EventLoop loop : loops) {
            List<C> mine = new ArrayList<>();
            for (C c : all) {
                if (c.loop() == loop) {
                    mine.add(c);
                }
            }
            scanners.add(loop.scheduleAtFixedRate(() -> {
                long now = clock.nanoTime();
                for (C c : mine) {
                    c.checkTimeout(now);
                }
            }, tick, tick, TimeUnit.NANOSECONDS));
        }
    }

    /** How many requests may be in flight at once: the connections. */
    int capacity() {
        return all.length;
    }

    /** The first {@code n} connections requests will take now (the top of the idle stack), first first. */
    synchronized List<C> nextIdle(int n) {
        List<C> next = new ArrayList<>();
        for (int i = idleCount - 1; i >= Math.max(0, idleCount - n); i--) {
            next.add(idle[i]);
        }
        return next;
    }

    /**
     * Runs {@code cycle} on an idle connection, or queues it for the next one released; after {@link #close()} it
     * completes as {@link Outcome#NOT_SENT} at once.
     */
    void send(long cycle, Completion completion) {
        C c;
        synchronized (this) {
            if (closed) {
                c = null;
            } else if (idleCount == 0) {
                pending.add(new Pending(cycle, completion));
                return;
            } else {
                c = idle[--idleCount];
                idle[idleCount] = null;
            }
        }
        if (c == null) {
            completion.complete(Outcome.NOT_SENT);
            return;
        }
        c.dispatch(cycle, completion);
    }

    /**
     * A connection's request is done (called on its event loop): it takes the next queued request, or goes idle: on
     * top when {@code open} (taken next: hot connections stay hot), else at the bottom (a connection refused or
     * reset is tried again last, not first, while open ones stand idle).
     */
    void release(C c, boolean open) {
        Pending next;
        synchronized (this) {
            next = pending.poll();
            if (next == null) {
                if (open) {
                    idle[idleCount++] = c;
                } else {
                    System.arraycopy(idle, 0, idle, 1, idleCount++);
                    idle[0] = c;
                }
                return;
            }
        }
        c.dispatch(next.cycle, next.completion);
    }

    /** A connection sent its request a second time (on its event loop). */
    void countResend() {
        resent.increment();
    }

    /** How many requests were sent a second time so far. */
    long resent() {
        return resent.sum();
    }

    /**
     * Completes the requests queued for a connection as {@link Outcome#NOT_SENT} (none of their bytes written), on the
     * caller's thread; the connections and the requests on them go on.
     */
    void abandonQueued() {
        List<Pending> dropped;
        synchronized (this) {
            dropped = new ArrayList<>(pending);
            pending.clear();
        }
        dropped.forEach(p -> p.completion.complete(Outcome.NOT_SENT));
    }

    /**
     * Takes no more requests: those queued complete as {@link Outcome#NOT_SENT} (no byte of theirs was written: they
     * waited for a connection to the end, as the run's own slots waiting for an in-flight one do), the scans stop.
     * The connections (and the requests on them) are their owner's to close.
     */
    void close() {
        synchronized (this) {
            closed = true; // send() queues nothing after this: what is queued now is all abandonQueued() finds
        }
        scanners.forEach(s -> s.cancel(false));
        abandonQueued();
    }
}
