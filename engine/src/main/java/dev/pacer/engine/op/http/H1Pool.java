package dev.pacer.engine.op.http;

import dev.pacer.engine.api.Completion;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.1 keep-alive connections to one server for the http op, each carrying one request at a time, taken from
 * a {@link OneAtATimePool} (the most recently used first; a queue when all are busy). Connections open on first use
 * and reopen after they die. Everything but the pool's state is written in the constructor only.
 */
final class H1Pool implements HttpSender {

    final HttpTransport transport;
    final HttpRequestTemplate template;
    final HttpOutcomes outcomes;
    final InetSocketAddress address;
    /** TLS for https:// (a handler per connection), or null. */
    final SslContext ssl;
    final long timeoutNanos;
    private final H1Connection[] all;
    private final OneAtATimePool<H1Connection> pool;

    H1Pool(HttpTransport transport, HttpRequestTemplate template, HttpOutcomes outcomes, InetSocketAddress address,
           SslContext ssl, int connections, long timeoutNanos) {
        this.transport = transport;
        this.ssl = ssl;
        this.template = template;
        this.outcomes = outcomes;
        this.address = address;
        this.timeoutNanos = timeoutNanos;
        this.all = new H1Connection[connections];
        for (int i = 0; i < connections; i++) {
            all[i] = new H1Connection(this, transport.next());
        }
        this.pool = new OneAtATimePool<>(all, transport.clock, timeoutNanos);
    }

    @Override
    public int capacity() {
        return pool.capacity();
    }

    /** Connection {@code i}, for tests. */
    H1Connection connection(int i) {
        return all[i];
    }

    /** Opens the first {@code connections} that requests will take (the top of the idle stack), before any request. */
    @Override
    public void open(int connections, long timeoutMillis) throws InterruptedException {
        List<java.util.concurrent.CompletableFuture<Void>> opened = new ArrayList<>();
        for (H1Connection c : pool.nextIdle(connections)) {
            opened.add(c.open());
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
        pool.send(cycle, completion);
    }

    /** A connection's request is done (called on its event loop): it takes the next queued request, or goes idle. */
    void release(H1Connection c, boolean open) {
        pool.release(c, open);
    }

    /** A connection sent its request a second time (on its event loop). */
    void countResend() {
        pool.countResend();
    }

    @Override
    public long resent() {
        return pool.resent();
    }

    @Override
    public void abandonQueued() {
        pool.abandonQueued();
    }

    /** Closes every connection; queued requests complete as not-sent. */
    @Override
    public void close() {
        pool.close();
        for (H1Connection c : all) {
            c.closeFromOutside();
        }
    }
}
