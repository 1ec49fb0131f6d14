package dev.pacer.engine.workload;

import dev.pacer.engine.op.Op;
import dev.pacer.engine.op.OpProvider;
import dev.pacer.engine.op.OpSpec;
import dev.pacer.engine.text.Durations;
import dev.pacer.engine.text.SettingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * {@code --op postgres:WORKLOAD}: a SQL workload file ({@code driver: postgres}) or a built-in one
 * ({@code tpcb-like}, {@code simple-update}, {@code select-only}) against PostgreSQL. Options: {@code url}
 * ({@code postgresql://user:password@host:port/db}; the file's {@code url} otherwise), {@code connections} (the
 * most cycles in flight, 8), {@code scale} (the built-ins'; found from {@code pgbench_branches} by default),
 * {@code shards} (set by the run), {@code var} (the file's vars), {@code connect-timeout} (5s),
 * {@code request-timeout} (30s), {@code threads} ({@code platform}: a thread per connection, the default, measured
 * 5-20 % more transactions per second than {@code virtual}, a virtual thread per cycle; see docs/postgres.md),
 * {@code warm-up} (cycles run in rolled-back transactions before the schedule starts, at most 3 s: 20 000; 0: none).
 */
public final class PostgresOpProvider implements OpProvider {

    @Override
    public String name() {
        return "postgres";
    }

    @Override
    public String description() {
        return "a SQL workload against PostgreSQL: postgres:tpcb-like (or simple-update, select-only, a file) with url=postgresql://...";
    }

    @Override
    public Op create(OpSpec spec) throws Exception {
        String arg = spec.argument();
        if (arg.isEmpty()) {
            throw new SettingException("op", spec.toString(), "postgres needs a workload: postgres:tpcb-like or postgres:file.yaml");
        }
        Map<String, String> vars = WorkloadOpProvider.vars(spec);
        String url = spec.option("url");
        SqlWorkload w;
        if (PgBench.BUILTINS.contains(arg)) {
            if (url == null) {
                throw new SettingException("url", "", "the built-in workload " + arg + " needs --url postgresql://...");
            }
            long scale;
            if (spec.option("scale") != null) {
                try {
                    scale = Long.parseLong(spec.option("scale").strip());
                } catch (NumberFormatException e) {
                    scale = 0;
                }
                if (scale < 1 || scale > 100_000) {
                    throw new SettingException("scale", spec.option("scale"), "expected 1 to 100000");
                }
            } else {
                Properties props = new Properties();
                String jdbc = PostgresOp.jdbcUrl(url, props);
                try (Connection c = DriverManager.getConnection(jdbc, props)) {
                    scale = PgBench.scale(c);
                } catch (SQLException e) {
                    throw new IllegalArgumentException("postgres: cannot connect to " + PostgresOp.redacted(url) + ": "
                            + (e.getMessage() == null ? e : e.getMessage().lines().findFirst().orElse("")));
                }
            }
            w = SqlWorkloadParser.parse(PgBench.script(arg, scale), "builtin:" + arg, null, vars);
        } else {
            Path file = Path.of(arg);
            if (!Files.isRegularFile(file)) {
                throw new SettingException("op", spec.toString(), "no workload file " + file + " (built in: "
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
        int shards = spec.option(WorkloadOpProvider.SHARDS) == null ? 1 : Integer.parseInt(spec.option(WorkloadOpProvider.SHARDS));
        Duration connect = Durations.parsePositive(or(spec.option("connect-timeout"), "5s"), "connect-timeout");
        Duration request = Durations.parsePositive(or(spec.option("request-timeout"), "30s"), "request-timeout");
        int connections = 8;
        if (spec.option("connections") != null) {
            try {
                connections = Integer.parseInt(spec.option("connections").strip());
            } catch (NumberFormatException e) {
                connections = 0;
            }
            if (connections < 1 || connections > 10_000) {
                throw new SettingException("connections", spec.option("connections"), "expected 1 to 10000");
            }
        }
        String threads = or(spec.option("threads"), "platform");
        if (!threads.equals("virtual") && !threads.equals("platform")) {
            throw new SettingException("threads", threads, "expected virtual or platform");
        }
        long warmUp = 20_000;
        if (spec.option("warm-up") != null) {
            try {
                warmUp = Long.parseLong(spec.option("warm-up").strip());
            } catch (NumberFormatException e) {
                warmUp = -1;
            }
            if (warmUp < 0) {
                throw new SettingException("warm-up", spec.option("warm-up"), "expected a number of cycles, 0 or more");
            }
        }
        return new PostgresOp(w, url, shards, connections, connect, request, threads.equals("platform"), warmUp);
    }

    private static String or(String v, String fallback) {
        return v == null ? fallback : v;
    }
}
