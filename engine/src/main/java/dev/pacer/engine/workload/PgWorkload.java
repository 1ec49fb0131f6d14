package dev.pacer.engine.workload;

import java.util.List;

/**
 * A SQL workload ready to run, whatever the client: its ops, the mix that picks each cycle's op (over the run's
 * shards) and the compiled bindings. Immutable, thread-safe.
 */
final class PgWorkload {

    final SqlWorkload workload;
    final List<SqlWorkload.Op> ops;
    /** The ops' names, in the file's order: the run's per-op figures ({@link dev.pacer.engine.op.OpMix}). */
    final List<String> names;
    final Fn[] bindings;
    private final Mix mix;

    PgWorkload(SqlWorkload workload, int shards) {
        this.workload = workload;
        this.ops = workload.ops();
        this.names = ops.stream().map(SqlWorkload.Op::name).toList();
        this.bindings = workload.bindings().stream().map(Workload.Binding::fn).toArray(Fn[]::new);
        this.mix = Mix.of(ops.stream().mapToLong(SqlWorkload.Op::weight).toArray(), shards);
    }

    /**
     * The index of the op {@code cycle} runs, or -1 when a binding has no value for it (a used-up
     * {@code csv(..., once)}): then nothing is sent and the cycle is {@link CheckOutcomes#DATA_EXHAUSTED}.
     */
    int opToSend(long cycle) {
        for (Fn f : bindings) {
            if (!f.has(cycle)) {
                return -1;
            }
        }
        return mix.op(cycle);
    }

    /** The index of the op the mix gives {@code cycle}: pure and cheap, for the run's per-op figures. */
    int mixOp(long cycle) {
        return mix.op(cycle);
    }

    /** Whether an op's statements may all be sent before the first answer: a transaction that binds no saved value. */
    static boolean pipelinable(SqlWorkload.Op op) {
        return op.transaction() && op.savedNames().isEmpty();
    }
}
