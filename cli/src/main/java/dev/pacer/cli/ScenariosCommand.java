package dev.pacer.cli;

import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.ScenarioCatalog;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code pacer scenarios}: the built-in scenarios with their one-line descriptions. */
@Command(name = "scenarios", mixinStandardHelpOptions = true,
        description = {"Lists the built-in scenarios (run one with: pacer run --scenario NAME).",
                "Write your own in YAML and run it with: pacer run my-scenario.yaml"})
final class ScenariosCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        for (Scenario s : ScenarioCatalog.builtIn().values()) {
            out.printf("  %-14s %-8s %s%n", s.name(), Durations.format(s.totalDuration()), s.description());
        }
        out.flush();
        return PacerCommand.EXIT_OK;
    }
}
