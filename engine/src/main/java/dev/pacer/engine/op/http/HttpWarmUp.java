package dev.pacer.engine.op.http;

import dev.pacer.engine.op.Completion;
import dev.pacer.engine.op.Outcome;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Warms the http client by sending the op's own request (method, path, headers, body) to a throwaway
 * server on loopback, over the op's event loops but with its own connections: nothing reaches the
 * system under test, and the op's connections start unopened. {@link #IN_FLIGHT} requests are kept in
 * flight, closed-loop, for {@link #DURATION} or {@link #REQUESTS}, whichever comes first. Measured on
 * the JDK client before it: without a warm-up the first ~2 s of a 10k req/s run fell seconds behind
 * while the JIT compiled the client.
 */
final class HttpWarmUp {

    static final Duration DURATION = Duration.ofMillis(2500);
    static final long REQUESTS = 150_000;
    static final int IN_FLIGHT = 16;
    static final Duration SETTLE_MAX = Duration.ofSeconds(2);

    /** Makes a sender of the op's kind (protocol, connections) for a template pointed at another server. */
    interface SenderFactory {
        HttpSender create(HttpRequestTemplate template, InetSocketAddress address);
    }

    private final HttpTransport transport;
    private final HttpRequestTemplate template;
    private final SenderFactory factory;
    private final boolean h2;

    HttpWarmUp(HttpTransport transport, HttpRequestTemplate template, SenderFactory factory, boolean h2) {
        this.transport = transport;
        this.template = template;
        this.factory = factory;
        this.h2 = h2;
    }

    void run() throws InterruptedException {
        Channel server = new ServerBootstrap().group(transport.group()).channel(transport.serverChannelClass())
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (h2) {
                            WarmUpServers.h2c(ch);
                        } else {
                            ch.pipeline().addLast(new HttpServerCodec(), new OkHandler());
                        }
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        HttpRequestTemplate local = template.to("http", "127.0.0.1:" + address.getPort());
        long deadline = System.nanoTime() + DURATION.toNanos();
        AtomicLong sent = new AtomicLong();
        CountDownLatch done = new CountDownLatch(IN_FLIGHT);
        try (HttpSender sender = factory.create(local, address)) {
            for (int i = 0; i < IN_FLIGHT; i++) {
                Completion again = new Completion() {
                    @Override
                    public void complete(Outcome outcome) {
                        long n = sent.incrementAndGet();
                        if (outcome != Outcome.CANCELLED && n < REQUESTS && System.nanoTime() < deadline) {
                            sender.send(n, this);
                        } else {
                            done.countDown();
                        }
                    }
                };
                sender.send(i, again);
            }
            done.await(DURATION.toMillis() + 5_000, TimeUnit.MILLISECONDS); // a warm-up that cannot finish leaves the run colder, nothing worse
        } finally {
            server.close().syncUninterruptibly();
        }
        awaitJitSettled();
    }

    /**
     * Waits (at most {@link #SETTLE_MAX}) until the JIT has compiled for less than 10 % of the last 100 ms:
     * on two cores the compiler threads that finish the warm-up's work would otherwise compete with the
     * run's first second (measured: response p99 of 12-28 ms in that second without this wait).
     */
    static void awaitJitSettled() throws InterruptedException {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + SETTLE_MAX.toNanos();
        long before = jit.getTotalCompilationTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(100);
            long now = jit.getTotalCompilationTime();
            if (now - before < 10) {
                return;
            }
            before = now;
        }
    }

    /** Answers every HTTP/1.1 request with 200 "ok". */
    private static final class OkHandler extends SimpleChannelInboundHandler<HttpObject> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof LastHttpContent) {
                FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        Unpooled.wrappedBuffer(new byte[] {'o', 'k'}));
                r.headers().set(HttpHeaderNames.CONTENT_LENGTH, 2);
                ctx.writeAndFlush(r);
            }
        }
    }
}
