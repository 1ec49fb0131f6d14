package dev.pacer.engine;

import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.workload.PgBench;
import dev.pacer.engine.workload.SqlWorkloadParser;
import dev.pacer.engine.workload.WorkloadOpProvider;
import dev.pacer.engine.workload.WorkloadParser;
import dev.pacer.engine.workload.WorkloadShow;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

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
        WorkloadShow.print(WorkloadParser.parse(file, vars), from, to, shards, out);
    }

    /** Creates and fills pgbench's tables at {@code scale} in the database at the JDBC {@code url}, as pgbench -i. */
    public static void initPgBench(String url, long scale) {
        PgBench.init(url, scale);
    }
}
