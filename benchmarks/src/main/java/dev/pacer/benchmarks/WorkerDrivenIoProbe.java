package dev.pacer.benchmarks;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ManualIoEventLoop;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * A probe of one design for the http op (issue 25), not pacer's client: ONE thread paces GET requests at a rate
 * and drives its own connections' I/O (a Netty {@link ManualIoEventLoop} owned by that thread, epoll), waiting for
 * each slot inside the event loop ({@code run(waitNanos)}: epoll with a timerfd) instead of parking and handing each
 * request to an event-loop thread. It goes early by at most {@code EARLY_NANOS}, as pacer's limiter does below its
 * park threshold. Each connection carries one request at a time; a response is complete when its bytes reach the
 * length of the first response (nginx's {@code return 200} answers every request in the same number of bytes). It
 * prints the response time from each request's scheduled time (p50/p99/p99.9/max over the steady seconds, the first
 * {@code WARM_SECONDS} left out: no JIT warm-up of its own), the process's CPU and its context switches per request
 * over the same seconds. By hand, beside {@code pacer run --op http} at the same rate (benchmarks/wakeups.sh).
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -cp benchmarks/target/benchmarks.jar \
 *     dev.pacer.benchmarks.WorkerDrivenIoProbe PORT RATE SECONDS [CONNECTIONS]
 * </pre>
 */
public final class WorkerDrivenIoProbe {

    static final long EARLY_NANOS = 100_000;
    static final int WARM_SECONDS = 3;

    /** Each connection's first handler: nothing, until its {@link Conn} is added once it is open. */
    @ChannelHandler.Sharable
    static final class Nothing extends ChannelInboundHandlerAdapter {
    }

    static final Nothing NOTHING = new Nothing();

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        double rate = Double.parseDouble(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int conns = args.length > 3 ? Integer.parseInt(args[3]) : 64;
        ManualIoEventLoop loop = new ManualIoEventLoop(Thread.currentThread(), EpollIoHandler.newFactory());
        byte[] request = ("GET /x HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        ByteBuf template = Unpooled.directBuffer(request.length).writeBytes(request);
        Probe probe = new Probe();
        Bootstrap b = new Bootstrap().group(loop).channel(EpollSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .handler(NOTHING);
        Conn[] all = new Conn[conns];
        for (int i = 0; i < conns; i++) {
            var f = b.connect("127.0.0.1", port);
            while (!f.isDone()) {
                loop.run(1_000_000);
            }
            if (!f.isSuccess()) {
                throw new IllegalStateException("cannot connect to 127.0.0.1:" + port, f.cause());
            }
            Channel ch = f.channel();
            Conn c = new Conn(ch, probe);
            ch.pipeline().addLast(c);
            all[i] = c;
            probe.idle.push(c);
        }
        long gap = (long) (1e9 / rate);
        long start = System.nanoTime() + 10_000_000;
        long end = start + seconds * 1_000_000_000L;
        long warmEnd = start + WARM_SECONDS * 1_000_000_000L;
        long next = start;
        long[] cpuAtWarm = null;
        long sentAtWarm = 0;
        while (true) {
            long now = System.nanoTime();
            if (cpuAtWarm == null && now - warmEnd >= 0) {
                cpuAtWarm = cpuAndSwitches();
                sentAtWarm = probe.sent;
                probe.record = true;
            }
            if (next - end >= 0) {
                break;
            }
            while (next - now <= EARLY_NANOS && next - end < 0) {
                probe.send(next, template);
                next += gap;
            }
            long wait = next - now - EARLY_NANOS;
            loop.run(wait > 0 ? wait : -1);
        }
        long[] cpuAtEnd = cpuAndSwitches();
        long sent = probe.sent - sentAtWarm;
        long drainUntil = System.nanoTime() + 1_000_000_000L;
        while (probe.inFlight > 0 && System.nanoTime() - drainUntil < 0) {
            loop.run(1_000_000);
        }
        double steady = seconds - WARM_SECONDS;
        Histogram h = probe.latency;
        long ticks = cpuAtEnd[0] - cpuAtWarm[0];
        System.out.printf(Locale.ROOT, "probe %.0f req/s, %d connections, one thread: %d sent in %.0f s, %d queued at"
                        + " the send, response p50 %.3f / p99 %.3f / p99.9 %.3f / max %.3f ms, CPU %.1f %% of a core,"
                        + " %.3f voluntary and %.3f involuntary switches per request%n",
                rate, conns, sent, steady, probe.queued, h.getValueAtPercentile(50) / 1e6,
                h.getValueAtPercentile(99) / 1e6, h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6,
                100.0 * ticks / 100.0 / steady, (double) (cpuAtEnd[1] - cpuAtWarm[1]) / sent,
                (double) (cpuAtEnd[2] - cpuAtWarm[2]) / sent);
        for (Conn c : all) {
            c.channel.close();
        }
        loop.run(-1);
        loop.shutdown();
        while (!loop.isTerminated()) {
            loop.run(-1);
        }
    }

    /** utime + stime in clock ticks (100 per second here), voluntary and involuntary context switches. */
    static long[] cpuAndSwitches() throws Exception {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        long vol = 0;
        long invol = 0;
        try (var dirs = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : dirs.toList()) {
                for (String line : Files.readAllLines(t.resolve("status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        vol += Long.parseLong(line.split("\\s+")[1]);
                    } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                        invol += Long.parseLong(line.split("\\s+")[1]);
                    }
                }
            }
        }
        return new long[] {ticks, vol, invol};
    }

    /** The pacing side: idle connections, requests waiting for one, the latency record. One thread. */
    static final class Probe {
        final ArrayDeque<Conn> idle = new ArrayDeque<>();
        final ArrayDeque<long[]> waiting = new ArrayDeque<>();
        final Histogram latency = new Histogram(3_600_000_000_000L, 3);
        int responseLength;
        long sent;
        long queued;
        int inFlight;
        boolean record;

        void send(long scheduled, ByteBuf template) {
            sent++;
            Conn c = idle.poll();
            if (c == null) {
                queued++;
                waiting.add(new long[] {scheduled});
                return;
            }
            c.send(scheduled, template);
        }

        void done(Conn c, long now) {
            if (record) {
                latency.recordValue(Math.max(0, now - c.scheduled));
            }
            inFlight--;
            long[] w = waiting.poll();
            if (w != null) {
                c.send(w[0], null);
            } else {
                idle.push(c);
            }
        }
    }

    /** One keep-alive connection: one request at a time, the response counted by its length. */
    static final class Conn extends ChannelInboundHandlerAdapter {
        final Channel channel;
        final Probe probe;
        long scheduled;
        int received;
        ByteBuf template;

        Conn(Channel channel, Probe probe) {
            this.channel = channel;
            this.probe = probe;
        }

        void send(long scheduled, ByteBuf t) {
            if (t != null) {
                template = t;
            }
            this.scheduled = scheduled;
            received = 0;
            probe.inFlight++;
            channel.writeAndFlush(template.retainedDuplicate(), channel.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                received += buf.readableBytes();
                if (probe.responseLength == 0) {
                    // the first response: its length is where its headers end plus its Content-Length
                    String s = buf.toString(StandardCharsets.US_ASCII);
                    int head = s.indexOf("\r\n\r\n") + 4;
                    int cl = s.toLowerCase(Locale.ROOT).indexOf("content-length:");
                    int body = Integer.parseInt(s.substring(cl + 15, s.indexOf("\r\n", cl)).trim());
                    probe.responseLength = head + body;
                }
            } finally {
                buf.release();
            }
            if (received >= probe.responseLength) {
                probe.done(this, System.nanoTime());
            }
        }
    }
}
