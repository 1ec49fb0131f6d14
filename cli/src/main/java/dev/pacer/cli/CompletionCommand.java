package dev.pacer.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code pacer generate-completion}: picocli's bash completion script, registered for {@code pacer}
 * (a link on PATH) and for {@code ./pacer} (the README runs it from the checkout).
 */
@Command(name = "generate-completion", mixinStandardHelpOptions = true, helpCommand = true,
        description = {"Prints a bash completion script for pacer and ./pacer.", "To use it in this shell:", "",
                "  source <(./pacer generate-completion)", ""})
final class CompletionCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        String script = AutoComplete.bash(spec.root().name(), spec.root().commandLine());
        // picocli ends the script with: complete -F _complete_pacer -o default pacer pacer.sh pacer.bash
        script = script.replaceFirst("(?m)^(complete -F .*)$", "$1 ./pacer");
        PrintWriter out = spec.commandLine().getOut();
        out.print(script); // '\n' line ends whatever the platform: bash chokes on '\r'
        out.print('\n');
        out.flush();
        return PacerCommand.EXIT_OK;
    }
}
