package dev.pacer.engine.op.http;

import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.1 keep-alive connections to one server, each carrying one request at a time: a request takes
 * an idle connection (the most recently used: hot connections stay hot, unused ones are never opened),
 * or waits in a queue for one when all are busy (only when the run's in-flight bound is above the
 * number of connections). Connections open on first use and reopen after they die.
 *
 * <h2>Shared state</h2>
 * {@code idle}, {@code idleCount}, {@code pending}, {@code closed}: guarded by this pool's monitor;
 * written by the workers that send and by the event loops that release a connection. Handing a
 * connection from one to the other goes through that monitor, then through the event loop's task queue
 * (see {@link H1Connection}): each step orders the new owner's reads after the old owner's writes.
 *
 * <p>Request timeouts: each event loop scans its own connections every {@link #tickNanos} and times out
 * those whose request has waited longer than the timeout (no timer task per request).
 */
final class H1Pool implements HttpSender {

    /** A request queued for a connection (allocated only when every connection is busy). */
    private record Pending(long cycle, Completion completion) {
    }

    final HttpTransport transport;
    final HttpRequestTemplate template;
    final HttpOutcomes outcomes;
    final InetSocketAddress address;
    /** TLS for https:// (a handler per connection), or null. */
    final SslContext ssl;
    final long timeoutNanos;
    private final long tickNanos;
    private final H1Connection[] all;
    private final H1Connection[] idle;
    private int idleCount;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private boolean closed;
    private final List<ScheduledFuture<?>> scanners = new ArrayList<>();

    H1Pool(HttpTransport transport, HttpRequestTemplate template, HttpOutcomes outcomes, InetSocketAddress address,
           SslContext ssl, int connections, long timeoutNanos) {
        this.transport = transport;
        this.ssl = ssl;
        this.template = template;
        this.outcomes = outcomes;
        this.address = address;
        this.timeoutNanos = timeoutNanos;
        this.tickNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(TimeUnit.MILLISECONDS.toNanos(10),
                timeoutNanos / 20));
        this.all = new H1Connection[connections];
        this.idle = new H1Connection[connections];
        List<EventLoop> loops = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            EventLoop loop = transport.next();
            all[i] = new H1Connection(this, loop);
            if (!loops.contains(loop)) {
                loops.add(loop);
            }
        }
        // idle is a stack: the last pushed is used first; push in reverse so connection 0 is first
        for (int i = connections - 1; i >= 0; i--) {
            idle[idleCount++] = all[i];
        }
        for (EventLoop loop : loops) {
            List<H1Connection> mine = new ArrayList<>();
            for (H1Connection c : all) {
                if (c.loop == loop) {
                    mine.add(c);
                }
            }
            H1Connection[] own = mine.toArray(H1Connection[]::new);
            scanners.add(loop.scheduleAtFixedRate(() -> {
                long now = transport.clock.nanoTime();
                for (H1Connection c : own) {
                    c.checkTimeout(now);
                }
            }, tickNanos, tickNanos, TimeUnit.NANOSECONDS));
        }
    }

    @Override
    public int capacity() {
        return all.length;
    }

    /** Opens the first {@code connections} that requests will take (the top of the idle stack), before any request. */
    @Override
    public void open(int connections, long timeoutMillis) throws InterruptedException {
        List<java.util.concurrent.CompletableFuture<Void>> opened = new ArrayList<>();
        synchronized (this) {
            for (int i = idleCount - 1; i >= Math.max(0, idleCount - connections); i--) {
                opened.add(idle[i].open());
            }
        }
        try {
            java.util.concurrent.CompletableFuture.allOf(opened.toArray(java.util.concurrent.CompletableFuture[]::new))
                    .get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // those not open yet open with their first request, as without this
        }
    }

    /** Sends one request on an idle connection, or queues it for the next one released. */
    @Override
    public void send(long cycle, Completion completion) {
        H1Connection c;
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
            completion.complete(Outcome.CANCELLED);
            return;
        }
        c.dispatch(cycle, completion);
    }

    /** A connection's request is done (called on its event loop): it takes the next queued request, or goes idle. */
    void release(H1Connection c) {
        Pending next;
        synchronized (this) {
            next = pending.poll();
            if (next == null) {
                idle[idleCount++] = c;
                return;
            }
        }
        c.dispatch(next.cycle, next.completion);
    }

    /** Closes every connection; queued requests complete as cancelled. */
    @Override
    public void close() {
        List<Pending> dropped;
        synchronized (this) {
            closed = true;
            dropped = new ArrayList<>(pending);
            pending.clear();
        }
        dropped.forEach(p -> p.completion.complete(Outcome.CANCELLED));
        scanners.forEach(s -> s.cancel(false));
        for (H1Connection c : all) {
            c.closeFromOutside();
        }
    }
}
