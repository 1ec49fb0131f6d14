package dev.pacer.engine.op.http;

import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.AsciiString;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
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
 * nothing). Each request is a {@link Request} task handed to its connection's event loop by
 * {@link EventLoop#execute} (which orders the worker's writes before the loop's reads); everything else
 * of a connection is its event loop's alone. Each request completes exactly once: whoever removes it
 * from its channel's {@code active} (response end, reset, timeout, the channel's close) completes it; a
 * request a GOAWAY sends again is moved from {@code active} back to the queue, not completed.
 */
final class H2Sender implements HttpSender {

    /** The most streams one connection carries at once, whatever the server allows. */
    static final int STREAMS_PER_CONNECTION = 100;

    private final HttpTransport transport;
    private final HttpRequestTemplate template;
    private final HttpOutcomes outcomes;
    private final InetSocketAddress address;
    private final SslContext ssl;
    private final long timeoutNanos;
    private final Connection[] connections;
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
        this.fixedHeaders = template.isFixed() ? headers(0) : null;
        this.connections = new Connection[connections];
        long tick = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(TimeUnit.MILLISECONDS.toNanos(10), timeoutNanos / 20));
        for (int i = 0; i < connections; i++) {
            Connection c = new Connection(transport.next());
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

    private Http2Headers headers(long cycle) {
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
        Connection c = connections[Math.floorMod(next.getAndIncrement(), connections.length)];
        c.loop.execute(new Request(c, cycle, completion));
    }

    @Override
    public int capacity() {
        return connections.length * STREAMS_PER_CONNECTION;
    }

    @Override
    public void close() {
        closed = true;
        scanners.forEach(s -> s.cancel(false));
        for (Connection c : connections) {
            c.loop.execute(c::closeAll);
        }
    }

    /** One request: the task that sends it, then its stream's state. */
    private static final class Request implements Runnable {
        final Connection connection;
        final long cycle;
        final Completion completion;
        long sentNanos;
        int status;

        Request(Connection connection, long cycle, Completion completion) {
            this.connection = connection;
            this.cycle = cycle;
            this.completion = completion;
        }

        @Override
        public void run() {
            connection.submit(this);
        }
    }

    /**
     * One of the op's HTTP/2 connections, all of it on its event loop: the requests waiting for a stream, and
     * the channel that carries them ({@link Link}). After the server's GOAWAY that channel only finishes the
     * streams the server said it will process (up to its last stream id); the requests on streams above it
     * were never processed: they go back to the front of the queue, for a new channel, and are counted once,
     * when they complete there.
     */
    private final class Connection {
        final EventLoop loop;
        private final Bootstrap bootstrap;
        private final ArrayDeque<Request> waiting = new ArrayDeque<>();
        /** The channel new streams open on, or null (none yet, or it died, or the server sent GOAWAY). */
        private Link link;
        /** Channels after a GOAWAY with streams still to finish (rarely more than one). */
        private final List<Link> draining = new ArrayList<>(2);

        Connection(EventLoop loop) {
            this.loop = loop;
            this.bootstrap = transport.bootstrap(loop);
        }

        void submit(Request r) {
            if (closed) {
                r.completion.complete(Outcome.CANCELLED);
                return;
            }
            r.sentNanos = transport.clock.nanoTime();
            waiting.add(r);
            if (link == null) {
                connect();
            } else if (link.ready) {
                drain();
            }
        }

        private void connect() {
            Link l = new Link();
            link = l;
            ChannelFuture f = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (ssl != null) {
                        ch.pipeline().addLast(ssl.newHandler(ch.alloc(), template.host(), template.port()));
                    }
                    l.init(ch);
                }
            }).connect(address);
            l.ch = f.channel();
            f.addListener(done -> {
                if (l != link) {
                    return;
                }
                if (done.isSuccess()) {
                    l.handler = l.ch.pipeline().get(Http2ConnectionHandler.class);
                    l.ready = true;
                    drain();
                } else {
                    link = null;
                    failAll(HttpOutcomes.forFailure(done.cause()));
                }
            });
        }

        /** Opens streams for waiting requests while the server allows more. */
        void drain() {
            Link l = link;
            if (l == null || !l.ready || waiting.isEmpty()) {
                return;
            }
            Http2Connection.Endpoint<?> local = l.handler.connection().local();
            int limit = Math.min(STREAMS_PER_CONNECTION, local.maxActiveStreams());
            ChannelHandlerContext ctx = l.ch.pipeline().context(l.handler);
            boolean wrote = false;
            while (!waiting.isEmpty() && local.numActiveStreams() < limit) {
                Request r = waiting.poll();
                int id = local.incrementAndGetNextStreamId();
                if (id < 0) { // stream ids exhausted: a new connection
                    waiting.addFirst(r);
                    retire(l);
                    connect();
                    break;
                }
                Http2Headers headers = fixedHeaders != null ? fixedHeaders : headers(r.cycle);
                boolean body = template.hasBody();
                l.active.put(id, r);
                l.handler.encoder().writeHeaders(ctx, id, headers, 0, !body, ctx.voidPromise());
                if (body) {
                    l.handler.encoder().writeData(ctx, id, template.body(), 0, true, ctx.voidPromise());
                }
                wrote = true;
            }
            if (wrote) {
                ctx.flush();
            }
        }

        /** {@code l} takes no new streams: it finishes those it has, then closes. */
        private void retire(Link l) {
            if (link == l) {
                link = null;
            }
            if (l.active.isEmpty()) {
                l.ch.close();
            } else if (!draining.contains(l)) {
                draining.add(l);
            }
        }

        /** The server's GOAWAY on {@code l}: streams above {@code lastStreamId} were not processed; they go again. */
        void goAway(Link l, int lastStreamId) {
            List<Integer> above = new ArrayList<>();
            for (IntObjectMap.PrimitiveEntry<Request> e : l.active.entries()) {
                if (e.key() > lastStreamId) {
                    above.add(e.key());
                }
            }
            above.sort(null);
            for (int i = above.size() - 1; i >= 0; i--) {
                waiting.addFirst(l.active.remove(above.get(i))); // in their first order, before newer requests
            }
            retire(l);
            if (!waiting.isEmpty() && !closed && link == null) {
                connect();
            }
        }

        void finish(Link l, int streamId, Outcome outcome) {
            Request r = l.active.remove(streamId);
            if (r != null) {
                r.completion.complete(outcome);
            }
            if (l != link && l.active.isEmpty() && draining.remove(l)) {
                l.ch.close(); // the last stream a GOAWAY left has finished
            }
        }

        void checkTimeouts(long now) {
            if (link != null) {
                checkTimeouts(link, now);
            }
            for (int i = draining.size() - 1; i >= 0; i--) {
                checkTimeouts(draining.get(i), now);
            }
            while (!waiting.isEmpty() && now - waiting.peek().sentNanos > timeoutNanos) {
                waiting.poll().completion.complete(HttpOutcomes.TIMEOUT);
            }
        }

        private void checkTimeouts(Link l, long now) {
            if (l.active.isEmpty() || l.handler == null) {
                return;
            }
            List<Integer> late = null;
            for (IntObjectMap.PrimitiveEntry<Request> e : l.active.entries()) {
                if (now - e.value().sentNanos > timeoutNanos) {
                    (late == null ? late = new ArrayList<>() : late).add(e.key());
                }
            }
            if (late != null) {
                ChannelHandlerContext ctx = l.ch.pipeline().context(l.handler);
                for (int id : late) {
                    l.handler.resetStream(ctx, id, Http2Error.CANCEL.code(), ctx.newPromise());
                    finish(l, id, HttpOutcomes.TIMEOUT);
                }
                ctx.flush();
            }
        }

        /** {@code l}'s channel is gone: what was on it fails; what waits for it gets a new one. */
        void lost(Link l, Outcome outcome) {
            if (l.gone) {
                return;
            }
            l.gone = true;
            draining.remove(l);
            List<Request> dropped = new ArrayList<>(l.active.values());
            l.active.clear();
            dropped.forEach(r -> r.completion.complete(outcome));
            if (l == link) {
                link = null;
                if (!waiting.isEmpty() && !closed) {
                    connect();
                }
            }
        }

        private void failAll(Outcome outcome) {
            List<Request> dropped = new ArrayList<>(waiting);
            waiting.clear();
            dropped.forEach(r -> r.completion.complete(outcome));
        }

        void closeAll() {
            List<Link> links = new ArrayList<>(draining);
            if (link != null) {
                links.add(link);
            }
            link = null;
            draining.clear();
            for (Link l : links) {
                lost(l, Outcome.CANCELLED);
                l.ch.close();
            }
            failAll(Outcome.CANCELLED);
        }

        /**
         * One channel of this connection and the requests on its streams (stream ids are the channel's own).
         * Its handlers report to it; once {@link #gone} they report nothing.
         */
        private final class Link {
            Channel ch;
            final IntObjectMap<Request> active = new IntObjectHashMap<>();
            Http2ConnectionHandler handler;
            boolean ready;
            boolean gone;
            /**
             * What the streams still open count as when the channel dies: {@code reset}, or {@code protocol-error}
             * once this client sent a GOAWAY with an error (the server's bytes were not HTTP/2, e.g. an
             * HTTP/1.1-only server's answer to the preface).
             */
            Outcome lostAs = HttpOutcomes.RESET;

            /** Adds the HTTP/2 handlers to the new channel {@code ch}. */
            void init(Channel ch) {
                this.ch = ch;
                Http2Connection connection = new DefaultHttp2Connection(false);
                Http2ConnectionHandler h = new Http2ConnectionHandlerBuilder().connection(connection)
                        .frameListener(new Listener(this)).build();
                connection.addListener(new Http2ConnectionAdapter() {
                    @Override
                    public void onStreamClosed(Http2Stream stream) {
                        if (!gone) {
                            finish(Link.this, stream.id(), lostAs);
                            drain();
                        }
                    }

                    @Override
                    public void onGoAwayReceived(int lastStreamId, long errorCode, ByteBuf debugData) {
                        if (!gone) {
                            goAway(Link.this, lastStreamId);
                        }
                    }

                    @Override
                    public void onGoAwaySent(int lastStreamId, long errorCode, ByteBuf debugData) {
                        if (errorCode != Http2Error.NO_ERROR.code()) {
                            lostAs = HttpOutcomes.PROTOCOL;
                        }
                    }
                });
                ch.pipeline().addLast(h, new Closer(this));
            }
        }

        /** Reads responses: the status from the first non-interim headers, the end from END_STREAM. */
        private final class Listener extends Http2FrameAdapter {
            private final Link l;

            Listener(Link l) {
                this.l = l;
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                      boolean endOfStream) {
                if (l.gone) {
                    return;
                }
                Request r = l.active.get(streamId);
                if (r == null) {
                    return;
                }
                CharSequence status = headers.status();
                if (status != null && r.status == 0) {
                    int s = parseStatus(status);
                    if (s >= 200 || s < 100) {
                        r.status = s;
                    }
                }
                if (endOfStream) {
                    finish(l, streamId, r.status == 0 ? HttpOutcomes.PROTOCOL : outcomes.forStatus(r.status));
                }
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int streamDependency,
                                      short weight, boolean exclusive, int padding, boolean endOfStream) {
                onHeadersRead(ctx, streamId, headers, padding, endOfStream);
            }

            @Override
            public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
                int consumed = data.readableBytes() + padding;
                if (endOfStream && !l.gone) {
                    Request r = l.active.get(streamId);
                    if (r != null) {
                        finish(l, streamId, r.status == 0 ? HttpOutcomes.PROTOCOL : outcomes.forStatus(r.status));
                    }
                }
                return consumed;
            }

            @Override
            public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
                if (!l.gone) {
                    finish(l, streamId, HttpOutcomes.RESET);
                }
            }
        }

        /** After the HTTP/2 handler: the channel's end and its errors. */
        private final class Closer extends ChannelInboundHandlerAdapter {
            private final Link l;

            Closer(Link l) {
                this.l = l;
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                lost(l, l.lostAs);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                Outcome o = HttpOutcomes.forFailure(cause);
                ctx.close();
                lost(l, o);
            }
        }
    }

    private static int parseStatus(CharSequence s) {
        if (s.length() != 3) {
            return 0;
        }
        int v = 0;
        for (int i = 0; i < 3; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
