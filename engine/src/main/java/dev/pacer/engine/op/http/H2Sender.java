package dev.pacer.engine.op.http;

import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.AsciiString;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * HTTP/2: requests multiplexed as streams on a few connections (h2c with prior knowledge on http://,
 * ALPN "h2" on https://), spread round-robin. A connection opens on first use, and again after it
 * dies or the server sends GOAWAY (the requests above its last stream id are sent again there, once);
 * up to the server's SETTINGS_MAX_CONCURRENT_STREAMS (at most {@link #STREAMS_PER_CONNECTION}) streams
 * are open on one at once, more wait in its queue. A request older than the timeout completes as
 * {@code timeout} and its stream is reset (the connection stays: its other streams are fine). A server
 * that does not speak HTTP/2 (an HTTP/1.1-only one answering the preface) is a {@code protocol-error}.
 *
 * <h2>Shared state</h2>
 * {@code next}: an atomic counter, incremented by the sending workers (round-robin; readers assume
 * nothing). {@code closed}: volatile; written by {@link #close}, read by the sending workers and by the
 * connections' event loops. {@code scanners}: filled by the constructor, cancelled by {@link #close}.
 * Every other field is final. A request goes to its {@link H2Connection}, whose state is its event
 * loop's alone (see there, and there how each request completes exactly once).
 */
final class H2Sender implements HttpSender {

    /** The most streams one connection carries at once, whatever the server allows. */
    static final int STREAMS_PER_CONNECTION = 100;

    final HttpTransport transport;
    final HttpRequestTemplate template;
    final HttpOutcomes outcomes;
    final InetSocketAddress address;
    /** TLS for https:// (a handler per channel), or null. */
    final SslContext ssl;
    final long timeoutNanos;
    private final H2Connection[] connections;
    private final AtomicInteger next = new AtomicInteger();
    private final Http2Headers fixedHeaders;
    private final List<ScheduledFuture<?>> scanners = new ArrayList<>();
    private volatile boolean closed;

    H2Sender(HttpTransport transport, HttpRequestTemplate template, HttpOutcomes outcomes, InetSocketAddress address,
             SslContext ssl, int connections, long timeoutNanos) {
        this.transport = transport;
        this.template = template;
        this.outcomes = outcomes;
        this.address = address;
        this.ssl = ssl;
        this.timeoutNanos = timeoutNanos;
        this.fixedHeaders = template.isFixed() ? buildHeaders(0) : null;
        this.connections = new H2Connection[connections];
        long tick = Math.max(TimeUnit.MILLISECONDS.toNanos(1),
                Math.min(TimeUnit.MILLISECONDS.toNanos(10), timeoutNanos / 20));
        for (int i = 0; i < connections; i++) {
            H2Connection c = new H2Connection(this, transport.next());
            this.connections[i] = c;
            scanners.add(c.loop.scheduleAtFixedRate(() -> c.checkTimeouts(transport.clock.nanoTime()), tick, tick,
                    TimeUnit.NANOSECONDS));
        }
    }

    /** ALPN offering h2 only, for https:// with HTTP/2. */
    static void alpn(SslContextBuilder b) {
        b.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ApplicationProtocolNames.HTTP_2));
    }

    /** Whether {@link #close} was called. */
    boolean closed() {
        return closed;
    }

    /** The request headers of {@code cycle}: the same instance every time when the template has no {cycle}. */
    Http2Headers headers(long cycle) {
        return fixedHeaders != null ? fixedHeaders : buildHeaders(cycle);
    }

    private Http2Headers buildHeaders(long cycle) {
        Http2Headers h = new DefaultHttp2Headers().method(template.method()).scheme(template.scheme())
                .authority(template.authority()).path(template.path(cycle));
        boolean userAgent = false;
        for (String[] header : template.headers()) {
            // {cycle} in a value: replaced as HTTP/1.1 replaces it in the encoded head
            String value = header[1].contains(HttpRequestTemplate.CYCLE)
                    ? header[1].replace(HttpRequestTemplate.CYCLE, Long.toString(cycle)) : header[1];
            h.add(AsciiString.of(header[0]).toLowerCase(), value);
            userAgent |= header[0].equalsIgnoreCase("user-agent");
        }
        if (!userAgent) {
            h.add("user-agent", "pacer");
        }
        if (template.hasBody()) {
            h.addInt("content-length", template.bodyLength());
        }
        return h;
    }

    @Override
    public void send(long cycle, Completion completion) {
        if (closed) {
            completion.complete(Outcome.CANCELLED);
            return;
        }
        connections[Math.floorMod(next.getAndIncrement(), connections.length)].send(cycle, completion);
    }

    /** Connection {@code i}, for tests. */
    H2Connection connection(int i) {
        return connections[i];
    }

    @Override
    public int capacity() {
        return connections.length * STREAMS_PER_CONNECTION;
    }

    @Override
    public void close() {
        closed = true;
        scanners.forEach(s -> s.cancel(false));
        for (H2Connection c : connections) {
            c.close();
        }
    }
}
