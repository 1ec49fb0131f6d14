package dev.pacer.engine.workload;

import java.io.PrintStream;

/**
 * {@code pacer show}: what cycles would send, without sending anything: for each cycle its op, each binding's
 * value and each step's rendered request. Steps after one that saves a value show {@code ~name~} in place of a
 * saved value, which only a response can give. A cycle past a {@code csv(..., once)} file's rows sends nothing, as in
 * the run, and says so.
 */
public final class WorkloadShow {

    private WorkloadShow() {
    }

    /**
     * Prints cycles {@code from .. to - 1} as a test of {@code shards} shards would run them.
     */
    public static void print(Workload w, long from, long to, int shards, PrintStream out) {
        if (to > Fns.CYCLE_LIMIT) {
            throw new IllegalArgumentException("cycle " + (to - 1) + " is past the last a workload gives data for, "
                    + (Fns.CYCLE_LIMIT - 1) + " (2^48 - 1)");
        }
        Mix mix = Mix.of(w.ops().stream().mapToLong(Workload.Op::weight).toArray(), shards);
        Bytes request = new Bytes(256);
        Bytes body = new Bytes(256);
        byte[] head = WorkloadOp.headOf(w);
        out.printf("workload %s: %d ops, mix window %d cycles%s%n", w.name(), w.ops().size(), mix.length(),
                shards > 1 ? " (as " + shards + " shards)" : "");
        for (long c = from; c < to; c++) {
            Workload.Op op = w.ops().get(mix.op(c));
            out.printf("%ncycle %d: %s%n", c, op.name());
            boolean exhausted = false;
            for (Workload.Binding b : w.bindings().values()) {
                boolean has = b.fn().has(c);
                exhausted |= !has;
                out.printf("  %s = %s%n", b.name(), has ? b.fn().text(c) : "(none: the file is used up)");
            }
            if (exhausted) { // as the run: nothing is sent
                out.println("  sends nothing: data-exhausted");
                continue;
            }
            CycleState st = new CycleState(c, op.savedNames().size());
            for (int i = 0; i < st.saved.length; i++) {
                st.saved[i] = "~" + op.savedNames().get(i) + "~";
            }
            for (Workload.Step step : op.steps()) { // the bytes the run sends, a line of them at a time
                Rendered.writeHttp1(step, st, head, request, body);
                String text = new String(request.array, 0, request.length, java.nio.charset.StandardCharsets.UTF_8);
                for (String line : text.split("\r?\n", -1)) {
                    if (!line.isEmpty()) {
                        out.println("  | " + line);
                    }
                }
            }
        }
    }
}
