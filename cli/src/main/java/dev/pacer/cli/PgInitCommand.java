package dev.pacer.cli;

import dev.pacer.engine.WorkloadFiles;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code pacer pg-init}: pgbench's tables at a scale, for the built-in SQL workloads. */
@Command(name = "pg-init", mixinStandardHelpOptions = true,
        description = {"Creates and fills pgbench's tables (replacing them) at a scale, like pgbench -i -s N.",
                "Then: pacer run --workload tpcb-like --url ... See docs/postgres.md."})
final class PgInitCommand implements Callable<Integer> {

    @Option(names = "--url", required = true, paramLabel = "URL",
            description = "postgresql://user:password@host:port/db")
    String url;

    @Option(names = {"-s", "--scale"}, paramLabel = "N", description = "100 000 accounts per unit (default 1).")
    long scale = 1;

    @Override
    public Integer call() {
        long t0 = System.nanoTime();
        var stopped = WorkloadFiles.initPgBench(url, scale);
        if (stopped.isPresent()) {
            System.err.println("pacer: pg-init " + stopped.get().what());
            return PacerCommand.exitStatusOfSignal(stopped.get().signal());
        }
        System.err.printf("pacer: pgbench tables at scale %d (%d accounts) in %.1f s%n", scale, 100_000 * scale,
                (System.nanoTime() - t0) / 1e9);
        return PacerCommand.EXIT_OK;
    }
}
