package dev.pacer.engine.workload;

import dev.pacer.engine.time.RunClock;
import dev.pacer.engine.op.AsyncOp;
import dev.pacer.engine.op.Completion;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.op.Outcome;
import dev.pacer.engine.op.http.RequestClient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A workload as an op: each cycle runs the op the mix gives it, its steps one after another (each sent from the
 * previous one's response), checks each response and completes the cycle once, with its first failure or ok. A
 * failed step ends its cycle: the later steps are not sent. Requests are written straight into bytes (no string
 * per request) and sent over the http op's event loops ({@link RequestClient}: HTTP/1.1 keep-alive connections).
 * Thread-safe: a cycle's state is its own and passes from step to step through the client's event loop.
 *
 * <p>It is a mix ({@link OpMix}): the run records each cycle under its op's name too, its wait to the first step's
 * start and its service time from there to the last step's end.
 */
final class WorkloadOp implements AsyncOp, OpMix {

    /** Per thread: the request being written and a body's scratch space. */
    private static final ThreadLocal<Bytes[]> SCRATCH = ThreadLocal.withInitial(() -> new Bytes[] {new Bytes(512), new Bytes(256)});

    private final Workload workload;
    private final Mix mix;
    private final RequestClient client;
    private final byte[] head;
    private final Fn[] bindings;
    private final boolean[][] needsBody;
    private final List<String> opNames;

    WorkloadOp(Workload workload, int shards, Duration connectTimeout, Duration timeout, int connections,
               RunClock clock) throws IOException {
        this.workload = workload;
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
        this.opNames = workload.ops().stream().map(Workload.Op::name).toList();
    }

    @Override
    public List<String> opNames() {
        return opNames;
    }

    @Override
    public int opOf(long cycle) {
        return mix.op(cycle);
    }

    @Override
    public void start(long cycle, Completion completion) {
        int index = mix.op(cycle);
        for (Fn f : bindings) {
            if (!f.has(cycle)) {
                completion.complete(CheckOutcomes.DATA_EXHAUSTED);
                return;
            }
        }
        Workload.Op op = workload.ops().get(index);
        new CycleRun(op, needsBody[index], new CycleState(cycle, op.savedNames().size()), completion).send();
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
        private final Workload.Op op;
        private final boolean[] needsBody;
        private final CycleState st;
        private final Completion completion;
        /** The step in flight; written before each send, read in its response (ordered by the client's hand-off). */
        private int step;
        private Outcome warned;

        CycleRun(Workload.Op op, boolean[] needsBody, CycleState st, Completion completion) {
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

        /** The cycle's one outcome, handed to the run (which records it under its op too). */
        private void done(Outcome o) {
            completion.complete(o);
        }

        @Override
        public void failed(Throwable failure) {
            done(CheckOutcomes.forFailure(failure));
        }
    }
}
