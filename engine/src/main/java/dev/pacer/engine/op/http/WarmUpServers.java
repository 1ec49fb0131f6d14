package dev.pacer.engine.op.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2FrameStream;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.ReferenceCountUtil;

/** The warm-up's private servers beyond HTTP/1.1 (also usable by tests). */
final class WarmUpServers {

    private WarmUpServers() {
    }

    /** HTTP/2 with prior knowledge (h2c) on {@code ch}: answers every request with 200 "ok". */
    static void h2c(Channel ch) {
        h2c(ch, 8192);
    }

    /** As {@link #h2c(Channel)}, taking request headers of up to {@code maxHeaderList} bytes (HPACK-decoded). */
    static void h2c(Channel ch, int maxHeaderList) {
        ch.pipeline().addLast(Http2FrameCodecBuilder.forServer()
                        .initialSettings(Http2Settings.defaultSettings().maxConcurrentStreams(1000)
                                .maxHeaderListSize(maxHeaderList)).build(),
                new OkHandler());
    }

    /** Answers each stream when its request has ended. */
    @ChannelHandler.Sharable
    static final class OkHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame h && h.isEndStream()) {
                    answer(ctx, h.stream());
                } else if (msg instanceof Http2DataFrame d) {
                    if (d.initialFlowControlledBytes() > 0) { // give the bytes back to the sender's window
                        ctx.write(new DefaultHttp2WindowUpdateFrame(d.initialFlowControlledBytes()).stream(d.stream()));
                    }
                    if (d.isEndStream()) {
                        answer(ctx, d.stream());
                    } else {
                        ctx.flush();
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        /** A client that went (a warm-up a stop cut short resets its connections): closed, not logged. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private static void answer(ChannelHandlerContext ctx, Http2FrameStream stream) {
            ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200"), false).stream(stream));
            ctx.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(new byte[] {'o', 'k'}),
                    true).stream(stream));
        }
    }
}
