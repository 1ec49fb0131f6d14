package dev.pacer.engine.op.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.RunClock;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/2 client's connection against Netty's own h2 server: what waits for a stream, the server's stream limit
 * from its first SETTINGS, refused streams, a loop that has shut down, a TLS close_notify.
 */
@org.junit.jupiter.api.Timeout(60)
class H2ConnectionTest {

    EventLoopGroup group;
    Channel server;
    HttpTransport transport;
    final AtomicInteger accepted = new AtomicInteger();

    /** Counts every completion; a second complete of the same request is recorded. */
    static final class Counter {
        final Map<String, Integer> outcomes = new TreeMap<>();
        final AtomicInteger doubles = new AtomicInteger();
        final CountDownLatch all;

        Counter(int n) {
            all = new CountDownLatch(n);
        }

        Completion next() {
            AtomicInteger calls = new AtomicInteger();
            return o -> {
                if (calls.incrementAndGet() > 1) {
                    doubles.incrementAndGet();
                    return;
                }
                synchronized (outcomes) {
                    outcomes.merge(o.toString(), 1, Integer::sum);
                }
                all.countDown();
            };
        }
    }

    /** Starts an h2c server whose handler is {@code onHeaders(connectionIndex, ctx, frame)}. */
    int start(int maxStreams, HeadersHandler onHeaders) {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        int index = accepted.getAndIncrement();
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forServer()
                                .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(maxStreams))
                                .build(), new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                try {
                                    if (msg instanceof Http2HeadersFrame h) {
                                        onHeaders.on(index, ctx, h);
                                    }
                                } finally {
                                    ReferenceCountUtil.release(msg);
                                }
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                ctx.close();
                            }
                        });
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
        transport = new HttpTransport(1, Duration.ofSeconds(2), RunClock.system());
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    interface HeadersHandler {
        void on(int connection, ChannelHandlerContext ctx, Http2HeadersFrame h);
    }

    static void ok(ChannelHandlerContext ctx, Http2HeadersFrame h) {
        ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200"), false).stream(h.stream()));
        ctx.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(new byte[] {'o', 'k'}), true)
                .stream(h.stream()));
    }

    H2Sender sender(int port, long timeoutMillis) {
        HttpRequestTemplate t = new HttpRequestTemplate("http://127.0.0.1:" + port + "/", "GET", List.of(),
                (byte[]) null);
        return new H2Sender(transport, t, new HttpOutcomes(Set.of()),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port), null, 1,
                TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
    }

    @AfterEach
    void stop() {
        if (transport != null) {
            transport.close();
        }
        if (server != null) {
            server.close().syncUninterruptibly();
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    /**
     * The server allows 2 streams; 2 are open and 8 wait in the connection's queue, never sent, when the server
     * closes the connection (a FIN). The doc: "what was on it fails; what waits for it gets a new one".
     */
    @Test
    void requestsWaitingForAStreamGoOnANewConnectionWhenTheConnectionCloses() throws Exception {
        AtomicInteger seenOnFirst = new AtomicInteger();
        int port = start(2, (conn, ctx, h) -> {
            if (conn == 0) {
                int n = seenOnFirst.incrementAndGet();
                if (n == 1) {
                    ok(ctx, h); // the first request: the client has the server's SETTINGS after it
                } else if (n == 3) {
                    ctx.close(); // two streams open, unanswered: the server goes away (FIN)
                }
            } else {
                ok(ctx, h);
            }
        });
        H2Sender sender = sender(port, 5_000);
        Counter first = new Counter(1);
        sender.send(0, first.next());
        assertTrue(first.all.await(5, TimeUnit.SECONDS));
        assertEquals(Map.of("2xx", 1), first.outcomes);

        Counter c = new Counter(10);
        for (int i = 1; i <= 10; i++) {
            sender.send(i, c.next());
        }
        assertTrue(c.all.await(10, TimeUnit.SECONDS), "all completed: " + c.outcomes);
        sender.connection(0).linked(); // a task on the loop: what it had queued (a second completion) has run
        sender.close();
        assertEquals(0, c.doubles.get(), "completed twice");
        // 2 on the dead connection reset, 8 never sent: on a new connection, answered
        assertEquals(Map.of("reset (error)", 2, "2xx", 8), c.outcomes, "accepted connections: " + accepted.get());
    }

    /** A request handed to a loop that has shut down completes as cancelled; it threw RejectedExecutionException. */
    @Test
    void aSendAfterTheLoopShutDownIsCancelledNotThrown() throws Exception {
        int port = start(100, (conn, ctx, h) -> ok(ctx, h));
        H2Sender sender = sender(port, 5_000);
        transport.close(); // as HttpOp.close after a worker passed H2Sender.send's closed check
        Counter c = new Counter(1);
        Throwable thrown = null;
        try {
            sender.send(0, c.next());
        } catch (Throwable t) {
            thrown = t;
        }
        assertEquals(null, thrown, "send threw");
        assertTrue(c.all.await(2, TimeUnit.SECONDS));
    }

    /**
     * A server with SETTINGS_MAX_CONCURRENT_STREAMS 2 that refuses streams above it (REFUSED_STREAM, as Go's does
     * before its SETTINGS are acknowledged): the client opened up to 100 before the server's SETTINGS came and
     * counted 8 of 10 as reset. It now opens none before them, and a refused stream goes again once.
     */
    @Test
    void noMoreStreamsThanTheServerAllowsBeforeItsSettingsCome() throws Exception {
        Map<Channel, AtomicInteger> open = new ConcurrentHashMap<>();
        AtomicInteger maxOpen = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        int port = start(2, (conn, ctx, h) -> {
            AtomicInteger o = open.computeIfAbsent(ctx.channel(), k -> new AtomicInteger());
            int now = o.incrementAndGet();
            maxOpen.accumulateAndGet(now, Math::max);
            if (now > 2) {
                refused.incrementAndGet();
                o.decrementAndGet();
                ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.REFUSED_STREAM).stream(h.stream()));
                return;
            }
            ctx.executor().schedule(() -> {
                o.decrementAndGet();
                ok(ctx, h);
            }, 20, TimeUnit.MILLISECONDS);
        });
        H2Sender sender = sender(port, 5_000);
        Counter c = new Counter(10);
        for (int i = 0; i < 10; i++) {
            sender.send(i, c.next());
        }
        assertTrue(c.all.await(10, TimeUnit.SECONDS), "all completed: " + c.outcomes);
        sender.close();
        assertEquals(Map.of("2xx", 10), c.outcomes, "max streams open at once at the server: " + maxOpen.get()
                + ", refused " + refused.get());
    }

    /**
     * An h2 server that ends each connection after its first response with a TLS close_notify alone (its FIN not
     * sent), as ClosesIdleTlsServer does for HTTP/1.1: every later request on that connection timed out. They now
     * go on a new connection.
     */
    @Test
    void afterTheServersCloseNotifyTheNextRequestGoesOnANewConnection(@TempDir Path keys) throws Exception {
        SslContext serverTls = SslContextBuilder.forServer(SelfSignedKeys.in(keys))
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                        ApplicationProtocolNames.HTTP_2)).build();
        AtomicInteger accepted = new AtomicInteger();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepted.incrementAndGet();
                        ch.pipeline().addLast(serverTls.newHandler(ch.alloc()), Http2FrameCodecBuilder.forServer()
                                .build(), new ChannelInboundHandlerAdapter() {
                            boolean done;

                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                try {
                                    if (msg instanceof Http2HeadersFrame h && !done) {
                                        done = true;
                                        ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers()
                                                .status("200"), false).stream(h.stream()));
                                        ctx.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(
                                                new byte[] {'o', 'k'}), true).stream(h.stream())).addListener(
                                                f -> ctx.pipeline().get(SslHandler.class).closeOutbound());
                                    }
                                } finally {
                                    ReferenceCountUtil.release(msg);
                                }
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            }
                        });
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        HttpTransport transport = new HttpTransport(1, Duration.ofSeconds(2), RunClock.system());
        try {
            SslContextBuilder b = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE);
            H2Sender.alpn(b);
            HttpRequestTemplate t = new HttpRequestTemplate("https://127.0.0.1:" + port + "/", "GET", List.of(),
                    (byte[]) null);
            H2Sender sender = new H2Sender(transport, t, new HttpOutcomes(Set.of()),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port), b.build(), 1,
                    TimeUnit.SECONDS.toNanos(2));
            StringBuilder got = new StringBuilder();
            for (int i = 0; i < 3; i++) {
                CompletableFuture<Outcome> done = new CompletableFuture<>();
                sender.send(i, done::complete);
                got.append(i).append('=').append(done.get(10, TimeUnit.SECONDS)).append(' ');
                while (sender.connection(0).linked()) {
                    Thread.sleep(5); // until the close_notify has reached the client and ended its channel
                }
            }
            sender.close();
            assertEquals("0=2xx 1=2xx 2=2xx ", got.toString(), "connections accepted: " + accepted.get());
        } finally {
            transport.close();
            server.close().syncUninterruptibly();
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }
}
