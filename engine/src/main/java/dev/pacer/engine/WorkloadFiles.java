package dev.pacer.engine;

import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.internal.SignalStop;
import dev.pacer.engine.workload.PgBench;
import dev.pacer.engine.workload.SqlWorkloadParser;
import dev.pacer.engine.workload.WorkloadOpProvider;
import dev.pacer.engine.workload.WorkloadParser;
import dev.pacer.engine.workload.WorkloadShow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Workload files outside a run: which kind a file is, what a workload sends cycle by cycle, and the tables pgbench's
 * scripts need. A run reads them itself ({@link LoadTest#workload(Path)}, {@code --op workload:FILE}).
 */
public final class WorkloadFiles {

    private WorkloadFiles() {
    }

    /** Whether {@code file} is a workload (it has top-level ops) rather than a scenario. */
    public static boolean isWorkload(Path file) {
        return WorkloadParser.isWorkload(file);
    }

    /**
     * The files a run of the op {@code spec} reads that no output may overwrite (a workload file, its data files),
     * each with what it is in words; empty for ops that read none.
     */
    public static Map<Path, String> inputs(OpSpec spec) {
        return WorkloadOpProvider.inputs(spec);
    }

    /** Whether {@code file} is a SQL workload (for PostgreSQL) rather than an HTTP one. */
    public static boolean isSql(Path file) {
        return SqlWorkloadParser.isSql(file);
    }

    /**
     * Prints what cycles {@code from} (inclusive) to {@code to} (exclusive) of the workload in {@code file} send, with
     * {@code vars} overriding its variables, as {@code shards} shards would share them; sends nothing.
     */
    public static void show(Path file, Map<String, String> vars, long from, long to, int shards, PrintStream out)
            throws IOException {
        if (SqlWorkloadParser.isSql(file)) {
            WorkloadShow.printSql(file, vars, from, to, shards, out);
        } else {
            WorkloadShow.print(WorkloadParser.parse(file, vars), from, to, shards, out);
        }
    }

    /**
     * Creates and fills pgbench's tables at {@code scale} in the database at the JDBC {@code url}, as pgbench -i, in
     * one transaction (then analyzes them). SIGINT, SIGTERM or SIGHUP meanwhile cancel it: the first cancels the
     * running statement, a second closes the connection.
     *
     * @return empty when done; else, in words, who stopped it and what it left
     * @throws IllegalArgumentException one line: a bad scale or URL, a refused login, a server error
     */
    @SuppressWarnings("try") // the signal handlers are held for the init's length, not used in the block
    public static Optional<PgInitStop> initPgBench(String url, long scale) {
        PgBench.Init init = new PgBench.Init(url, scale);
        Optional<String> left;
        try (SignalStop signals = new SignalStop(init::stop)) {
            left = init.run();
        }
        return left.map(what -> new PgInitStop(init.stoppedBy(), what));
    }

    /**
     * A {@link #initPgBench} stopped by a signal.
     *
     * @param signal the first signal's name ({@code SIGINT}, {@code SIGTERM}, {@code SIGHUP})
     * @param what   who stopped it and what it left, one line
     */
    public record PgInitStop(String signal, String what) {
    }
}
