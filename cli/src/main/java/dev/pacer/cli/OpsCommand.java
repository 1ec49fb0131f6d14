package dev.pacer.cli;

import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.OpCatalog;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code pacer ops}: lists the ops on the class path, built-in and added through the SPI. */
@Command(name = "ops", mixinStandardHelpOptions = true,
        description = "Lists the ops --op can name (built-in, and any OpProvider on the class path).")
final class OpsCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        for (OpProvider p : OpCatalog.providers().values()) {
            out.printf("  %-8s %s%n", p.name(), p.description());
        }
        out.flush();
        return PacerCommand.EXIT_OK;
    }
}
