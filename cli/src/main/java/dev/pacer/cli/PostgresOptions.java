package dev.pacer.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The flags of the postgres op ({@code --workload}, a {@code driver: postgres} file) beyond those it shares with the
 * http op ({@code --url}, {@code -c}, the timeouts), mixed into {@code pacer run}; they become the op's named
 * options, checked by the op.
 */
final class PostgresOptions {

    /** The options only the postgres op takes. */
    static final java.util.Set<String> OWN = java.util.Set.of("client", "jdbc-threads", "pipelining");

    @Option(names = "--client", paramLabel = "jdbc|vertx",
            description = "postgres: the client: jdbc (pgjdbc, the default) or vertx (vertx-pg-client, asynchronous).")
    String client;

    @Option(names = "--jdbc-threads", paramLabel = "workers|platform|virtual",
            description = {"postgres, jdbc: who runs each transaction: workers (the run's workers, one connection",
                    "each, as many as -c unless --threads says; the default), platform (handed to a thread per",
                    "connection) or virtual (handed to a virtual thread per transaction)."})
    String jdbcThreads;

    @Option(names = "--pipelining", paramLabel = "on|off",
            description = "postgres, vertx: send a transaction's statements before the first answer (default off).")
    String pipelining;

    /** The options given, keyed as the op reads them. */
    Map<String, List<String>> toOptions() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        put(m, "client", client);
        put(m, "jdbc-threads", jdbcThreads);
        put(m, "pipelining", pipelining);
        return m;
    }

    private static void put(Map<String, List<String>> m, String key, String value) {
        if (value != null) {
            m.put(key, List.of(value));
        }
    }
}
