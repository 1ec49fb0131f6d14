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
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import io.netty.handler.codec.http2.Http2ConnectionHandlerBuilder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.collection.IntObjectMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One of an {@link H2Sender}'s HTTP/2 connections: the requests waiting for a stream, and the channel that
 * carries them ({@link Link}). After the server's GOAWAY that channel only finishes the streams the server
 * said it will process (up to its last stream id); the requests on streams above it were never processed:
 * they go back to the front of the queue, for a new channel, and are counted once, when they complete there.
 *
 * <h2>Threads</h2>
 * Everything here runs on {@link #loop}, the one event loop of all this connection's channels (their
 * bootstrap's group), except {@link #send} and {@link #close}: any thread calls them (a sending worker;
 * whoever closes the sender), and they only hand a task to the loop by {@link EventLoop#execute}, which
 * orders the caller's writes (a {@link Request}'s final fields) before the loop's reads. The mutable
 * fields, {@code waiting}, {@code link} and {@code draining} here, those of each {@link Link} and a
 * request's {@code sentNanos} and {@code status}, are read and written on the loop only: by those tasks,
 * by {@link H2Sender}'s timeout scan (scheduled on the loop), and by the channels' listeners and handlers.
 * The sender's {@code closed} is the one thing read here that other threads write (volatile).
 *
 * <p>Exactly once: each request completes once; whoever removes it from its channel's {@code active}
 * (response end, reset, timeout, the channel's close) or from {@code waiting} (timeout, failure to connect,
 * close) completes it. A request a GOAWAY sends again is moved from {@code active} back to
 * {@code waiting}, not completed.
 */
final class H2Connection {

    /** One request: the task that queues it on its connection's loop, then its stream's state there. */
    private static final class Request implements Runnable {
        final H2Connection connection;
        final long cycle;
        final Completion completion;
        /** When it was queued (loop only): its timeout counts from here. */
        long sentNanos;
        /** The response's final status, 0 until its headers come (loop only). */
        int status;
        /** Refused once by the server (RST_STREAM REFUSED_STREAM, unprocessed) and sent again (loop only). */
        boolean refused;

        Request(H2Connection connection, long cycle, Completion completion) {
            this.connection = connection;
            this.cycle = cycle;
            this.completion = completion;
        }

        @Override
        public void run() {
            connection.submit(this);
        }
    }

    private final H2Sender sender;
    /** The event loop all of this connection's work runs on. */
    final EventLoop loop;
    private final Bootstrap bootstrap;
    /** Requests waiting for a stream, in the order sent (those a GOAWAY sends again first). */
    private final ArrayDeque<Request> waiting = new ArrayDeque<>();
    /** The channel new streams open on, or null (none yet, or it died, or the server sent GOAWAY). */
    private Link link;
    /** Channels after a GOAWAY with streams still to finish (rarely more than one). */
    private final List<Link> draining = new ArrayList<>(2);

    H2Connection(H2Sender sender, EventLoop loop) {
        this.sender = sender;
        this.loop = loop;
        this.bootstrap = sender.transport.bootstrap(loop);
    }

    /**
     * Sends one request (any thread): queues it on the loop, which opens its stream when it can; one sent as the
     * transport shuts down (its loop gone) completes as {@code cancelled} here.
     */
    void send(long cycle, Completion completion) {
        try {
            loop.execute(new Request(this, cycle, completion));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            completion.complete(Outcome.CANCELLED);
        }
    }

    /** Whether new streams have a channel to open on now (asked on the loop from any thread), for tests. */
    boolean linked() throws Exception {
        return loop.submit(() -> link != null).get();
    }

    /** Closes (any thread): on the loop, every request here completes as {@code cancelled}. */
    void close() {
        try {
            loop.execute(this::closeAll);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the loop has shut down: its channels are closed and nothing is left to complete
        }
    }

    private void submit(Request r) {
        if (sender.closed()) {
            r.completion.complete(Outcome.CANCELLED);
            return;
        }
        r.sentNanos = sender.transport.clock.nanoTime();
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
                if (sender.ssl != null) {
                    HttpRequestTemplate t = sender.template;
                    ch.pipeline().addLast(sender.ssl.newHandler(ch.alloc(), t.host(), t.port()));
                }
                l.init(ch);
            }
        }).connect(sender.address);
        l.ch = f.channel();
        f.addListener(done -> {
            if (l != link) {
                return;
            }
            if (done.isSuccess()) {
                l.handler = l.ch.pipeline().get(Http2ConnectionHandler.class); // ready at the server's SETTINGS
            } else {
                link = null;
                failAll(HttpOutcomes.forFailure(done.cause()));
            }
        });
    }

    /** Opens streams for waiting requests while the server allows more. */
    private void drain() {
        Link l = link;
        if (l == null || !l.ready || waiting.isEmpty()) {
            return;
        }
        Http2Connection.Endpoint<?> local = l.handler.connection().local();
        int limit = Math.min(H2Sender.STREAMS_PER_CONNECTION, local.maxActiveStreams());
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
            Http2Headers headers = sender.headers(r.cycle);
            boolean body = sender.template.hasBody();
            l.active.put(id, r);
            l.handler.encoder().writeHeaders(ctx, id, headers, 0, !body, ctx.voidPromise());
            if (body) {
                l.handler.encoder().writeData(ctx, id, sender.template.body(), 0, true, ctx.voidPromise());
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
    private void goAway(Link l, int lastStreamId) {
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
        if (!waiting.isEmpty() && !sender.closed() && link == null) {
            connect();
        }
    }

    private void finish(Link l, int streamId, Outcome outcome) {
        Request r = l.active.remove(streamId);
        if (r != null) {
            r.completion.complete(outcome);
        }
        if (l != link && l.active.isEmpty() && draining.remove(l)) {
            l.ch.close(); // the last stream a GOAWAY left has finished
        }
    }

    /** Times out the requests older than the timeout, on the channels and in the queue (the sender's scan). */
    void checkTimeouts(long now) {
        if (link != null) {
            checkTimeouts(link, now);
        }
        for (int i = draining.size() - 1; i >= 0; i--) {
            checkTimeouts(draining.get(i), now);
        }
        while (!waiting.isEmpty() && now - waiting.peek().sentNanos > sender.timeoutNanos) {
            waiting.poll().completion.complete(HttpOutcomes.TIMEOUT);
        }
    }

    private void checkTimeouts(Link l, long now) {
        if (l.active.isEmpty() || l.handler == null) {
            return;
        }
        List<Integer> late = null;
        for (IntObjectMap.PrimitiveEntry<Request> e : l.active.entries()) {
            if (now - e.value().sentNanos > sender.timeoutNanos) {
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

    /**
     * {@code l}'s channel is gone: what was on it fails; what waits for it gets a new one, unless it went before
     * the server's SETTINGS (not an HTTP/2 server, or one that would not talk): then that fails too, as a failed
     * connect does, rather than connecting again and again.
     */
    private void lost(Link l, Outcome outcome) {
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
            if (!l.ready) {
                failAll(outcome);
            } else if (!waiting.isEmpty() && !sender.closed()) {
                connect();
            }
        }
    }

    /**
     * The server refused a stream without processing it (RST_STREAM REFUSED_STREAM, RFC 9113 8.7): it goes again,
     * first, once; refused twice it counts as {@code reset}.
     */
    private void refused(Link l, int streamId) {
        Request r = l.active.get(streamId);
        if (r == null || r.refused) {
            finish(l, streamId, HttpOutcomes.RESET);
            return;
        }
        l.active.remove(streamId);
        r.refused = true;
        waiting.addFirst(r);
    }

    /** What a response that has ended counts as: its status's outcome, or {@code protocol-error} without one. */
    private Outcome ended(Request r) {
        return r.status == 0 ? HttpOutcomes.PROTOCOL : sender.outcomes.forStatus(r.status);
    }

    private void failAll(Outcome outcome) {
        List<Request> dropped = new ArrayList<>(waiting);
        waiting.clear();
        dropped.forEach(r -> r.completion.complete(outcome));
    }

    private void closeAll() {
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
     * Its handlers report to it; once {@link #gone} they report nothing. All of it is the loop's.
     */
    private final class Link {
        /** The channel, set both by its initializer and from its connect future (the same channel). */
        Channel ch;
        /** The requests on open streams, by stream id. */
        final IntObjectMap<Request> active = new IntObjectHashMap<>();
        /** The channel's HTTP/2 handler, once connected (null before). */
        Http2ConnectionHandler handler;
        /** The server's first SETTINGS read (its stream limit known): streams can open. */
        boolean ready;
        /** Closed or failed: its requests were completed, and its handlers' later events are ignored. */
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
                finish(l, streamId, ended(r));
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
                    finish(l, streamId, ended(r));
                }
            }
            return consumed;
        }

        @Override
        public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
            if (l.gone) {
                return;
            }
            if (errorCode == Http2Error.REFUSED_STREAM.code()) {
                refused(l, streamId);
            } else {
                finish(l, streamId, HttpOutcomes.RESET);
            }
        }

        /**
         * The server's SETTINGS: the first makes the channel ready (before it, streams past the server's limit
         * would be refused); each may raise the limit.
         */
        @Override
        public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
            if (l.gone) {
                return;
            }
            if (l.handler == null) {
                l.handler = ctx.pipeline().get(Http2ConnectionHandler.class);
            }
            l.ready = true;
            if (l == link) {
                drain();
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

        /** A TLS close_notify: the server sends nothing more on this channel, whenever its FIN comes. */
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
            if (event instanceof SslCloseCompletionEvent && !l.gone) {
                lost(l, l.lostAs);
                ctx.close();
            }
            ctx.fireUserEventTriggered(event);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // after this client's GOAWAY with an error, what fails next (a write on the channel it is closing: a
            // ClosedChannelException, which alone would read as a reset) is that protocol error's doing
            Outcome o = l.lostAs == HttpOutcomes.PROTOCOL ? HttpOutcomes.PROTOCOL : HttpOutcomes.forFailure(cause);
            ctx.close();
            lost(l, o);
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
