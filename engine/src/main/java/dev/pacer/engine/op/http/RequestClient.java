package dev.pacer.engine.op.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.1 requests that the caller renders itself, one per call (a workload's requests differ every cycle), over
 * keep-alive connections to one server on the http op's event loops: each connection carries one request at a
 * time; a request finds an idle connection (the most recently used) or waits in a queue for the next one released.
 * Responses are read whole with Netty's decoder and aggregator (bodies up to {@link #MAX_BODY}) and handed to the
 * caller on the connection's event loop. Thread-safe.
 *
 * <h2>Shared state</h2>
 * {@code idle}, {@code idleCount}, {@code pending}, {@code closed}: guarded by this object's monitor, written by
 * the senders and by the event loops that release a connection; a connection passes to its new owner through that
 * monitor, then through its event loop's task queue, which orders the new owner's reads after the old one's writes.
 */
public final class RequestClient implements AutoCloseable {

    /** The largest response body kept; a longer one fails its request. */
    public static final int MAX_BODY = 8 << 20;

    /** What the caller does with a response or a failure, called once on an event loop. */
    public interface Exchange {
        /** The response; {@code body} is valid only during the call. */
        void response(int status, HttpHeaders headers, ByteBuf body);

        /**
         * The request failed: refused, reset, timed out ({@link HttpTimeoutException}), or cancelled by
         * {@link #close()} ({@link java.util.concurrent.CancellationException}).
         */
        void failed(Throwable failure);
    }

    private record Pending(ByteBuf request, Exchange exchange) {
    }

    private final HttpTransport transport;
    private final InetSocketAddress address;
    private final long timeoutNanos;
    private final Connection[] all;
    private final Connection[] idle;
    private int idleCount;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private boolean closed;

    private RequestClient(HttpTransport transport, InetSocketAddress address, int connections, long timeoutNanos) {
        this.transport = transport;
        this.address = address;
        this.timeoutNanos = timeoutNanos;
        this.all = new Connection[connections];
        this.idle = new Connection[connections];
        for (int i = 0; i < connections; i++) {
            all[i] = new Connection(transport.next());
        }
        for (int i = connections - 1; i >= 0; i--) {
            idle[idleCount++] = all[i];
        }
    }

    /**
     * Opens a client to {@code host:port} (connections open on first use).
     *
     * @throws UnknownHostException when the host does not resolve
     */
    public static RequestClient open(String host, int port, int connections, int ioThreads, Duration connectTimeout,
                                     Duration requestTimeout, dev.pacer.ratelimit.NanoClock clock)
            throws UnknownHostException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(host), port);
        return new RequestClient(new HttpTransport(ioThreads, connectTimeout, clock), address, connections,
                requestTimeout.toNanos());
    }

    /** How many requests may be in flight at once: the connections. */
    public int capacity() {
        return all.length;
    }

    /**
     * Sends a whole HTTP/1.1 request (head and body, {@code length} bytes of {@code request}); the exchange is
     * called once with its response or failure. The bytes are copied before this returns.
     */
    public void send(byte[] request, int length, Exchange exchange) {
        ByteBuf buf = PooledByteBufAllocator.DEFAULT.ioBuffer(length).writeBytes(request, 0, length);
        Connection c;
        synchronized (this) {
            if (closed) {
                c = null;
            } else if (idleCount == 0) {
                pending.add(new Pending(buf, exchange));
                return;
            } else {
                c = idle[--idleCount];
                idle[idleCount] = null;
            }
        }
        if (c == null) {
            buf.release();
            exchange.failed(new ClosedChannelException());
            return;
        }
        c.dispatch(buf, exchange);
    }

    private void release(Connection c) {
        Pending next;
        synchronized (this) {
            next = pending.poll();
            if (next == null) {
                idle[idleCount++] = c;
                return;
            }
        }
        c.dispatch(next.request, next.exchange);
    }

    /** Closes the connections; requests queued or in flight fail with a {@code CancellationException}. */
    @Override
    public void close() {
        java.util.List<Pending> dropped;
        synchronized (this) {
            closed = true;
            dropped = new java.util.ArrayList<>(pending);
            pending.clear();
        }
        for (Pending p : dropped) {
            p.request.release();
            p.exchange.failed(new java.util.concurrent.CancellationException("the client closed"));
        }
        for (Connection c : all) {
            c.loop.execute(() -> {
                c.abandon();
                c.fail(new java.util.concurrent.CancellationException("the client closed"));
            });
        }
        transport.close();
    }

    /** One keep-alive connection: all its work runs on its event loop. */
    private final class Connection extends ChannelInboundHandlerAdapter {
        final EventLoop loop;
        private final Bootstrap bootstrap;
        /** Event loop only. */
        private Channel channel;
        private Exchange inFlight;
        private ScheduledFuture<?> timeout;

        Connection(EventLoop loop) {
            this.loop = loop;
            Connection self = this;
            this.bootstrap = transport.bootstrap(loop).handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new HttpResponseDecoder(), new HttpObjectAggregator(MAX_BODY), self);
                }
            });
        }

        @Override
        public boolean isSharable() {
            return true; // one channel at a time, replaced when it dies
        }

        void dispatch(ByteBuf request, Exchange exchange) {
            loop.execute(() -> start(request, exchange));
        }

        private void start(ByteBuf request, Exchange exchange) {
            inFlight = exchange;
            timeout = loop.schedule(this::timedOut, timeoutNanos, TimeUnit.NANOSECONDS);
            if (channel != null && channel.isActive()) {
                channel.writeAndFlush(request, channel.voidPromise());
                return;
            }
            ChannelFuture f = bootstrap.connect(address);
            Channel ch = f.channel();
            channel = ch;
            f.addListener(done -> {
                if (ch != channel || inFlight != exchange) {
                    request.release();
                    return;
                }
                if (done.isSuccess()) {
                    ch.writeAndFlush(request, ch.voidPromise());
                } else {
                    request.release();
                    channel = null;
                    fail(done.cause());
                }
            });
        }

        private void timedOut() {
            if (inFlight != null) {
                abandon();
                fail(new HttpTimeoutException("no response within the request timeout"));
            }
        }

        private void fail(Throwable t) {
            Exchange e = finish();
            if (e != null) {
                e.failed(t);
            }
        }

        /** Ends the request in flight: the connection goes back to the pool; returns its exchange, or null. */
        private Exchange finish() {
            Exchange e = inFlight;
            if (e == null) {
                return null;
            }
            inFlight = null;
            if (timeout != null) {
                timeout.cancel(false);
                timeout = null;
            }
            release(this);
            return e;
        }

        void abandon() {
            Channel ch = channel;
            channel = null;
            if (ch != null) {
                ch.close();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof FullHttpResponse r)) {
                io.netty.util.ReferenceCountUtil.release(msg);
                return;
            }
            try {
                if (ctx.channel() != channel) {
                    return;
                }
                if (r.decoderResult().isFailure()) {
                    abandon();
                    fail(r.decoderResult().cause());
                    return;
                }
                if (!HttpUtil.isKeepAlive(r)) {
                    abandon();
                }
                Exchange e = finish();
                if (e != null) {
                    e.response(r.status().code(), r.headers(), r.content());
                }
            } finally {
                r.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (ctx.channel() == channel) {
                channel = null;
                fail(new ClosedChannelException());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ctx.channel() == channel) {
                abandon();
                fail(cause);
            }
            ctx.close();
        }
    }
}
