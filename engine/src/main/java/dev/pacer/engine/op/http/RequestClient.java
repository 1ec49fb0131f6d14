package dev.pacer.engine.op.http;

import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.netty.handler.ssl.SslContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/**
 * HTTP/1.1 requests that the caller renders itself (a workload's requests differ every cycle), over keep-alive
 * connections to one server on the http op's event loops. A cycle takes an idle connection (the most recently used)
 * or waits in a queue for the next one released, and keeps it until it ends: its requests (a workload's steps) go
 * one after another on that connection, each written from the previous one's response, and the cycle completes
 * once. Each connection has its own {@link Exchange}, made once, which renders the requests and judges the
 * responses; responses are read by {@link H1ResponseParser}, which keeps the headers or the body (up to
 * {@link #MAX_BODY}) only when the exchange asks, in arrays the connection reuses. So a cycle allocates nothing on
 * its way here once the connections are warm. Thread-safe.
 *
 * <p>The connections are taken from a {@link OneAtATimePool}, which also scans them for request timeouts; a
 * connection passes to its new owner through the pool's monitor, then through its event loop's task queue
 * ({@link Connection#dispatch}), which orders the new owner's reads after the old one's writes. Everything else of
 * a connection is its event loop's alone; the client's own fields are written in the constructor only.
 */
public final class RequestClient implements AutoCloseable {

    /** The largest response body kept; a longer one fails its request. */
    public static final int MAX_BODY = 8 << 20;

    /**
     * What one connection sends and how it judges what comes back: one per connection, made by the client's factory,
     * called on that connection's event loop only, one cycle at a time. A cycle's requests go in turn; it ends with
     * one outcome. A request is a buffer from the allocator it is given, head and body, which the client writes and
     * releases. A method that throws ends the cycle with {@link Outcome#forThrowable}.
     */
    public interface Exchange {

        /** Begins {@code cycle}: its first request. */
        ByteBuf begin(long cycle, ByteBufAllocator alloc);

        /** Whether the response to the request just returned must keep its header lines. */
        boolean keepsHeaders();

        /** Whether the response to the request just returned must keep its body. */
        boolean keepsBody();

        /**
         * Whether the request just returned is idempotent (RFC 9110 9.2.2: GET, HEAD, PUT, DELETE, OPTIONS, TRACE),
         * so that it may go again when a reused connection closes before a byte of its response.
         */
        boolean idempotent();

        /** Whether {@code method} is idempotent (RFC 9110 9.2.2): GET, HEAD, PUT, DELETE, OPTIONS, TRACE. */
        static boolean idempotentMethod(String method) {
            return switch (method) {
                case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE" -> true;
                default -> false;
            };
        }

        /**
         * The response to the request last returned (valid during this call only): the cycle's next request, or null
         * when the cycle is over, with {@link #outcome()}.
         */
        ByteBuf next(H1Response response, ByteBufAllocator alloc);

        /** The outcome of the cycle that {@link #next} just ended (null: ok). */
        Outcome outcome();

        /**
         * The cycle's outcome when its request failed: refused, reset, timed out ({@link HttpTimeoutException}),
         * cancelled by {@link #close()} ({@link CancellationException}), a response that is not HTTP/1.x
         * ({@link ProtocolException}) or whose body is over {@link #MAX_BODY}
         * ({@link H1Response.BodyTooLargeException}).
         */
        Outcome failed(Throwable failure);
    }

    private final HttpTransport transport;
    private final boolean ownsTransport;
    private final InetSocketAddress address;
    /** TLS for an https:// base (a handler per connection, its SNI the base's host), or null. */
    private final SslContext ssl;
    private final String host;
    private final long timeoutNanos;
    private final Connection[] all;
    private final OneAtATimePool<Connection> pool;

    private RequestClient(HttpTransport transport, boolean ownsTransport, InetSocketAddress address, SslContext ssl,
                          String host, int connections, long timeoutNanos, Supplier<? extends Exchange> exchanges) {
        this.transport = transport;
        this.ownsTransport = ownsTransport;
        this.address = address;
        this.ssl = ssl;
        this.host = host;
        this.timeoutNanos = timeoutNanos;
        this.all = new Connection[connections];
        for (int i = 0; i < connections; i++) {
            all[i] = new Connection(transport.next(), exchanges.get());
        }
        this.pool = new OneAtATimePool<>(all, transport.clock, timeoutNanos);
    }

    /**
     * Opens a client to {@code base}'s host and port, {@code http://} or {@code https://} (port 80 or 443 unless it
     * says), TLS trusting any certificate when {@code insecure}; connections open on first use, or with
     * {@link #openAhead(int, long)}, each with an exchange from {@code exchanges}.
     *
     * @throws UnknownHostException when the host does not resolve
     * @throws SSLException when the JDK's TLS cannot be set up
     */
    public static RequestClient open(URI base, boolean insecure, int connections, int ioThreads,
                                     Duration connectTimeout, Duration requestTimeout,
                                     dev.pacer.ratelimit.api.NanoClock clock, Supplier<? extends Exchange> exchanges)
            throws UnknownHostException, SSLException {
        boolean tls = "https".equals(base.getScheme());
        int port = base.getPort() >= 0 ? base.getPort() : tls ? 443 : 80;
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(base.getHost()), port);
        SslContext ssl = tls ? HttpOpProvider.ssl(insecure, false) : null;
        HttpTransport transport = new HttpTransport(ioThreads, connectTimeout, clock);
        try {
            return new RequestClient(transport, true, address, ssl, base.getHost(), connections,
                    requestTimeout.toNanos(), exchanges);
        } catch (RuntimeException | Error e) {
            transport.close();
            throw e;
        }
    }

    /**
     * Another client on this one's event loops, to {@code address} (a warm-up's private server, plain HTTP), with
     * {@code connections} connections and exchanges from {@code exchanges}; closing it leaves the event loops to
     * this one.
     */
    public RequestClient to(InetSocketAddress address, int connections, Supplier<? extends Exchange> exchanges) {
        return new RequestClient(transport, false, address, null, null, connections, timeoutNanos, exchanges);
    }

    HttpTransport transport() {
        return transport;
    }

    /**
     * Opens up to {@code max} of the connections ahead of their first cycle (TCP only: nothing is sent), waiting at
     * most {@code timeoutMillis} for them; those not open by then open with their first cycle.
     */
    public void openAhead(int max, long timeoutMillis) throws InterruptedException {
        int n = Math.min(max, all.length);
        java.util.concurrent.CountDownLatch opened = new java.util.concurrent.CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            all[i].open(opened);
        }
        opened.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** How many cycles may be in flight at once: the connections. */
    public int capacity() {
        return pool.capacity();
    }

    /**
     * Runs {@code cycle} on a connection (now, or when one is released) and completes {@code completion} once with
     * its outcome, on that connection's event loop; a cycle sent after {@link #close()}, or still queued then,
     * completes as {@link Outcome#NOT_SENT} at once.
     */
    public void send(long cycle, Completion completion) {
        pool.send(cycle, completion);
    }

    /** The line for {@code n} requests sent twice, or null when none was. */
    public static String resentLine(long n) {
        return n == 0 ? null : String.format(java.util.Locale.ROOT, "pacer: http client resent %,d request%s once, "
                + "after a reused connection closed without answering (RFC 9110 9.2.2: idempotent ones): the server "
                + "received %,d more than the ops counted", n, n == 1 ? "" : "s", n);
    }

    /** Requests sent a second time (after a reused connection closed unanswered), so far. */
    public long resent() {
        return pool.resent();
    }

    /** Completes the cycles queued for a connection as {@link Outcome#NOT_SENT}: none of their bytes was written. */
    public void abandonQueued() {
        pool.abandonQueued();
    }

    /**
     * Closes the connections: cycles queued complete as {@link Outcome#NOT_SENT}, those in flight as their exchange
     * says of a {@link CancellationException}.
     */
    @Override
    public void close() {
        pool.close();
        for (Connection c : all) {
            c.loop.execute(c::cancel);
        }
        if (ownsTransport) {
            transport.close();
        }
    }

    /** One keep-alive connection and its exchange: all its work runs on its event loop; it is its own task. */
    private final class Connection implements Runnable, OneAtATimePool.Carrier {
        final EventLoop loop;
        final Exchange exchange;
        private final Bootstrap bootstrap;
        private final H1ResponseParser parser = new H1ResponseParser();
        private final H1Response response = new H1Response(MAX_BODY);

        // handed over by the taker (see the class comment), read in run()
        private long nextCycle;
        private Completion next;

        // the event loop's
        private Channel channel;
        private Completion inFlight;
        private long sentNanos;
        /** Responses read on the current channel: above 0 it is a reused keep-alive connection. */
        private int served;
        /**
         * The request on the wire, kept (a retained duplicate) while it may go again: sent idempotent on a reused
         * connection, and not yet resent. Released when its response is whole, when it is resent, or dropped.
         */
        private ByteBuf again;
        /** {@link #open}'s connect, while its channel is this connection's: a first request waits for it. */
        private ChannelFuture opening;
        /** Set by {@link #cancel}: a cycle handed over after it is cancelled, not begun. */
        private boolean closed;

        Connection(EventLoop loop, Exchange exchange) {
            this.loop = loop;
            this.exchange = exchange;
            this.bootstrap = transport.bootstrap(loop).handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (ssl != null) {
                        ch.pipeline().addLast(ssl.newHandler(ch.alloc(), host, address.getPort()));
                    }
                    ch.pipeline().addLast(new Handler());
                }
            });
        }

        /** Opens a channel, if it has none, on its event loop; counts {@code opened} down either way. */
        void open(java.util.concurrent.CountDownLatch opened) {
            loop.execute(() -> {
                if (channel != null) {
                    opened.countDown();
                    return;
                }
                ChannelFuture f = bootstrap.connect(address);
                Channel ch = f.channel();
                channel = ch;
                opening = f;
                served = 0;
                f.addListener(done -> {
                    if (!done.isSuccess() && ch == channel && inFlight == null) {
                        channel = null; // its first cycle connects again (a cycle waiting for it: waitForOpening)
                    }
                    opened.countDown();
                });
            });
        }

        @Override
        public EventLoop loop() {
            return loop;
        }

        /**
         * Hands this (idle) connection a cycle; called by its owner, on any thread. One handed over as the client
         * closes completes as {@link Outcome#CANCELLED}, here when the event loop has shut down, else in {@link #run}.
         */
        @Override
        public void dispatch(long cycle, Completion completion) {
            this.nextCycle = cycle;
            this.next = completion;
            try {
                loop.execute(this);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                next = null;
                completion.complete(Outcome.CANCELLED);
            }
        }

        /** On the event loop: begins the cycle handed over. */
        @Override
        public void run() {
            if (closed) { // handed over as the client closed, after this connection's cancel ran
                Completion c = next;
                next = null;
                c.complete(Outcome.CANCELLED);
                return;
            }
            inFlight = next;
            next = null;
            ByteBuf request;
            try {
                request = exchange.begin(nextCycle, alloc());
            } catch (RuntimeException e) {
                finish(Outcome.forThrowable(e));
                return;
            }
            send(request);
        }

        private ByteBufAllocator alloc() {
            return channel != null ? channel.alloc() : PooledByteBufAllocator.DEFAULT;
        }

        /** Writes a request of the cycle in flight, on the open channel or a new one. */
        private void send(ByteBuf request) {
            sentNanos = transport.clock.nanoTime();
            parser.reset(false, response, exchange.keepsHeaders(), exchange.keepsBody()); // a workload sends no HEAD
            dropAgain();
            if (channel != null && channel.isActive()) {
                if (served > 0 && exchange.idempotent()) {
                    again = request.retainedDuplicate();
                }
                channel.writeAndFlush(request, channel.voidPromise());
                return;
            }
            if (!waitForOpening(request)) {
                abandon(); // a channel that died
                connectAndWrite(request);
            }
        }

        /**
         * When the channel is {@link #open}'s, still connecting: {@code request} goes once it is open (or on a new
         * connection if it failed), rather than on a second connection beside it. True if it waits.
         */
        private boolean waitForOpening(ByteBuf request) {
            ChannelFuture f = opening;
            if (f == null || f.isDone() || f.channel() != channel) {
                return false;
            }
            f.addListener(done -> {
                if (f.channel() != channel || inFlight == null) {
                    request.release(); // given up meanwhile (timeout, close)
                } else if (done.isSuccess()) {
                    channel.writeAndFlush(request, channel.voidPromise());
                } else {
                    channel = null;
                    connectAndWrite(request);
                }
            });
            return true;
        }

        /**
         * The channel closed or was reset before a byte of the response: when it was a reused keep-alive connection
         * the server most likely closed it as idle while the request was on its way, unprocessed. An idempotent
         * request goes once more on a new connection, as browsers and HTTP clients do; its cycle completes once,
         * the request's times running from the first send. True if it was resent.
         */
        private boolean resendAfterIdleClose() {
            if (inFlight == null || again == null || !parser.nothingRead()) {
                return false;
            }
            ByteBuf request = again;
            again = null;
            pool.countResend();
            abandon();
            connectAndWrite(request);
            return true;
        }

        private void dropAgain() {
            if (again != null) {
                again.release();
                again = null;
            }
        }

        /** Opens a new channel and writes {@code request} on it once it is open. */
        private void connectAndWrite(ByteBuf request) {
            ChannelFuture f = bootstrap.connect(address);
            Channel ch = f.channel();
            channel = ch;
            served = 0;
            f.addListener(done -> {
                if (ch != channel || inFlight == null) {
                    request.release(); // given up meanwhile (timeout, close)
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

        /** The response to the cycle's request is whole: its next request, or the cycle's end. */
        private void responded() {
            dropAgain();
            ByteBuf request;
            try {
                request = exchange.next(response, alloc());
            } catch (RuntimeException e) {
                finish(Outcome.forThrowable(e));
                return;
            }
            if (request != null) {
                Completion c = inFlight;
                if (c != null) {
                    c.stepEnded(); // the step before it ended: its service time is its own (a workload's op's)
                }
                send(request);
            } else {
                finish(exchange.outcome());
            }
        }

        /** Completes the cycle in flight (if any) exactly once, after the connection went back to the pool. */
        private void finish(Outcome outcome) {
            Completion c = inFlight;
            if (c == null) {
                return;
            }
            inFlight = null;
            dropAgain();
            pool.release(this, channel != null && channel.isActive());
            c.complete(outcome);
        }

        void fail(Throwable t) {
            if (inFlight != null) {
                finish(exchange.failed(t));
            }
        }

        /** On the event loop, the client closing: drops the channel; the cycle in flight fails as cancelled. */
        void cancel() {
            closed = true;
            abandon();
            if (inFlight != null) {
                fail(new CancellationException("the client closed"));
            }
        }

        /** On the event loop, from the scan: gives up a request older than the timeout. */
        @Override
        public void checkTimeout(long now) {
            if (inFlight != null && now - sentNanos > timeoutNanos) {
                abandon();
                fail(new HttpTimeoutException("no response within the request timeout"));
            }
        }

        /** Drops the channel (it will not be used again) and closes it. */
        void abandon() {
            Channel ch = channel;
            channel = null;
            if (ch != null) {
                ch.close();
            }
        }

        /** One per channel: reads responses, turns the channel's failures into the cycle's outcome. */
        private final class Handler extends ChannelInboundHandlerAdapter {

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf in = (ByteBuf) msg;
                try {
                    if (ctx.channel() != channel) {
                        return;
                    }
                    if (inFlight == null) {
                        abandon(); // bytes nobody asked for: the connection is out of step
                        return;
                    }
                    boolean done;
                    try {
                        done = parser.read(in);
                    } catch (H1Response.BodyTooLargeException e) {
                        abandon();
                        fail(e);
                        return;
                    } catch (IllegalStateException e) {
                        abandon();
                        fail(new ProtocolException(e.getMessage()));
                        return;
                    }
                    if (done) {
                        served++;
                        if (parser.mustClose() || in.isReadable()) {
                            abandon();
                        }
                        responded();
                    }
                } finally {
                    in.release();
                }
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                if (ctx.channel() == channel) {
                    closedByServer();
                }
            }

            /** A TLS close_notify ends the connection as a TCP close does, though its FIN may come later. */
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                if (event instanceof SslCloseCompletionEvent && ctx.channel() == channel) {
                    closedByServer();
                }
                ctx.fireUserEventTriggered(event);
            }

            /** The server closed the channel: the request on it goes again, the body it ended is whole, or it fails. */
            private void closedByServer() {
                if (resendAfterIdleClose()) {
                    return;
                }
                abandon();
                if (inFlight != null) {
                    if (parser.endsAtClose()) {
                        responded();
                    } else {
                        fail(new ClosedChannelException());
                    }
                }
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                if (ctx.channel() == channel
                        && !(HttpOutcomes.idleClose(cause) && resendAfterIdleClose())) {
                    abandon();
                    fail(cause);
                }
                ctx.close();
            }
        }
    }
}
