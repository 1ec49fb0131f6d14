package dev.pacer.cli;

import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.WorkloadFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The flags of {@code pacer run} that say what each op does: a built-in or class-path op, or a SQL workload. */
final class OpOptions {

    @Option(names = "--op", paramLabel = "OP",
            description = {"The operation (default: noop, or the scenario's): noop, sleep:2ms, sleep:uniform(1ms,5ms),",
                    "sleep:exp(2ms), cpu:50us, http (with --url ...), or any op on the class path (see: pacer ops)."})
    String op;

    @Option(names = "--var", paramLabel = "NAME=VALUE",
            description = "A workload file's var, overriding the file's value (repeatable).")
    List<String> vars = new ArrayList<>();

    @Option(names = "--workload", paramLabel = "NAME|FILE",
            description = {"A SQL workload against PostgreSQL (with --url postgresql://user:password@host:port/db):",
                    "tpcb-like, simple-update or select-only (pgbench's scripts, on its tables: pacer pg-init), or a",
                    "file with 'driver: postgres'; -c sets the connections (default 8), --client the client",
                    "(jdbc or vertx). See docs/postgres.md."})
    String sqlWorkload;

    /**
     * The op to run: {@code --op}, else the workload file or {@code --workload}, else the scenario's, else noop;
     * with the scenario's op options, then {@code flagOptions} (the op's own flags, which override the file's),
     * then the vars.
     *
     * @param workloadFile the workload file given in place of a scenario, or null
     */
    OpSpec spec(Scenario scenario, Path workloadFile, Map<String, List<String>> flagOptions) {
        Map<String, List<String>> options = new LinkedHashMap<>();
        String opText = op;
        if (scenario != null) {
            options.putAll(scenario.opOptions());
            opText = op != null ? op : scenario.op();
        }
        if (workloadFile != null) {
            if (op != null) {
                throw new IllegalArgumentException("give a workload file or --op, not both");
            }
            opText = (WorkloadFiles.isSql(workloadFile) ? "postgres:" : "workload:") + workloadFile;
        }
        if (sqlWorkload != null) {
            if (op != null || workloadFile != null) {
                throw new IllegalArgumentException("give --workload or --op (or a workload file), not both");
            }
            opText = "postgres:" + sqlWorkload;
        }
        options.putAll(flagOptions);
        OpSpec spec = OpSpec.parse(opText == null ? "noop" : opText, options);
        HttpOptions.refuseUnlessHttp(spec);
        HttpOptions.checkBody(spec.option("body"));
        if (vars.isEmpty()) {
            return spec;
        }
        if (!spec.name().equals("workload") && !spec.name().equals("postgres")) {
            throw new SettingException("var", vars.get(0), "sets a workload file's var: give a workload file");
        }
        Map<String, List<String>> withVars = new LinkedHashMap<>(spec.options());
        withVars.put("var", List.copyOf(vars));
        return new OpSpec(spec.name(), spec.argument(), withVars);
    }
}
