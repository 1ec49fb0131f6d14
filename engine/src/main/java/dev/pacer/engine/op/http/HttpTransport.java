package dev.pacer.engine.op.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The http op's I/O threads: a Netty event-loop group, epoll where the native transport loads (Linux
 * x86-64), NIO elsewhere. Its threads are daemons named {@code pacer-http-N-M}. Closed with the op.
 */
final class HttpTransport implements AutoCloseable {

    static {
        // Leak detection samples buffer allocations with a stack trace each; a load generator's buffers are its
        // own (released by the parser's finally): off unless the user asked for it with -Dio.netty.leakDetection.level
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    private final EventLoopGroup group;
    private final boolean epoll;
    private final int connectTimeoutMillis;

    /** The run's clock: the op's send times and timeouts are read on it. */
    final dev.pacer.ratelimit.api.NanoClock clock;

    HttpTransport(int threads, Duration connectTimeout, dev.pacer.ratelimit.api.NanoClock clock) {
        this.clock = clock;
        this.epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        // Netty's own thread type (FastThreadLocalThread): only on those do its allocator's thread caches and its
        // object pools work; on plain threads every buffer and write entry is a new object (measured: ~250 B/request)
        ThreadFactory factory = new DefaultThreadFactory("pacer-http", true);
        this.group = new MultiThreadIoEventLoopGroup(threads, factory, io);
        this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis());
    }

    /** A client bootstrap on one event loop (all of a connection's work runs on that one thread). */
    Bootstrap bootstrap(EventLoop loop) {
        return new Bootstrap().group(loop)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis);
    }

    Class<? extends SocketChannel> channelClass() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    Class<? extends ServerSocketChannel> serverChannelClass() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    EventLoopGroup group() {
        return group;
    }

    EventLoop next() {
        return group.next();
    }

    /** "epoll" or "nio". */
    String transportName() {
        return epoll ? "epoll" : "nio";
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 200, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
}
