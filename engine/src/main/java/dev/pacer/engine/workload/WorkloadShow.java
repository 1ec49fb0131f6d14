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
        checkCycles(to);
        Mix mix = Mix.of(w.ops().stream().mapToLong(Workload.Op::weight).toArray(), shards);
        Bytes request = new Bytes(256);
        Bytes body = new Bytes(256);
        byte[] head = WorkloadOp.headOf(w);
        out.printf("workload %s: %d ops, mix window %d cycles%s%n", w.name(), w.ops().size(), mix.length(),
                shards > 1 ? " (as " + shards + " shards)" : "");
        for (long c = from; c < to; c++) {
            Workload.Op op = w.ops().get(mix.op(c));
            out.printf("%ncycle %d: %s%n", c, op.name());
            if (!printBindings(w.bindings().values(), c, out)) {
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

    /**
     * Prints cycles {@code from .. to - 1} of a SQL workload as {@code shards} shards would run them: each step's
     * statement in PostgreSQL's {@code $1} notation and the value each parameter is bound to ({@code ~name~} for a
     * value an earlier step saves), between {@code BEGIN} and {@code COMMIT} for a transaction.
     */
    public static void printSql(java.nio.file.Path file, java.util.Map<String, String> vars, long from, long to,
                                int shards, PrintStream out) throws java.io.IOException {
        printSql(SqlWorkloadParser.parse(file, vars), from, to, shards, out);
    }

    static void printSql(SqlWorkload w, long from, long to, int shards, PrintStream out) {
        checkCycles(to);
        Mix mix = Mix.of(w.ops().stream().mapToLong(SqlWorkload.Op::weight).toArray(), shards);
        out.printf("workload %s (postgres): %d ops, mix window %d cycles%s%n", w.name(), w.ops().size(), mix.length(),
                shards > 1 ? " (as " + shards + " shards)" : "");
        for (long c = from; c < to; c++) {
            SqlWorkload.Op op = w.ops().get(mix.op(c));
            out.printf("%ncycle %d: %s%n", c, op.name());
            if (!printBindings(w.bindings(), c, out)) {
                continue;
            }
            if (op.transaction()) {
                out.println("  | BEGIN");
            }
            for (SqlWorkload.Step s : op.steps()) {
                out.println("  | " + s.numbered().replace("\n", "\n  | "));
                for (int i = 0; i < s.params().size(); i++) {
                    SqlWorkload.Slot p = s.params().get(i);
                    String value = p.binding() >= 0 ? sqlValue(w.bindings().get(p.binding()).fn(), c)
                            : p.saved() >= 0 ? "~" + p.name() + "~" : Long.toString(c);
                    out.printf("  |   $%d = %s%n", i + 1, value);
                }
            }
            if (op.transaction()) {
                out.println("  | COMMIT");
            }
        }
    }

    /**
     * Prints each binding's value for {@code cycle}; false, and says so, when one has none (a used-up
     * {@code csv(..., once)}): then, as in the run, the cycle sends nothing.
     */
    private static boolean printBindings(Iterable<Workload.Binding> bindings, long cycle, PrintStream out) {
        boolean exhausted = false;
        for (Workload.Binding b : bindings) {
            boolean has = b.fn().has(cycle);
            exhausted |= !has;
            out.printf("  %s = %s%n", b.name(), has ? b.fn().text(cycle) : "(none: the file is used up)");
        }
        if (exhausted) {
            out.println("  sends nothing: data-exhausted");
        }
        return !exhausted;
    }

    /** A binding's value as bound: a number bare, text quoted as SQL writes a literal. */
    private static String sqlValue(Fn f, long cycle) {
        String text = f.text(cycle);
        return f.kind() == Fn.Kind.TEXT ? "'" + text.replace("'", "''") + "'" : text;
    }

    private static void checkCycles(long to) {
        if (to > Fns.CYCLE_LIMIT) {
            throw new IllegalArgumentException("cycle " + (to - 1) + " is past the last a workload gives data for, "
                    + (Fns.CYCLE_LIMIT - 1) + " (2^48 - 1)");
        }
    }
}
