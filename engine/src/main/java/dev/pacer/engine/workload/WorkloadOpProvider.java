package dev.pacer.engine.workload;

import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --op workload:FILE}: the workload file's mix of requests. Options: {@code shards} (the test's shard
 * count N, which the mix needs: set by the run), {@code var} (repeatable {@code NAME=VALUE}, overriding the
 * file's vars), {@code connect-timeout} (5s), {@code request-timeout} (30s), {@code connections} (the most
 * cycles in flight, 64), {@code insecure} (an https:// base: trust any certificate).
 */
public final class WorkloadOpProvider implements OpProvider {

    /** The OpSpec option that carries the test's shard count. */
    public static final String SHARDS = "shards";

    @Override
    public String name() {
        return "workload";
    }

    @Override
    public String description() {
        return "a workload file's mix of HTTP requests with generated data and checks: workload:shop.yaml";
    }

    @Override
    public Op create(OpSpec spec) throws Exception {
        return create(spec, RunClock.system());
    }

    @Override
    public Op create(OpSpec spec, RunClock clock) throws Exception {
        if (spec.argument().isEmpty()) {
            throw new SettingException("op", spec.toString(), "workload needs a file: workload:shop.yaml");
        }
        Path file = Path.of(spec.argument());
        if (!Files.isRegularFile(file)) {
            throw new SettingException("op", spec.toString(), "no workload file " + file);
        }
        Workload w = WorkloadParser.parse(file, vars(spec));
        int shards = spec.option(SHARDS) == null ? 1 : Integer.parseInt(spec.option(SHARDS));
        Duration connect = Durations.parsePositive(or(spec.option("connect-timeout"), "5s"), "connect-timeout");
        Duration request = Durations.parsePositive(or(spec.option("request-timeout"), "30s"), "request-timeout");
        int connections = 64;
        if (spec.option("connections") != null) {
            try {
                connections = Integer.parseInt(spec.option("connections").strip());
            } catch (NumberFormatException e) {
                connections = 0;
            }
            if (connections < 1 || connections > 100_000) {
                throw new SettingException("connections", spec.option("connections"), "expected 1 to 100000");
            }
        }
        return new WorkloadOp(w, shards, connect, request, connections, spec.flag("insecure"), clock);
    }

    /**
     * The files a run of this op reads, each with what it is in words, that no output may overwrite: a workload file
     * (HTTP or SQL) and an HTTP workload's data files; none for other ops. A workload that does not compile yields
     * only its own file: the run says what is wrong with it.
     */
    public static Map<Path, String> inputs(OpSpec spec) {
        Map<Path, String> files = new LinkedHashMap<>();
        boolean http = spec.name().equals("workload");
        if (!http && !spec.name().equals("postgres") || spec.argument().isEmpty()) {
            return files;
        }
        Path file = Path.of(spec.argument());
        if (!Files.isRegularFile(file)) {
            return files; // postgres:tpcb-like names a built-in workload
        }
        files.put(file, "the workload file");
        if (http) {
            try {
                WorkloadParser.dataFiles(file, vars(spec)).stream().sorted()
                        .forEach(data -> files.putIfAbsent(data, "a file the workload reads"));
            } catch (IOException | RuntimeException e) {
                // said with its file and line when the run compiles it
            }
        }
        return files;
    }

    /** The {@code var} options as a map. */
    static Map<String, String> vars(OpSpec spec) {
        Map<String, String> vars = new LinkedHashMap<>();
        for (String v : spec.optionValues("var")) {
            int eq = v.indexOf('=');
            if (eq <= 0) {
                throw new SettingException("var", v, "expected NAME=VALUE");
            }
            String name = v.substring(0, eq).strip();
            if (vars.put(name, v.substring(eq + 1)) != null) { // the last won without a word
                throw new SettingException("var", v, "sets " + name + " again: give each var once");
            }
        }
        return vars;
    }

    private static String or(String v, String fallback) {
        return v == null ? fallback : v;
    }
}
