package dev.pacer.engine.workload;

import dev.pacer.engine.op.AsyncOp;
import dev.pacer.engine.op.Completion;
import dev.pacer.engine.op.Outcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A workload as an op: each cycle runs the op the mix gives it, its steps one after another (each started from the
 * previous one's response), checks each response and completes the cycle once, with its first failure or ok. A
 * failed step ends its cycle: the later steps are not sent. Asynchronous, over the JDK's HTTP/1.1 client.
 * Thread-safe: a cycle's state is its own and passes from step to step through the client's completions.
 */
final class WorkloadOp implements AsyncOp {

    private final Workload workload;
    private final Mix mix;
    private final HttpClient client;
    private final ExecutorService executor;
    private final Duration timeout;
    private final int capacity;
    private final String baseText;
    private final Fn[] bindings;
    private final boolean[][] needsBody;

    WorkloadOp(Workload workload, int shards, Duration connectTimeout, Duration timeout, int capacity) {
        this.workload = workload;
        this.mix = Mix.of(workload.ops().stream().mapToLong(Workload.Op::weight).toArray(), shards);
        this.timeout = timeout;
        this.capacity = capacity;
        this.executor = Executors.newFixedThreadPool(Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors())),
                r -> {
                    Thread t = new Thread(r, "pacer-workload-http");
                    t.setDaemon(true);
                    return t;
                });
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .executor(executor).followRedirects(HttpClient.Redirect.NEVER).build();
        String b = workload.base().toString();
        this.baseText = b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
        this.bindings = workload.bindings().values().stream().map(Workload.Binding::fn).toArray(Fn[]::new);
        this.needsBody = workload.ops().stream()
                .map(op -> {
                    boolean[] n = new boolean[op.steps().size()];
                    for (int i = 0; i < n.length; i++) {
                        n[i] = StepCheck.needsBody(op.steps().get(i));
                    }
                    return n;
                }).toArray(boolean[][]::new);
    }

    /** The op index a cycle runs (for per-op figures). */
    int opOf(long cycle) {
        return mix.op(cycle);
    }

    Workload workload() {
        return workload;
    }

    @Override
    public void start(long cycle, Completion completion) {
        for (Fn f : bindings) {
            if (!f.has(cycle)) {
                completion.complete(CheckOutcomes.DATA_EXHAUSTED);
                return;
            }
        }
        int index = mix.op(cycle);
        Workload.Op op = workload.ops().get(index);
        new CycleRun(op, needsBody[index], new CycleState(cycle, op.savedNames().size()), completion).send(0);
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public void close() {
        client.shutdownNow();
        executor.shutdownNow();
    }

    /** One cycle in flight: its steps in order, then one completion. */
    private final class CycleRun {
        private final Workload.Op op;
        private final boolean[] needsBody;
        private final CycleState st;
        private final Completion completion;
        private Outcome warned;

        CycleRun(Workload.Op op, boolean[] needsBody, CycleState st, Completion completion) {
            this.op = op;
            this.needsBody = needsBody;
            this.st = st;
            this.completion = completion;
        }

        void send(int i) {
            Workload.Step step = op.steps().get(i);
            HttpRequest request;
            try {
                request = request(Rendered.of(step, st, new Bytes(256)));
            } catch (RuntimeException e) {
                completion.fail(e);
                return;
            }
            if (needsBody[i]) {
                client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                        .whenComplete((r, e) -> done(i, r == null ? 0 : r.statusCode(), r == null ? null : r.body(), r, e));
            } else {
                client.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                        .whenComplete((r, e) -> done(i, r == null ? 0 : r.statusCode(), null, r, e));
            }
        }

        private void done(int i, int status, byte[] body, HttpResponse<?> response, Throwable failure) {
            if (failure != null) {
                completion.complete(CheckOutcomes.forFailure(failure));
                return;
            }
            Outcome o;
            try {
                o = StepCheck.judge(op.steps().get(i), st, status, body, name -> response.headers().firstValue(name));
            } catch (RuntimeException e) {
                completion.fail(e);
                return;
            }
            if (o != null && o.isError()) {
                completion.complete(o);
                return;
            }
            if (o != null && warned == null) {
                warned = o;
            }
            if (i + 1 < op.steps().size()) {
                send(i + 1);
            } else {
                completion.complete(warned);
            }
        }

        private HttpRequest request(Rendered r) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseText + r.target())).timeout(timeout);
            for (int h = 0; h < r.headers().size(); h += 2) {
                b.header(r.headers().get(h), r.headers().get(h + 1));
            }
            b.method(r.method(), r.body() == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(r.body()));
            return b.build();
        }
    }
}
