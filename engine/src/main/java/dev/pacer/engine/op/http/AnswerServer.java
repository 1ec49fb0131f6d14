package dev.pacer.engine.op.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestDecoder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A private HTTP/1.1 server on loopback for a client's warm-up, on that client's event loops: it answers each
 * request with the bytes (a whole response, written as they are) that {@code answers} gives for the request's line
 * without its version ({@code POST /users/7/cart}). Never the system under test; nothing it serves is recorded.
 * Thread-safe; closed with {@link #close()}.
 */
public final class AnswerServer implements AutoCloseable {

    private final Channel channel;
    private final AtomicLong answered;

    private AnswerServer(Channel channel, AtomicLong answered) {
        this.channel = channel;
        this.answered = answered;
    }

    /**
     * Starts a server on a loopback port, on {@code client}'s event loops, taking requests whose line and headers
     * fit in {@code maxHead} bytes and bodies up to {@link RequestClient#MAX_BODY}.
     */
    public static AnswerServer start(RequestClient client, int maxHead, Function<String, byte[]> answers) {
        AtomicLong answered = new AtomicLong();
        HttpTransport transport = client.transport();
        Channel ch = new ServerBootstrap().group(transport.group()).channel(transport.serverChannelClass())
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel c) {
                        c.pipeline().addLast(new HttpRequestDecoder(new HttpDecoderConfig()
                                        .setMaxInitialLineLength(maxHead).setMaxHeaderSize(maxHead)),
                                new HttpObjectAggregator(RequestClient.MAX_BODY), new Answer(answers, answered));
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
        return new AnswerServer(ch, answered);
    }

    /** Where it listens. */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** How many requests it has answered. */
    public long answered() {
        return answered.get();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
    }

    private static final class Answer extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Function<String, byte[]> answers;
        private final AtomicLong answered;

        Answer(Function<String, byte[]> answers, AtomicLong answered) {
            this.answers = answers;
            this.answered = answered;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            if (request.decoderResult().isFailure()) {
                ctx.close();
                return;
            }
            byte[] answer = answers.apply(request.method().name() + " " + request.uri());
            answered.incrementAndGet();
            ctx.writeAndFlush(Unpooled.wrappedBuffer(answer));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
