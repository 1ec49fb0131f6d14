package dev.pacer.engine.workload;

import java.util.List;

/**
 * A loaded SQL workload (the {@code postgres} driver's), compiled: its bindings, its ops (each statements run one
 * after another, in a transaction or not, with row checks and saved columns) and its weights. Immutable,
 * thread-safe. Built by {@link SqlWorkloadParser}.
 *
 * @param name     the workload's name
 * @param source   the file it came from (or {@code builtin:NAME}), for messages
 * @param url      the file's {@code url}, or null (the run's {@code --url} wins)
 * @param bindings the compiled bindings, by index ({@link Slot#binding})
 * @param ops      the ops, in the file's order
 */
record SqlWorkload(String name, String source, String url, List<Workload.Binding> bindings, List<Op> ops) {

    /**
     * One op of the mix.
     *
     * @param transaction true: its statements run between BEGIN and COMMIT, rolled back at the first failure
     * @param savedNames  the names its steps save, by slot
     */
    record Op(String name, long weight, boolean transaction, List<Step> steps, List<String> savedNames) {
    }

    /**
     * One statement.
     *
     * @param sql     the statement with a {@code ?} for each {@code {name}} (sent as a prepared statement), pgjdbc's
     * @param numbered the statement with {@code $1}, {@code $2}, ... for them (PostgreSQL's notation, for
     *                 vertx-pg-client), a whole-number binding's and the cycle's cast {@code ::int8} and a decimal's
     *                 {@code ::float8}: the types pgjdbc declares for them
     * @param params  what each {@code ?} is bound to, in order
     * @param rows    the rows it must return or change, or -1
     * @param saves   the columns saved for later steps
     * @param line    its line in the file
     */
    record Step(String sql, String numbered, List<Slot> params, long rows, List<Save> saves, int line) {
    }

    /**
     * What a parameter is bound to: a binding (its index), a saved value (its slot) or the cycle.
     *
     * @param name    the {@code {name}} as written
     * @param binding the binding's index, or -1
     * @param saved   the saved value's slot, or -1
     */
    record Slot(String name, int binding, int saved) {

        boolean isCycle() {
            return binding < 0 && saved < 0;
        }
    }

    /** A column of the first row kept in a saved slot. */
    record Save(String name, String column, int slot) {
    }
}
