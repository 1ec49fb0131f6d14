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
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.netty.handler.ssl.SslContext;

/**
 * One HTTP/1.1 keep-alive connection of an {@link H1Pool}, carrying one request at a time. Everything
 * it does runs on its one event loop; it is its own task ({@link #run}), so handing it a request
 * allocates nothing.
 *
 * <h2>Shared fields</h2>
 * {@code nextCycle}, {@code next}: plain; written by the thread that took this connection from the pool
 * (a worker, or the event loop that released it), then published by {@link EventLoop#execute} (its task
 * queue orders the write before the loop's read in {@link #run}). Only one thread owns an idle
 * connection, so they are never written concurrently. Every other field is the event loop's alone.
 *
 * <p>Exactly once: {@code inFlight} holds the completion of the request on the wire; whoever finishes
 * it ({@link #finish}: the response, a failure, the timeout scan, the channel's close) clears it first,
 * so later events about the same request find nothing to complete. Events from a channel this
 * connection no longer uses (closed after a timeout) are ignored.
 */
final class H1Connection implements Runnable, OneAtATimePool.Carrier {

    final H1Pool pool;
    final EventLoop loop;
    private final Bootstrap bootstrap;
    private final H1ResponseParser parser = new H1ResponseParser();
    private final byte[] digits = new byte[20];

    // handed over by the pool's taker, read in run()
    private long nextCycle;
    private Completion next;

    // the event loop's
    private Channel channel;
    private Completion inFlight;
    private long sentNanos;
    private long cycle;
    private ByteBuf fixed;
    /** Responses read on the current channel: above 0 it is a reused keep-alive connection. */
    private int served;
    /** Whether the request on the wire was already resent once (after a reused connection's close). */
    private boolean resent;
    /** {@link #open}'s connect, while its channel is this connection's: a first request waits for it. */
    private ChannelFuture opening;
    /** Set by {@link #closeFromOutside}: a request handed over after it is cancelled, not sent. */
    private boolean closed;

    H1Connection(H1Pool pool, EventLoop loop) {
        this.pool = pool;
        this.loop = loop;
        SslContext ssl = pool.ssl;
        this.bootstrap = pool.transport.bootstrap(loop).handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                if (ssl != null) {
                    ch.pipeline().addLast(ssl.newHandler(ch.alloc(), pool.template.host(), pool.template.port()));
                }
                ch.pipeline().addLast(new Handler());
            }
        });
    }

    /**
     * Opens this (idle, never used) connection ahead of its first request, on its event loop; completes when it is
     * open or failed to open (then its first request connects again). A fixed request's head is made here too: made
     * at the first request, the run's first requests each allocated a direct buffer, and the allocations past the
     * 127th made the JDK generate code for Netty's {@code malloc} handle on the event loop, a few milliseconds in
     * the run's first 20 ms (JFR's class loads).
     */
    java.util.concurrent.CompletableFuture<Void> open() {
        java.util.concurrent.CompletableFuture<Void> opened = new java.util.concurrent.CompletableFuture<>();
        loop.execute(() -> {
            if (fixed == null && pool.template.isFixed()) {
                fixed = pool.template.fixedHead();
            }
            if (channel != null) {
                opened.complete(null);
                return;
            }
            ChannelFuture f = bootstrap.connect(pool.address);
            Channel ch = f.channel();
            channel = ch;
            opening = f;
            f.addListener(done -> {
                if (!done.isSuccess() && ch == channel && inFlight == null) {
                    channel = null; // a request waiting for it connects again (waitForOpening)
                }
                opened.complete(null);
            });
        });
        return opened;
    }

    @Override
    public EventLoop loop() {
        return loop;
    }

    /**
     * Hands this (idle) connection a request; called by its owner, on any thread. One handed over as the pool
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

    /** On the event loop: sends the request handed over, on the open channel or a new one. */
    @Override
    public void run() {
        Completion c = next;
        next = null;
        if (closed) { // handed over as the pool closed, after this connection's close ran
            c.complete(Outcome.CANCELLED);
            return;
        }
        cycle = nextCycle;
        inFlight = c;
        resent = false;
        sentNanos = pool.transport.clock.nanoTime();
        parser.reset(pool.template.isHead());
        if (channel != null && channel.isActive()) {
            write();
        } else if (!waitForOpening()) {
            abandon(); // a channel that died
            connect();
        }
    }

    /**
     * When the channel is {@link #open}'s, still connecting: the request in flight goes once it is open (or on a
     * new connection if it failed), rather than on a second connection beside it. True if it waits.
     */
    private boolean waitForOpening() {
        ChannelFuture f = opening;
        if (f == null || f.isDone() || f.channel() != channel) {
            return false;
        }
        f.addListener(done -> {
            if (f.channel() != channel || inFlight == null) {
                return; // given up meanwhile (timeout, close)
            }
            if (done.isSuccess()) {
                write();
            } else {
                channel = null;
                connect();
            }
        });
        return true;
    }

    private void connect() {
        ChannelFuture f = bootstrap.connect(pool.address);
        Channel ch = f.channel();
        channel = ch;
        served = 0;
        f.addListener(done -> {
            if (ch != channel) {
                return; // given up meanwhile (timeout)
            }
            if (done.isSuccess()) {
                if (inFlight != null) {
                    write();
                }
            } else {
                channel = null;
                finish(HttpOutcomes.forFailure(done.cause()));
            }
        });
    }

    private void write() {
        ByteBuf head;
        if (pool.template.isFixed()) {
            if (fixed == null) {
                fixed = pool.template.fixedHead();
            }
            if (fixed.refCnt() == 1) { // no earlier write still holds it: resend the same bytes
                head = fixed.retain().setIndex(0, fixed.writerIndex());
            } else {
                head = fixed.retainedDuplicate().setIndex(0, fixed.writerIndex());
            }
        } else {
            head = pool.template.head(channel.alloc(), cycle, digits);
        }
        ByteBuf body = pool.template.body();
        if (body == null) {
            channel.writeAndFlush(head, channel.voidPromise());
        } else {
            channel.write(head, channel.voidPromise());
            channel.writeAndFlush(body, channel.voidPromise());
        }
    }

    /** Completes the request on the wire (if any) exactly once, then returns the connection to the pool. */
    private void finish(Outcome outcome) {
        Completion c = inFlight;
        if (c == null) {
            return;
        }
        inFlight = null;
        pool.release(this, channel != null && channel.isActive());
        c.complete(outcome);
    }

    /**
     * The channel closed or was reset before a byte of the response: when it was a reused keep-alive connection
     * the server most likely closed it as idle while the request was on its way, unprocessed (a FIN; or a reset
     * when the request had reached its socket unread, as Linux resets a socket closed with unread bytes).
     * An idempotent request (RFC 9110 9.2.2: GET, HEAD, PUT, DELETE, OPTIONS, TRACE) is then sent once more
     * on a new connection, as browsers and HTTP clients do; it completes (and is counted) once, its times
     * running from the first send. True if it was resent.
     */
    private boolean resendAfterIdleClose() {
        if (inFlight == null || resent || served == 0 || !parser.nothingRead() || !pool.template.isIdempotent()) {
            return false;
        }
        resent = true;
        pool.countResend();
        abandon();
        parser.reset(pool.template.isHead());
        connect();
        return true;
    }

    /** Drops the channel (it will not be used again) and closes it. */
    private void abandon() {
        Channel ch = channel;
        channel = null;
        if (ch != null) {
            ch.close();
        }
    }

    /** On the event loop, from the pool's scan: gives up a request older than the timeout. */
    @Override
    public void checkTimeout(long now) {
        if (inFlight != null && now - sentNanos > pool.timeoutNanos) {
            abandon();
            finish(HttpOutcomes.TIMEOUT);
        }
    }

    /** Closes the channel from any thread (the op is closing). */
    void closeFromOutside() {
        loop.execute(() -> {
            closed = true;
            abandon();
            if (fixed != null) {
                fixed.release();
                fixed = null;
            }
            finish(Outcome.CANCELLED);
        });
    }

    /** One per channel: reads responses, turns the channel's failures into the request's outcome. */
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
                } catch (IllegalStateException e) {
                    abandon();
                    finish(HttpOutcomes.PROTOCOL);
                    return;
                }
                if (done) {
                    served++;
                    if (parser.mustClose() || in.isReadable()) {
                        abandon();
                    }
                    finish(pool.outcomes.forStatus(parser.status()));
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

        /** The server closed the channel: the request on it goes again, ends with it, or is reset. */
        private void closedByServer() {
            if (resendAfterIdleClose()) {
                return;
            }
            abandon();
            if (inFlight != null) {
                finish(parser.endsAtClose() ? pool.outcomes.forStatus(parser.status()) : HttpOutcomes.RESET);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (ctx.channel() != channel) {
                ctx.close();
                return;
            }
            if (HttpOutcomes.idleClose(cause) && resendAfterIdleClose()) {
                return;
            }
            abandon();
            finish(HttpOutcomes.forFailure(cause));
        }
    }
}
