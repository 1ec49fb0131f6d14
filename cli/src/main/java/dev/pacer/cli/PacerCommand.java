package dev.pacer.cli;

import dev.pacer.engine.api.SettingException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code pacer}: paced load tests from the command line.
 *
 * <p>Exit codes: 0 success; 1 the run failed (error ratio over {@code --max-error-ratio}, a
 * threshold failed) or an unexpected error; 2 bad usage (one line naming the bad value); 130, 143 and 129
 * stopped by SIGINT, SIGTERM or SIGHUP (the JVM's 128 + signal), after the summary and logs were written.
 *
 * <p>Bad input reaches this class as an {@link IllegalArgumentException}: the engine's
 * {@link SettingException} (a setting, named here by its flag through {@link Flags}), its
 * {@code ScenarioException} ({@code file:line: ...}), or a parser's one line ({@code RateSpec}, a
 * threshold, a log). Each becomes one line and exit code 2; anything else is exit code 1.
 */
@Command(name = "pacer",
        mixinStandardHelpOptions = true,
        versionProvider = PacerCommand.Version.class,
        description = "Drives a workload from many threads at a target rate and tells you how late every operation "
                + "started.",
        subcommands = {
                RunCommand.class,
                OpsCommand.class,
                ShowCommand.class,
                ControlCommand.class,
                ScenariosCommand.class,
                PgInitCommand.class,
                ReportCommand.class,
                CompareLimitersCommand.class,
                CompletionCommand.class,
                CommandLine.HelpCommand.class,
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:success",
                "1:the run failed (errors over --max-error-ratio, a --threshold failed, a knee search gave no rate, an"
                        + " output file could not be written) or an internal error",
                "2:bad usage: one line names the bad value",
                "130:stopped by Ctrl-C (SIGINT), 143: by SIGTERM, 129: by SIGHUP; what was measured is written first"})
public final class PacerCommand implements Callable<Integer> {

    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** No command given: the usage, on stderr, and exit code 2 (a script that forgot its command fails). */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_USAGE;
    }

    public static void main(String[] args) {
        CommandLine cl = commandLine();
        int code = cl.execute(args);
        cl.getOut().flush();
        cl.getSubcommands().values().forEach(c -> c.getOut().flush());
        System.exit(afterOutput(code, System.out, System.err));
    }

    /**
     * The exit code once standard output is flushed: a write to it that failed (a full disk, a closed pipe's reader
     * gone, {@code > /dev/full}) is said on {@code err} and fails a command that had succeeded. A PrintStream
     * keeps such failures to itself until asked.
     */
    static int afterOutput(int code, PrintStream out, PrintStream err) {
        if (!out.checkError()) {
            return code;
        }
        err.println("pacer: could not write to standard output; what it should have shown is lost");
        err.flush();
        return code == 0 ? EXIT_FAILED : code;
    }

    /**
     * The configured command line: bad usage prints one line and exits 2, never a stack trace; a
     * mistyped option or command gets picocli's suggestion; help fills the terminal's width; and
     * {@code @file} arguments are left alone ({@code --body @payload.json} is the http op's to read).
     */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new PacerCommand());
        // every subcommand lists -V (the standard help options): it prints pacer's version, as `pacer -V` does
        withVersion(cl, cl.getCommandSpec().versionProvider());
        Converters.registerNumbers(cl);
        cl.setExpandAtFiles(false);
        cl.setUsageHelpAutoWidth(true);
        cl.setExitCodeExceptionMapper(e -> e instanceof IllegalArgumentException ? EXIT_USAGE : EXIT_FAILED);
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("pacer: " + reshaped(oneLine(ex.getMessage())) + suggestion(ex) + " (see: "
                    + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            err.flush();
            return EXIT_USAGE;
        });
        CommandLine.IExecutionStrategy runLast = new CommandLine.RunLast();
        cl.setExecutionStrategy(parseResult -> {
            try {
                return runLast.execute(parseResult);
            } catch (Error e) { // an op's jar lacking a class it needs (NoClassDefFoundError), the heap: one line too
                List<CommandLine> chain = parseResult.asCommandLineList();
                throw new CommandLine.ExecutionException(chain.get(chain.size() - 1), String.valueOf(e.getMessage()),
                        new ErrorInCommand(e));
            }
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            Throwable shown = ex instanceof ErrorInCommand e ? e.getCause() : ex;
            if (ex instanceof SettingException se) {
                err.println("pacer: " + oneLine(se.render(Flags::of)));
                err.flush();
                return EXIT_USAGE;
            }
            if (ex instanceof IllegalArgumentException) { // a ScenarioException (file:line), or a parser's one line
                err.println("pacer: " + oneLine(ex.getMessage()));
                err.flush();
                return EXIT_USAGE;
            }
            if (shown instanceof dev.pacer.engine.api.OutputFileException) { // a pipe nobody reads, a folder gone
                err.println("pacer: " + oneLine(shown.getMessage()));
                err.flush();
                return EXIT_FAILED;
            }
            err.println("pacer: " + shown.getClass().getSimpleName() + ": "
                    + oneLine(String.valueOf(shown.getMessage())));
            if (System.getenv("PACER_DEBUG") != null) {
                shown.printStackTrace(err);
            } else {
                err.println("  (set PACER_DEBUG=1 for the stack trace)");
            }
            err.flush();
            return EXIT_FAILED;
        });
        return cl;
    }

    private static void withVersion(CommandLine cl, CommandLine.IVersionProvider version) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getCommandSpec().version().length == 0 && sub.getCommandSpec().versionProvider() == null) {
                sub.getCommandSpec().versionProvider(version);
            }
            withVersion(sub, version);
        }
    }

    /** An {@link Error} a command threw, carried to the execution exception handler, which takes exceptions only. */
    private static final class ErrorInCommand extends Exception {
        ErrorInCommand(Error e) {
            super(e);
        }
    }

    /** The exit status of a run stopped by a signal (SIGINT, SIGTERM, SIGHUP): 128 + its number. */
    static int exitStatusOfSignal(String signal) {
        return switch (signal) {
            case "SIGINT" -> 130;
            case "SIGTERM" -> 143;
            case "SIGHUP" -> 129;
            default -> EXIT_FAILED;
        };
    }

    /** {@code ", did you mean --rate?"} for an unknown option or command picocli finds a near name for. */
    private static String suggestion(CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u) || u.getSuggestions().isEmpty()) {
            return "";
        }
        List<String> names = u.getSuggestions();
        return ", did you mean " + String.join(" or ", names.subList(0, Math.min(3, names.size()))) + "?";
    }

    /** picocli's {@code Invalid value for option '--rate': invalid rate 'x': why}, after a converter's message. */
    private static final java.util.regex.Pattern CONVERTED = java.util.regex.Pattern.compile(
            "Invalid value for option '(-[^']+)': invalid [a-z ]+ '(.*)': (.+)");
    /**
     * A bad option value in the words every other bad setting uses, {@code invalid --rate 'x': why} (the form of
     * {@link SettingException}); any other message of picocli's as it is. (Its own int, long and double converters are
     * replaced by {@link Converters#registerNumbers}, whose messages read as a converter's.)
     */
    static String reshaped(String message) {
        java.util.regex.Matcher m = CONVERTED.matcher(message);
        if (m.matches()) {
            return "invalid " + m.group(1) + " '" + m.group(2) + "': " + m.group(3);
        }
        return message;
    }

    static String oneLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).strip();
    }

    /** The version from the build. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties p = new Properties();
            try (InputStream in = PacerCommand.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            }
            return new String[] {"pacer " + p.getProperty("version", "unknown"),
                    "JVM " + System.getProperty("java.vm.version") + " (" + System.getProperty("java.vm.vendor") + ")"};
        }
    }
}
