package dev.pacer.engine.workload;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code --op postgres:WORKLOAD}: a SQL workload file ({@code driver: postgres}) or a built-in one
 * ({@code tpcb-like}, {@code simple-update}, {@code select-only}) against PostgreSQL. Options: {@code url}
 * ({@code postgresql://user:password@host:port/db}; the file's {@code url} otherwise), {@code connections} (the
 * most cycles in flight, 8), {@code scale} (the built-ins'; found from {@code pgbench_branches} by default),
 * {@code shards} (set by the run), {@code var} (the file's vars), {@code connect-timeout} (5s),
 * {@code request-timeout} (30s), {@code warm-up} (cycles run in rolled-back transactions before the schedule starts,
 * at most 3 s: 20 000; 0: none), and the client:
 * <ul>
 *   <li>{@code client=jdbc} (the default): pgjdbc, with {@code jdbc-threads=workers} (the default: the run's workers
 *       run the cycles, one connection each, and the run has one worker per connection unless it sets its threads:
 *       {@link PostgresWorkersOp}), {@code jdbc-threads=platform} (each cycle handed to a platform thread per
 *       connection) or {@code jdbc-threads=virtual} (to a virtual thread per cycle): {@link PostgresHandOffOp};</li>
 *   <li>{@code client=vertx}: vertx-pg-client on Netty's event loops ({@code io-threads}: half the cores, 1 to 4,
 *       at most one per connection), {@code pipelining=on} to send a transaction's statements before the first
 *       answer ({@code off} by default): {@link PostgresVertxOp}.</li>
 * </ul>
 */
public final class PostgresOpProvider implements OpProvider {

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public String description() {
        return "a SQL workload against PostgreSQL: postgres:tpcb-like (or simple-update, select-only, a file) with "
                + "url=postgresql://...";
    }

    @Override
    public Op create(OpSpec spec) throws Exception {
        String arg = spec.argument();
        if (arg.isEmpty()) {
            throw new SettingException("op", spec.toString(), "postgres needs a workload: postgres:tpcb-like or "
                    + "postgres:file.yaml");
        }
        // every option is checked before anything connects
        Map<String, String> vars = WorkloadOpProvider.vars(spec);
        String shardCount = spec.option(WorkloadOpProvider.SHARDS);
        int shards = shardCount == null ? 1 : Integer.parseInt(shardCount);
        Duration connect = Durations.parsePositive(or(spec.option("connect-timeout"), "5s"), "connect-timeout");
        Duration request = Durations.parsePositive(or(spec.option("request-timeout"), "30s"), "request-timeout");
        int connections = whole(spec, "connections", 8, 1, 10_000);
        long warmUp = spec.option("warm-up") == null ? 20_000 : whole(spec, "warm-up", 0, 0, Integer.MAX_VALUE);
        long scale = spec.option("scale") == null ? 0 : whole(spec, "scale", 0, 1, 100_000);
        String client = or(spec.option("client"), "jdbc");
        String threads = spec.option("jdbc-threads");
        String pipelining = spec.option("pipelining");
        String ioThreads = spec.option("io-threads");
        int loops = Math.min(connections, Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 2)));
        switch (client) {
            case "jdbc" -> {
                if (pipelining != null) {
                    throw new SettingException("pipelining", pipelining,
                            "is client=vertx's: pgjdbc sends one statement at a time");
                }
                if (ioThreads != null) {
                    throw new SettingException("io-threads", ioThreads, "is client=vertx's: pgjdbc has no event loops");
                }
                // pgjdbc's connectTimeout and socketTimeout are whole seconds: 2900ms was 2 s, and a statement
                // answered in time was counted a timeout
                for (String option : List.of("connect-timeout", "request-timeout")) {
                    Duration d = option.equals("connect-timeout") ? connect : request;
                    if (d.toNanos() % 1_000_000_000L != 0) {
                        throw new SettingException(option, spec.option(option), "pgjdbc times out in whole seconds:"
                                + " give 1s, 2s, ... (client=vertx takes milliseconds)");
                    }
                }
                threads = or(threads, "workers");
                if (!List.of("workers", "platform", "virtual").contains(threads)) {
                    throw new SettingException("jdbc-threads", threads, "expected workers (the run's workers run the"
                            + " cycles, the default), platform (a thread per connection) or virtual (a virtual thread"
                            + " per cycle)");
                }
            }
            case "vertx" -> {
                if (threads != null) {
                    throw new SettingException("jdbc-threads", threads,
                            "is client=jdbc's: client=vertx runs on its event loops");
                }
                pipelining = or(pipelining, "off");
                if (!pipelining.equals("on") && !pipelining.equals("off")) {
                    throw new SettingException("pipelining", pipelining, "expected on or off");
                }
                if (ioThreads != null) {
                    loops = whole(spec, "io-threads", 0, 1, 256);
                }
            }
            default -> throw new SettingException("client", client, "expected jdbc (pgjdbc, the default) or vertx"
                    + " (vertx-pg-client)");
        }
        String url = spec.option("url");
        SqlWorkload w;
        if (PgBench.BUILTINS.contains(arg)) {
            if (url == null) {
                throw new SettingException("url", "", "the built-in workload " + arg + " needs --url postgresql://...");
            }
            if (scale == 0) {
                try (Connection c = new PgServer(url, connect, request).connectFirst()) {
                    scale = PgBench.scale(c);
                }
            }
            w = SqlWorkloadParser.parse(PgBench.script(arg, scale), "builtin:" + arg, null, vars);
        } else {
            Path file = Path.of(arg);
            if (!Files.isRegularFile(file)) {
                // named as the workload (--workload in the CLI), the postgres op's argument: "--op 'postgres:x'" named
                // a flag the user of --workload never typed
                throw new SettingException("workload", arg, "no workload file " + file + " (built in: "
                        + String.join(", ", PgBench.BUILTINS) + ")");
            }
            w = SqlWorkloadParser.parse(file, vars);
            if (url == null) {
                url = w.url();
            }
            if (url == null) {
                throw new SettingException("url", "", "give --url postgresql://... (or 'url:' in " + file + ")");
            }
        }
        PgWorkload workload = new PgWorkload(w, shards);
        PgServer server = new PgServer(url, connect, request);
        if (client.equals("vertx")) {
            return new PostgresVertxOp(workload, server, connections, connect, request, loops, pipelining.equals("on"),
                    warmUp);
        }
        return threads.equals("workers") ? new PostgresWorkersOp(workload, server, connections, warmUp)
                : new PostgresHandOffOp(workload, server, connections, threads.equals("platform"), warmUp);
    }

    /** A whole-number option from {@code min} to {@code max}, or {@code fallback} when not given. */
    private static int whole(OpSpec spec, String option, int fallback, int min, int max) {
        String text = spec.option(option);
        if (text == null) {
            return fallback;
        }
        long v;
        try {
            v = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            v = Long.MIN_VALUE;
        }
        if (v < min || v > max) {
            throw new SettingException(option, text, min == 0 && option.equals("warm-up")
                    ? "expected a number of cycles, 0 or more" : "expected " + min + " to " + max);
        }
        return (int) v;
    }

    private static String or(String v, String fallback) {
        return v == null ? fallback : v;
    }
}
