package dev.pacer.engine.workload;

import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.op.WarmUpDeadline;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.op.http.RequestClient;
import dev.pacer.engine.op.http.H1Response;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A workload as an op: each cycle runs the op the mix gives it, its steps one after another (each sent from the
 * previous one's response), checks each response and completes the cycle once, with its first failure or ok. A
 * failed step ends its cycle: the later steps are not sent. Requests are written straight into bytes (no string
 * per request) and sent over the http op's event loops ({@link RequestClient}: HTTP/1.1 keep-alive connections;
 * a cycle keeps its connection for all its steps). Each connection has its own {@link Session} (scratch space, a
 * cycle's saved values, the checks' parser state), so a cycle allocates next to nothing. Thread-safe: a cycle's
 * state is its connection's and is used on that connection's event loop only. Its warm-up runs whole cycles against
 * a private server, never the target ({@link WorkloadWarmUp}).
 *
 * <p>It is a mix ({@link OpMix}): the run records each cycle under its op's name too, its wait to the first step's
 * start and its service time from there to the last step's end.
 */
final class WorkloadOp implements AsyncOp, OpMix {

    private final Mix mix;
    private final RequestClient client;
    private final byte[] head;
    private final Fn[] bindings;
    private final Workload.Op[] ops;
    /** Per op, per step: whether its response's body, or its headers, must be kept. */
    private final boolean[][] needsBody;
    private final boolean[][] needsHeaders;
    /** Whether each step's method is idempotent (RFC 9110 9.2.2), so it may go again after a keep-alive close. */
    private final boolean[][] idempotent;
    /** The most values any op saves: the size of a session's saved slots. */
    private final int maxSaved;
    private final List<String> opNames;

    WorkloadOp(Workload workload, int shards, Duration connectTimeout, Duration timeout, int connections,
               boolean insecure, RunClock clock) throws IOException {
        this.mix = Mix.of(workload.ops().stream().mapToLong(Workload.Op::weight).toArray(), shards);
        this.head = headOf(workload);
        this.bindings = workload.bindings().values().stream().map(Workload.Binding::fn).toArray(Fn[]::new);
        this.ops = workload.ops().toArray(Workload.Op[]::new);
        this.needsBody = perStep(StepCheck::needsBody);
        this.needsHeaders = perStep(StepCheck::needsHeaders);
        this.idempotent = perStep(step -> RequestClient.Exchange.idempotentMethod(step.method()));
        this.maxSaved = workload.ops().stream().mapToInt(op -> op.savedNames().size()).max().orElse(0);
        this.opNames = workload.ops().stream().map(Workload.Op::name).toList();
        int ioThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 2));
        this.client = RequestClient.open(workload.base(), insecure, connections, ioThreads, connectTimeout, timeout,
                clock, Session::new);
    }

    private boolean[][] perStep(java.util.function.Predicate<Workload.Step> p) {
        boolean[][] out = new boolean[ops.length][];
        for (int o = 0; o < ops.length; o++) {
            out[o] = new boolean[ops[o].steps().size()];
            for (int i = 0; i < out[o].length; i++) {
                out[o][i] = p.test(ops[o].steps().get(i));
            }
        }
        return out;
    }

    @Override
    public List<String> opNames() {
        return opNames;
    }

    @Override
    public int opOf(long cycle) {
        return mix.op(cycle);
    }

    /** Its steps' requests, one after another: with several, the engine keeps each step's service time. */
    @Override
    public int stepsOf(int opIndex) {
        return ops[opIndex].steps().size();
    }

    @Override
    public void start(long cycle, Completion completion) {
        start(client, cycle, completion);
    }

    /** Starts a cycle on {@code over}: the op's client, or the warm-up's. */
    void start(RequestClient over, long cycle, Completion completion) {
        if (!has(cycle)) {
            completion.complete(CheckOutcomes.DATA_EXHAUSTED);
            return;
        }
        over.send(cycle, completion);
    }

    /**
     * Runs the op's cycles whole against a private server on loopback, never the target ({@link WorkloadWarmUp}),
     * so the JIT has compiled their paths before the first scheduled op; then opens up to {@link #OPEN_AHEAD} of
     * the op's connections to the target (TCP only: no request), as the http op does.
     */
    @Override
    public void warmUp() throws InterruptedException {
        warmUp(null);
    }

    /** As {@link #warmUp()}, all of it within {@code atMost} when given (connections not open by then open later). */
    @Override
    public void warmUp(Duration atMost) throws InterruptedException {
        WarmUpDeadline end = WarmUpDeadline.in(atMost);
        lastWarmUp = WorkloadWarmUp.run(this, end);
        client.openAhead(OPEN_AHEAD, end.millisAtMost(OPEN_TIMEOUT_MILLIS));
    }

    @Override
    public String warmUpLine() {
        WorkloadWarmUp.Result r = lastWarmUp;
        return r == null ? null : String.format(java.util.Locale.ROOT, "pacer: workload warm-up %s against a private "
                + "server (%,d cycles, %,d passed their checks)",
                dev.pacer.engine.api.Durations.format(r.seconds() * 1e9), r.cycles(), r.ok());
    }

    /** The most connections {@link #warmUp} opens ahead of the run. */
    static final int OPEN_AHEAD = 64;
    /** How long {@link #warmUp} waits for them (those not open by then open with their first cycle). */
    static final long OPEN_TIMEOUT_MILLIS = 5_000;

    /** What the last warm-up did (null before one), for tests. */
    volatile WorkloadWarmUp.Result lastWarmUp;

    RequestClient client() {
        return client;
    }

    /** Makes a connection's session for the warm-up's client: its cycles are {@link CycleState#warm}. */
    java.util.function.Supplier<RequestClient.Exchange> warmSessions() {
        return () -> {
            Session s = new Session();
            s.st.warm = true;
            return s;
        };
    }

    /** Whether every binding has a value for the cycle. */
    boolean has(long cycle) {
        for (Fn f : bindings) {
            if (!f.has(cycle)) {
                return false;
            }
        }
        return true;
    }

    /** The op a cycle runs. */
    Workload.Op opFor(long cycle) {
        return ops[mix.op(cycle)];
    }

    /** A workload's requests' fixed lines after the request line ({@code Host}, {@code User-Agent}), CRLF-ended. */
    static byte[] headOf(Workload workload) {
        return ("Host: " + workload.base().getRawAuthority() + "\r\nUser-Agent: pacer\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The request's fixed lines after the request line ({@code Host}, {@code User-Agent}). */
    byte[] head() {
        return head;
    }

    @Override
    public int capacity() {
        return client.capacity();
    }

    @Override
    public String endLine() {
        return RequestClient.resentLine(client.resent());
    }

    @Override
    public void abandonUnsent() {
        client.abandonQueued();
    }

    @Override
    public void close() {
        client.close();
    }

    /**
     * One connection's cycles, one at a time: renders each step's request into its scratch space and judges each
     * response; used on its connection's event loop only.
     */
    private final class Session implements RequestClient.Exchange {
        private final Bytes out = new Bytes(512);
        private final Bytes body = new Bytes(256);
        private final CycleState st = new CycleState(0, maxSaved);
        private final StepCheck check = new StepCheck();
        /** The response being judged, for {@link #headers}. */
        private H1Response response;
        private final Function<String, String> headers = name -> response.header(name);
        private final Function<String, String> cookies = name -> response.cookie(name);
        private int opIndex;
        private int step;
        private Outcome warned;
        private Outcome outcome;

        @Override
        public ByteBuf begin(long cycle, ByteBufAllocator alloc) {
            opIndex = mix.op(cycle);
            step = 0;
            warned = null;
            outcome = null;
            st.reset(cycle);
            return render(alloc);
        }

        private ByteBuf render(ByteBufAllocator alloc) {
            Rendered.writeHttp1(ops[opIndex].steps().get(step), st, head, out, body);
            return alloc.ioBuffer(out.length).writeBytes(out.array, 0, out.length);
        }

        @Override
        public boolean keepsHeaders() {
            return needsHeaders[opIndex][step];
        }

        @Override
        public boolean keepsBody() {
            return needsBody[opIndex][step];
        }

        @Override
        public boolean idempotent() {
            return idempotent[opIndex][step];
        }

        @Override
        public ByteBuf next(H1Response r, ByteBufAllocator alloc) {
            Workload.Op op = ops[opIndex];
            response = r;
            Outcome o;
            try {
                o = check.judge(op.steps().get(step), st, r.status(), r.body(), r.bodyLength(), headers, cookies);
            } finally {
                response = null;
            }
            if (o != null && o.isError()) {
                outcome = o;
                return null;
            }
            if (o != null && warned == null) {
                warned = o;
            }
            if (++step < op.steps().size()) {
                return render(alloc);
            }
            outcome = warned;
            return null;
        }

        @Override
        public Outcome outcome() {
            return outcome;
        }

        @Override
        public Outcome failed(Throwable failure) {
            return CheckOutcomes.forFailure(failure);
        }
    }
}
