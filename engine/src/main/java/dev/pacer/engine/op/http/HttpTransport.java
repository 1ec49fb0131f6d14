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
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The http op's I/O threads: a Netty event-loop group, epoll where the native transport loads (Linux
 * x86-64), NIO elsewhere. Its threads are daemons named {@code pacer-http-N}. Closed with the op.
 */
final class HttpTransport implements AutoCloseable {

    private final EventLoopGroup group;
    private final boolean epoll;
    private final int connectTimeoutMillis;

    HttpTransport(int threads, Duration connectTimeout) {
        this.epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "pacer-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
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
