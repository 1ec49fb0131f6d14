package dev.pacer.engine.op.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.op.Ops;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.run.ActivityConfig;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * https:// against the JDK's HTTPS server with a self-signed certificate (made by keytool): trusted only with insecure.
 */
class HttpsOpTest {

    @TempDir
    Path dir;

    @Test
    void aSelfSignedServerIsReachedWithInsecureAndRefusedWithout() throws Exception {
        KeyManagerFactory kmf = SelfSignedKeys.in(dir);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);

        AtomicLong requests = new AtomicLong();
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/", ex -> {
            requests.incrementAndGet();
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(200, 2);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(new byte[] {'o', 'k'});
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        try {
            String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/secure";
            Summary trusted = run(url, "insecure", "true");
            assertEquals(50L, trusted.outcomes().get("2xx"), trusted.outcomes().toString());
            assertEquals(50L, requests.get());

            Summary upper = run("HTTPS" + url.substring("https".length()), "insecure", "true");
            assertEquals(50L, upper.outcomes().get("2xx"), "a scheme is case-insensitive: " + upper.outcomes());
            assertEquals(100L, requests.get(), "and HTTPS:// is TLS too: the server counts it");

            Summary untrusted = run(url);
            assertEquals(50L, untrusted.errorsByType().get("tls"), "an untrusted certificate fails the handshake: "
                    + untrusted.outcomes());
            assertEquals(100L, requests.get(), "and no request reached the server");
        } finally {
            server.stop(0);
            ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
            ((java.util.concurrent.ExecutorService) server.getExecutor()).awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void http2OverTlsNegotiatedByAlpn() throws Exception {
        io.netty.handler.ssl.SslContext ssl = io.netty.handler.ssl.SslContextBuilder.forServer(SelfSignedKeys.in(dir))
                .applicationProtocolConfig(new io.netty.handler.ssl.ApplicationProtocolConfig(
                        io.netty.handler.ssl.ApplicationProtocolConfig.Protocol.ALPN,
                        io.netty.handler.ssl.ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        io.netty.handler.ssl.ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, "h2"))
                .build();
        AtomicLong streams = new AtomicLong();
        io.netty.channel.EventLoopGroup group = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                io.netty.channel.nio.NioIoHandler.newFactory());
        try {
            io.netty.channel.Channel server = new io.netty.bootstrap.ServerBootstrap().group(group)
                    .channel(io.netty.channel.socket.nio.NioServerSocketChannel.class)
                    .childHandler(new io.netty.channel.ChannelInitializer<>() {
                        @Override
                        protected void initChannel(io.netty.channel.Channel ch) {
                            ch.pipeline().addLast(ssl.newHandler(ch.alloc()));
                            WarmUpServers.h2c(ch); // HTTP/2 frames from the start, as ALPN h2 agreed
                            ch.pipeline().addBefore(ch.pipeline().context(WarmUpServers.OkHandler.class).name(),
                                    "count",
                                    new io.netty.channel.ChannelInboundHandlerAdapter() {
                                        @Override
                                        public void channelRead(io.netty.channel.ChannelHandlerContext ctx,
                                                Object msg) {
                                            if (msg instanceof io.netty.handler.codec.http2.Http2HeadersFrame) {
                                                streams.incrementAndGet();
                                            }
                                            ctx.fireChannelRead(msg);
                                        }
                                    });
                        }
                    })
                    .bind(new InetSocketAddress("127.0.0.1", 0)).syncUninterruptibly().channel();
            String url = "https://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + "/h2";
            Summary s = run(url, "insecure", "true", "http-version", "2");
            assertEquals(50L, s.outcomes().get("2xx"), s.outcomes().toString());
            assertEquals(50L, streams.get(), "the server read 50 HTTP/2 streams");
            server.close().syncUninterruptibly();
        } finally {
            group.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    static Summary run(String url, String... more) throws Exception {
        Map<String, List<String>> options = new LinkedHashMap<>();
        options.put("url", List.of(url));
        options.put("connections", List.of("4"));
        for (int i = 0; i < more.length; i += 2) {
            options.put(more[i], List.of(more[i + 1]));
        }
        OpSpec spec = OpSpec.parse("http", options);
        ActivityConfig config = new ActivityConfig(spec, 1, false, null, null, 50);
        try (Op op = Ops.create(spec)) {
            return new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(250)).build(), op,
                    new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())).run();
        }
    }
}
