package dev.pacer.engine.op.http;

import dev.pacer.engine.op.Completion;
import dev.pacer.engine.op.Outcome;
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
 * dies; up to the server's SETTINGS_MAX_CONCURRENT_STREAMS (at most {@link #STREAMS_PER_CONNECTION})
 * streams are open on one at once, more wait in its queue. A request older than the timeout completes
 * as {@code timeout} and its stream is reset (the connection stays: its other streams are fine).
 *
 * <h2>Shared state</h2>
 * {@code next}: an atomic counter, incremented by the sending workers (round-robin; readers assume
 * nothing). Each request is a {@link Request} task handed to its connection's event loop by
 * {@link EventLoop#execute} (which orders the worker's writes before the loop's reads); everything else
 * of a connection is its event loop's alone. Each request completes exactly once: whoever removes it
 * from {@code active} (response end, reset, timeout, the connection's close) completes it.
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
            scanners.add(c.loop.scheduleAtFixedRate(() -> c.checkTimeouts(System.nanoTime()), tick, tick, TimeUnit.NANOSECONDS));
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

    /** One HTTP/2 connection; all of it runs on its event loop. */
    private final class Connection {
        final EventLoop loop;
        private final Bootstrap bootstrap;
        private final ArrayDeque<Request> waiting = new ArrayDeque<>();
        private final IntObjectMap<Request> active = new IntObjectHashMap<>();
        private Channel channel;
        private Http2ConnectionHandler handler;
        private boolean ready;

        Connection(EventLoop loop) {
            this.loop = loop;
            this.bootstrap = transport.bootstrap(loop).handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (ssl != null) {
                        ch.pipeline().addLast(ssl.newHandler(ch.alloc(), template.host(), template.port()));
                    }
                    Http2Connection connection = new DefaultHttp2Connection(false);
                    Http2ConnectionHandler h = new Http2ConnectionHandlerBuilder().connection(connection)
                            .frameListener(new Listener(ch)).build();
                    connection.addListener(new Http2ConnectionAdapter() {
                        @Override
                        public void onStreamClosed(Http2Stream stream) {
                            if (ch == channel) {
                                Request r = active.remove(stream.id());
                                if (r != null) {
                                    r.completion.complete(HttpOutcomes.RESET);
                                }
                                drain();
                            }
                        }
                    });
                    ch.pipeline().addLast(h, new Closer(ch));
                }
            });
        }

        void submit(Request r) {
            if (closed) {
                r.completion.complete(Outcome.CANCELLED);
                return;
            }
            r.sentNanos = System.nanoTime();
            waiting.add(r);
            if (channel == null) {
                connect();
            } else if (ready) {
                drain();
            }
        }

        private void connect() {
            ChannelFuture f = bootstrap.connect(address);
            Channel ch = f.channel();
            channel = ch;
            ready = false;
            f.addListener(done -> {
                if (ch != channel) {
                    return;
                }
                if (done.isSuccess()) {
                    handler = ch.pipeline().get(Http2ConnectionHandler.class);
                    ready = true;
                    drain();
                } else {
                    channel = null;
                    failAll(HttpOutcomes.forFailure(done.cause()));
                }
            });
        }

        /** Opens streams for waiting requests while the server allows more. */
        void drain() {
            if (!ready || waiting.isEmpty()) {
                return;
            }
            Http2Connection.Endpoint<?> local = handler.connection().local();
            int limit = Math.min(STREAMS_PER_CONNECTION, local.maxActiveStreams());
            ChannelHandlerContext ctx = channel.pipeline().context(handler);
            boolean wrote = false;
            while (!waiting.isEmpty() && local.numActiveStreams() < limit) {
                Request r = waiting.poll();
                int id = local.incrementAndGetNextStreamId();
                if (id < 0) { // stream ids exhausted: a new connection
                    waiting.addFirst(r);
                    channel.close();
                    return;
                }
                Http2Headers headers = fixedHeaders != null ? fixedHeaders : headers(r.cycle);
                boolean body = template.hasBody();
                active.put(id, r);
                handler.encoder().writeHeaders(ctx, id, headers, 0, !body, ctx.voidPromise());
                if (body) {
                    handler.encoder().writeData(ctx, id, template.body(), 0, true, ctx.voidPromise());
                }
                wrote = true;
            }
            if (wrote) {
                ctx.flush();
            }
        }

        void finish(int streamId, Outcome outcome) {
            Request r = active.remove(streamId);
            if (r != null) {
                r.completion.complete(outcome);
            }
        }

        void checkTimeouts(long now) {
            if (active.isEmpty() && waiting.isEmpty()) {
                return;
            }
            List<Integer> late = null;
            for (IntObjectMap.PrimitiveEntry<Request> e : active.entries()) {
                if (now - e.value().sentNanos > timeoutNanos) {
                    (late == null ? late = new ArrayList<>() : late).add(e.key());
                }
            }
            if (late != null) {
                ChannelHandlerContext ctx = channel.pipeline().context(handler);
                for (int id : late) {
                    finish(id, HttpOutcomes.TIMEOUT);
                    handler.resetStream(ctx, id, Http2Error.CANCEL.code(), ctx.newPromise());
                }
                ctx.flush();
            }
            while (!waiting.isEmpty() && now - waiting.peek().sentNanos > timeoutNanos) {
                waiting.poll().completion.complete(HttpOutcomes.TIMEOUT);
            }
        }

        /** The connection is gone: what was on it fails; what waits for it gets a new one. */
        void lost(Channel ch, Outcome outcome) {
            if (ch != channel) {
                return;
            }
            channel = null;
            ready = false;
            List<Request> dropped = new ArrayList<>(active.values());
            active.clear();
            dropped.forEach(r -> r.completion.complete(outcome));
            if (!waiting.isEmpty() && !closed) {
                connect();
            }
        }

        private void failAll(Outcome outcome) {
            List<Request> dropped = new ArrayList<>(active.values());
            dropped.addAll(waiting);
            active.clear();
            waiting.clear();
            dropped.forEach(r -> r.completion.complete(outcome));
        }

        void closeAll() {
            Channel ch = channel;
            channel = null;
            ready = false;
            failAll(Outcome.CANCELLED);
            if (ch != null) {
                ch.close();
            }
        }

        /** Reads responses: the status from the first non-interim headers, the end from END_STREAM. */
        private final class Listener extends Http2FrameAdapter {
            private final Channel ch;

            Listener(Channel ch) {
                this.ch = ch;
            }

            @Override
            public void onHeadersRead(ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding,
                                      boolean endOfStream) {
                if (ch != channel) {
                    return;
                }
                Request r = active.get(streamId);
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
                    finish(streamId, r.status == 0 ? HttpOutcomes.PROTOCOL : outcomes.forStatus(r.status));
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
                if (endOfStream && ch == channel) {
                    Request r = active.get(streamId);
                    if (r != null) {
                        finish(streamId, r.status == 0 ? HttpOutcomes.PROTOCOL : outcomes.forStatus(r.status));
                    }
                }
                return consumed;
            }

            @Override
            public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
                if (ch == channel) {
                    finish(streamId, HttpOutcomes.RESET);
                }
            }
        }

        /** After the HTTP/2 handler: the channel's end and its errors. */
        private final class Closer extends ChannelInboundHandlerAdapter {
            private final Channel ch;

            Closer(Channel ch) {
                this.ch = ch;
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                lost(ch, HttpOutcomes.RESET);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                Outcome o = HttpOutcomes.forFailure(cause);
                ctx.close();
                lost(ch, o);
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
