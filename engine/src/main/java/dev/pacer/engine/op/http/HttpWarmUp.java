package dev.pacer.engine.op.http;

import dev.pacer.engine.op.JitSettling;
import dev.pacer.engine.op.WarmUpDeadline;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Warms the http client by sending the op's own request (method, path, headers, body) to a throwaway
 * server on loopback, over the op's event loops but with its own connections: nothing reaches the
 * system under test, and the op's connections start unopened. Two rounds (closed-loop, then paced from
 * another thread as the run sends), then a wait for the JIT to settle: about 2.5 s in a JVM that compiled the
 * client already (a second run in one JVM), up to 8 s in a cold one on a slow machine. Measured on
 * the JDK client before it: without a warm-up the first ~2 s of a 10k req/s run fell seconds behind
 * while the JIT compiled the client.
 */
final class HttpWarmUp {

    /**
     * The closed loop's longest: it ends at {@link #REQUESTS} or this. On a slower 2-core VM 2 s held 16 000-18 000
     * requests (the first of them interpreted) and the JIT still compiled 50-58 of the client's methods at C2 in
     * the run's first seconds (1.2-1.6 s of compiling, JFR); 5 s held 90 000-120 000, and 7-18 methods were left
     * (0.08-0.12 s). A faster machine reaches the count first.
     */
    static final Duration DURATION = Duration.ofMillis(5000);
    static final Duration PACED = Duration.ofMillis(1000);
    static final long PACED_GAP_NANOS = 100_000;
    /** What a paced round bounded by a deadline keeps of it for its last answers, at most. */
    static final long DRAIN_NANOS = 100_000_000;
    static final long REQUESTS = 150_000;
    /**
     * The closed loop's least before the JIT's quiet can end it: past the JIT's thresholds for the code every request
     * runs (C2's is 15 000 calls), so a JVM that already compiled the client (a second run in one JVM, a test
     * suite) ends it about here, and a cold one when the JIT has worked through what the loop gave it.
     */
    static final long MIN_REQUESTS = 30_000;
    static final int IN_FLIGHT = 16;
    /**
     * The most connections the warm-up opens, whatever the op's (the default, so a default run warms up as it
     * runs): the JIT learns as much from 64 as from 600, and each costs two descriptors (client and server end)
     * while it lasts.
     */
    static final int MAX_CONNECTIONS = 64;
    static final Duration SETTLE_MAX = Duration.ofSeconds(2);

    /** Makes a sender of the op's kind (protocol, connections) for a template pointed at another server. */
    interface SenderFactory {
        HttpSender create(HttpRequestTemplate template, InetSocketAddress address);
    }

    private final HttpTransport transport;
    /** Real time whatever the run's clock: the warm-up spends it compiling the client against a private server. */
    private static final dev.pacer.engine.api.RunClock REAL = dev.pacer.engine.api.RunClock.system();
    private final HttpRequestTemplate template;
    private final SenderFactory factory;
    private final boolean h2;
    /** A fresh look at the JIT per closed loop: true once it has settled ({@link JitSettling.Watch} in a run). */
    private final Supplier<BooleanSupplier> jitSettled;

    HttpWarmUp(HttpTransport transport, HttpRequestTemplate template, SenderFactory factory, boolean h2) {
        this(transport, template, factory, h2, () -> new JitSettling.Watch()::settled);
    }

    HttpWarmUp(HttpTransport transport, HttpRequestTemplate template, SenderFactory factory, boolean h2,
               Supplier<BooleanSupplier> jitSettled) {
        this.transport = transport;
        this.template = template;
        this.factory = factory;
        this.h2 = h2;
        this.jitSettled = jitSettled;
    }

    /** Warm-up requests answered (a response of any status), for tests; written by the event loops. */
    private final AtomicLong answered = new AtomicLong();

    long answered() {
        return answered.get();
    }

    /** Requests the last closed loop sent, for tests; written by the warming thread. */
    private volatile long closedLoopRequests;

    long closedLoopRequests() {
        return closedLoopRequests;
    }

    /** How long after its start the last closed loop's end was seen, for tests; written by the warming thread. */
    private volatile long closedLoopEnded;

    long closedLoopEndedNanos() {
        return closedLoopEnded;
    }

    /** How the last closed loop ended ("ended once the JIT had settled", "stopped at its 5s bound", ...). */
    private volatile String closedLoopEnd;
    /** The last warm-up's length, seconds, and its requests answered; written by the warming thread. */
    private volatile double lastSeconds = Double.NaN;

    /** Its start line ({@link dev.pacer.engine.api.Op#warmUpLine()}), or null before it ran. */
    String startLine() {
        if (Double.isNaN(lastSeconds)) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "pacer: http client warm-up %s against a private server (%,d "
                + "requests; %s)", dev.pacer.engine.api.Durations.format(lastSeconds * 1e9),
                answered.get(), stopped ? "cut short by the run's stop"
                        : cut ? CUT : "the closed loop " + closedLoopEnd);
    }

    /** How a warm-up that its deadline ended says so. */
    static final String CUT = "cut short to start at the test's instant";

    /** Whether the last warm-up was interrupted (the run stopped while it warmed); written by the warming thread. */
    private volatile boolean stopped;
    /** Whether the last warm-up's deadline ended one of its rounds early; written by the warming thread. */
    private volatile boolean cut;

    /** Warms up without a deadline, as a run without a start-at instant does. */
    void run() throws InterruptedException {
        run(WarmUpDeadline.NONE);
    }

    /**
     * Warms up, ending every round by {@code end} (a test's start-at instant, less the engine's margin): a round it
     * leaves no time for is skipped, the others are shortened.
     */
    void run(WarmUpDeadline end) throws InterruptedException {
        long began = REAL.nanoTime();
        stopped = false;
        cut = false;
        try {
            warm(end);
        } catch (InterruptedException e) {
            stopped = true;
            throw e;
        } finally {
            lastSeconds = (REAL.nanoTime() - began) / 1e9;
        }
    }

    private void warm(WarmUpDeadline end) throws InterruptedException {
        // the private server takes the op's request whatever its size (Netty's defaults stop at a 4 KB request
        // line and 8 KB of headers: a longer URL or header would fail every warm-up request, with warnings)
        int head = Math.max(8192, template.size(20) - template.bodyLength() + 1024);
        Channel server = new ServerBootstrap().group(transport.group()).channel(transport.serverChannelClass())
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (h2) {
                            WarmUpServers.h2c(ch, head);
                        } else {
                            ch.pipeline().addLast(new HttpServerCodec(new HttpDecoderConfig()
                                    .setMaxInitialLineLength(head).setMaxHeaderSize(head)), new OkHandler());
                        }
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).syncUninterruptibly().channel();
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        HttpRequestTemplate local = template.to("http", "127.0.0.1:" + address.getPort());
        try {
            closedLoop(local, address, end);
            paced(local, address, end);
        } finally {
            server.close().syncUninterruptibly();
        }
        JitSettling.await(end.atMost(SETTLE_MAX));
        cut |= end.bounded() && end.nanosLeft() == 0;
    }

    /**
     * Round 1: {@link #IN_FLIGHT} requests kept in flight, each completion sending the next from the event
     * loop: the bulk of the JIT's work. It runs {@link #MIN_REQUESTS} at least, then ends once the JIT has settled
     * ({@link JitSettling.Watch}: it has compiled what this loop taught it), and at {@link #REQUESTS} or
     * {@link #DURATION} at the latest. Then the connections close.
     */
    private void closedLoop(HttpRequestTemplate local, InetSocketAddress address, WarmUpDeadline end)
            throws InterruptedException {
        long began = REAL.nanoTime();
        // the paced round's second is kept for it (half of what is left, when that is less): it compiles what the
        // run's first second would
        long deadline = end.within(DURATION.toNanos(), Math.min(PACED.toNanos(), end.nanosLeft() / 2));
        boolean bounded = deadline - began < DURATION.toNanos();
        closedLoopRequests = 0;
        if (deadline <= began) {
            closedLoopEnd = "skipped";
            cut = true;
            return;
        }
        AtomicLong sent = new AtomicLong();
        AtomicBoolean enough = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(IN_FLIGHT);
        try (HttpSender sender = factory.create(local, address)) {
            for (int i = 0; i < IN_FLIGHT; i++) {
                Again again = new Again(sender, sent, deadline, enough, done);
                sender.send(i, completion(i, again));
            }
            BooleanSupplier jit = jitSettled.get();
            // a warm-up that cannot finish leaves the run colder, nothing worse
            long giveUp = end.within(deadline - began + TimeUnit.SECONDS.toNanos(5), 0);
            boolean settled;
            try {
                while (!done.await(100, TimeUnit.MILLISECONDS) && REAL.nanoTime() < giveUp) {
                    if (jit.getAsBoolean() && sent.get() >= MIN_REQUESTS) {
                        enough.set(true);
                    }
                }
            } finally {
                settled = enough.get();
                // interrupted (a stop): the lanes send nothing more, so the closing sender's cancellations end them
                enough.set(true);
            }
            closedLoopRequests = sent.get();
            boolean cutHere = !settled && sent.get() < REQUESTS && bounded;
            cut |= cutHere;
            closedLoopEnd = settled ? "ended once the JIT had settled" : sent.get() >= REQUESTS
                    ? String.format(java.util.Locale.ROOT, "stopped at its %,d requests", REQUESTS)
                    : cutHere ? "stopped at the test's start-at bound"
                    : "stopped at its " + dev.pacer.engine.api.Durations.format(DURATION) + " bound";
            closedLoopEnded = REAL.nanoTime() - began;
        }
    }

    /**
     * Round 2, on fresh connections: sends from this thread, paced, as the run's workers do, so the event loop
     * sleeps between requests and is woken by each hand-off: paths the closed loop never takes, which would
     * otherwise be compiled (after a deoptimisation each) in the run's first second. Completions come in
     * three classes, so calls through {@link Completion} are already megamorphic when the run's arrives.
     */
    private void paced(HttpRequestTemplate local, InetSocketAddress address, WarmUpDeadline end)
            throws InterruptedException {
        long left = end.nanosLeft(); // a quarter of it, 100 ms at most, kept for the last answers
        long n = Math.min(PACED.toNanos(), left - Math.min(left / 4, DRAIN_NANOS)) / PACED_GAP_NANOS;
        if (n < PACED.toNanos() / PACED_GAP_NANOS) {
            cut = true;
        }
        if (n <= 0) {
            return;
        }
        CountDownLatch done = new CountDownLatch((int) n);
        Runnable counter = done::countDown;
        try (HttpSender sender = factory.create(local, address)) {
            long next = REAL.nanoTime();
            for (int i = 0; i < n; i++) {
                sender.send(i, completion(i, counter));
                next += PACED_GAP_NANOS;
                long wait = next - REAL.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
            }
            done.await(Math.min(TimeUnit.SECONDS.toNanos(5), end.nanosLeft()), TimeUnit.NANOSECONDS);
        }
    }

    private Completion completion(int i, Runnable then) {
        return switch (i % 3) {
            case 0 -> new First(then, answered);
            case 1 -> new Second(then, answered);
            default -> new Third(then, answered);
        };
    }

    private static void count(Outcome outcome, AtomicLong answered) {
        if (outcome != null && !outcome.isError()) {
            answered.incrementAndGet();
        }
    }

    private record First(Runnable then, AtomicLong answered) implements Completion {
        @Override
        public void complete(Outcome outcome) {
            count(outcome, answered);
            then.run();
        }
    }

    private record Second(Runnable then, AtomicLong answered) implements Completion {
        @Override
        public void complete(Outcome outcome) {
            count(outcome, answered);
            then.run();
        }
    }

    private record Third(Runnable then, AtomicLong answered) implements Completion {
        @Override
        public void complete(Outcome outcome) {
            count(outcome, answered);
            then.run();
        }
    }

    /** Round 1's lane: each completion sends the next request, until the deadline, the count or enough. */
    private final class Again implements Runnable {
        private final HttpSender sender;
        private final AtomicLong sent;
        private final long deadline;
        private final AtomicBoolean enough;
        private final CountDownLatch done;
        private int uses;

        Again(HttpSender sender, AtomicLong sent, long deadline, AtomicBoolean enough, CountDownLatch done) {
            this.sender = sender;
            this.sent = sent;
            this.deadline = deadline;
            this.enough = enough;
            this.done = done;
        }

        @Override
        public void run() {
            long n = sent.incrementAndGet();
            if (n < REQUESTS && !enough.get() && REAL.nanoTime() < deadline) {
                sender.send(n, completion(++uses, this));
            } else {
                done.countDown();
            }
        }
    }

    /**
     * Answers every HTTP/1.1 request with 200, in turn in three shapes real servers use: nginx's (Title-Case names,
     * Server, Date, Content-Type, Content-Length, Connection), bare lower-case names, and a chunked body. The parser
     * meets the branches of each before the run: warmed on one shape only, its compiled code was thrown away at
     * the first response of a server that answered in another (seen with nginx: the header parsing deoptimised).
     */
    private static final class OkHandler extends SimpleChannelInboundHandler<HttpObject> {
        private int answered;

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (!(msg instanceof LastHttpContent)) {
                return;
            }
            switch (answered++ % 3) {
                case 0 -> {
                    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.wrappedBuffer(new byte[] {'o', 'k', '\n'}));
                    r.headers().set("Server", "nginx").set("Date", "Thu, 01 Jan 1970 00:00:00 GMT")
                            .set("Content-Type", "text/plain").set("Content-Length", 3).set("Connection", "keep-alive");
                    ctx.writeAndFlush(r);
                }
                case 1 -> {
                    FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.wrappedBuffer(new byte[] {'o', 'k'}));
                    r.headers().set(HttpHeaderNames.CONTENT_LENGTH, 2);
                    ctx.writeAndFlush(r);
                }
                default -> {
                    HttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
                    r.headers().set("Content-Type", "text/plain").set("Transfer-Encoding", "chunked");
                    ctx.write(r);
                    ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[] {'o', 'k'})));
                    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                }
            }
        }

        /** A client that went (a warm-up a stop cut short resets its connections): closed, not logged. */
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
