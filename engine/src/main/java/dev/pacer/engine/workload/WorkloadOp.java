package dev.pacer.engine.workload;

import dev.pacer.engine.time.RunClock;
import dev.pacer.engine.op.AsyncOp;
import dev.pacer.engine.op.Completion;
import dev.pacer.engine.op.OpBreakdown;
import dev.pacer.engine.text.Durations;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import dev.pacer.engine.op.Outcome;
import dev.pacer.engine.op.http.RequestClient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A workload as an op: each cycle runs the op the mix gives it, its steps one after another (each sent from the
 * previous one's response), checks each response and completes the cycle once, with its first failure or ok. A
 * failed step ends its cycle: the later steps are not sent. Requests are written straight into bytes (no string
 * per request) and sent over the http op's event loops ({@link RequestClient}: HTTP/1.1 keep-alive connections).
 * Thread-safe: a cycle's state is its own and passes from step to step through the client's event loop.
 */
final class WorkloadOp implements AsyncOp, OpBreakdown {

    /** Per thread: the request being written and a body's scratch space. */
    private static final ThreadLocal<Bytes[]> SCRATCH = ThreadLocal.withInitial(() -> new Bytes[] {new Bytes(512), new Bytes(256)});

    private final Workload workload;
    private final Mix mix;
    private final RequestClient client;
    /** The run's clock: a cycle's service time is read on it. */
    private final RunClock clock;
    private final byte[] head;
    private final Fn[] bindings;
    private final boolean[][] needsBody;
    /** Per op: cycles completed, errors, service times (start to completion, ns); written on any thread. */
    private final LongAdder[] cycles;
    private final LongAdder[] errors;
    private final Recorder[] service;

    WorkloadOp(Workload workload, int shards, Duration connectTimeout, Duration timeout, int connections,
               RunClock clock) throws IOException {
        this.workload = workload;
        this.clock = clock;
        this.mix = Mix.of(workload.ops().stream().mapToLong(Workload.Op::weight).toArray(), shards);
        int port = workload.base().getPort() < 0 ? 80 : workload.base().getPort();
        int ioThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 2));
        this.client = RequestClient.open(workload.base().getHost(), port, connections, ioThreads, connectTimeout, timeout,
                clock);
        this.head = ("Host: " + workload.base().getRawAuthority() + "\r\nUser-Agent: pacer\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        this.bindings = workload.bindings().values().stream().map(Workload.Binding::fn).toArray(Fn[]::new);
        this.needsBody = workload.ops().stream()
                .map(op -> {
                    boolean[] n = new boolean[op.steps().size()];
                    for (int i = 0; i < n.length; i++) {
                        n[i] = StepCheck.needsBody(op.steps().get(i));
                    }
                    return n;
                }).toArray(boolean[][]::new);
        int ops = workload.ops().size();
        this.cycles = new LongAdder[ops];
        this.errors = new LongAdder[ops];
        this.service = new Recorder[ops];
        for (int i = 0; i < ops; i++) {
            cycles[i] = new LongAdder();
            errors[i] = new LongAdder();
            service[i] = new Recorder(3);
        }
    }

    /** Counts a completed cycle of op {@code index}. */
    private void record(int index, long startNanos, Outcome o) {
        cycles[index].increment();
        if (o != null && o.isError()) {
            errors[index].increment();
        }
        service[index].recordValue(Math.max(0, clock.nanoTime() - startNanos));
    }

    /**
     * Each op's cycles, errors and service times (from the cycle's first step sent to its last response), in the
     * file's order. Read once, after the run.
     */
    @Override
    public String breakdown() {
        StringBuilder b = new StringBuilder(String.format("%n  %-20s %10s %8s %12s %10s %10s%n", "op", "cycles", "errors",
                "service p50", "p99", "max"));
        for (int i = 0; i < cycles.length; i++) {
            Histogram h = service[i].getIntervalHistogram();
            b.append(String.format("  %-20s %10d %8d %12s %10s %10s%n", workload.ops().get(i).name(), cycles[i].sum(),
                    errors[i].sum(), Durations.format(h.getValueAtPercentile(50)),
                    Durations.format(h.getValueAtPercentile(99)), Durations.format(h.getMaxValue())));
        }
        return b.toString();
    }

    @Override
    public void start(long cycle, Completion completion) {
        long startNanos = clock.nanoTime();
        int index = mix.op(cycle);
        for (Fn f : bindings) {
            if (!f.has(cycle)) {
                record(index, startNanos, CheckOutcomes.DATA_EXHAUSTED);
                completion.complete(CheckOutcomes.DATA_EXHAUSTED);
                return;
            }
        }
        Workload.Op op = workload.ops().get(index);
        new CycleRun(index, startNanos, op, needsBody[index], new CycleState(cycle, op.savedNames().size()), completion)
                .send();
    }

    /**
     * Renders the requests of the first {@link #WARM_UP_CYCLES} cycles (bindings, templates, the mix) and runs the
     * JSON reader, without sending anything, so the first measured cycles do not pay for compiling them.
     */
    @Override
    public void warmUp() {
        Bytes[] scratch = SCRATCH.get();
        for (long c = 0; c < WARM_UP_CYCLES; c++) {
            Workload.Op op = workload.ops().get(mix.op(c));
            CycleState st = new CycleState(c, op.savedNames().size());
            java.util.Arrays.fill(st.saved, "0");
            for (int i = 0; i < op.steps().size(); i++) {
                Workload.Step step = op.steps().get(i);
                Rendered.writeHttp1(step, st, head, scratch[0], scratch[1]);
                if (needsBody[mix.op(c)][i]) {
                    StepCheck.judge(step, st, 200, "{\"id\": 1}".getBytes(StandardCharsets.UTF_8), n -> Optional.of("0"));
                }
            }
        }
    }

    static final long WARM_UP_CYCLES = 20_000;

    @Override
    public int capacity() {
        return client.capacity();
    }

    @Override
    public void close() {
        client.close();
    }

    /** One cycle in flight: its steps in order, then one completion. */
    private final class CycleRun implements RequestClient.Exchange {
        private final int index;
        private final long startNanos;
        private final Workload.Op op;
        private final boolean[] needsBody;
        private final CycleState st;
        private final Completion completion;
        /** The step in flight; written before each send, read in its response (ordered by the client's hand-off). */
        private int step;
        private Outcome warned;

        CycleRun(int index, long startNanos, Workload.Op op, boolean[] needsBody, CycleState st, Completion completion) {
            this.index = index;
            this.startNanos = startNanos;
            this.op = op;
            this.needsBody = needsBody;
            this.st = st;
            this.completion = completion;
        }

        void send() {
            Bytes[] scratch = SCRATCH.get();
            try {
                Rendered.writeHttp1(op.steps().get(step), st, head, scratch[0], scratch[1]);
            } catch (RuntimeException e) {
                done(Outcome.forThrowable(e));
                return;
            }
            client.send(scratch[0].array, scratch[0].length, this);
        }

        @Override
        public void response(int status, HttpHeaders headers, ByteBuf body) {
            Outcome o;
            try {
                byte[] bytes = needsBody[step] ? ByteBufUtil.getBytes(body) : null;
                o = StepCheck.judge(op.steps().get(step), st, status, bytes, name -> Optional.ofNullable(headers.get(name)));
            } catch (RuntimeException e) {
                done(Outcome.forThrowable(e));
                return;
            }
            if (o != null && o.isError()) {
                done(o);
                return;
            }
            if (o != null && warned == null) {
                warned = o;
            }
            if (++step < op.steps().size()) {
                send();
            } else {
                done(warned);
            }
        }

        /** The cycle's one outcome: counted for its op, then handed to the run. */
        private void done(Outcome o) {
            record(index, startNanos, o);
            completion.complete(o);
        }

        @Override
        public void failed(Throwable failure) {
            done(CheckOutcomes.forFailure(failure));
        }
    }
}
