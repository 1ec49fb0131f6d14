package dev.pacer.engine.control;

import dev.pacer.engine.api.ControlAction;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.text.BoundedLineReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * Commands typed into the terminal running {@code pacer run}: one per line ({@code rate 8000},
 * {@code threads 32}, {@code status}, ...). Each is acknowledged on one line ({@code ok: ...}) or
 * refused on one line ({@code error: ...}) and the run goes on. Reads on a daemon thread until end of
 * input, at most {@link #MAX_LINE_BYTES} of UTF-8 a line.
 */
public final class ConsoleControl {

    /** The longest command line read; a longer one (stdin without newlines) is refused, never buffered. */
    static final int MAX_LINE_BYTES = 4096;

    private final RunController controller;
    private final InputStream in;
    private final PrintStream out;
    private Thread thread;

    public ConsoleControl(RunController controller, InputStream in, PrintStream out) {
        this.controller = controller;
        this.in = in;
        this.out = out;
    }

    public void start() {
        thread = Thread.ofPlatform().name("pacer-console").daemon(true).start(this::readLoop);
    }

    private void readLoop() {
        try (BoundedLineReader reader = new BoundedLineReader(in, MAX_LINE_BYTES)) {
            for (BoundedLineReader.Line line; (line = reader.next()) != null; ) {
                if (line.problem() != null) {
                    out.println("error: line " + line.number() + ": " + line.problem() + ", ignored");
                } else if (!line.text().isBlank()) {
                    out.println(execute(line.text()));
                }
                out.flush();
            }
        } catch (IOException e) {
            // input closed: no more commands
        }
    }

    /** Runs one command line and returns the one-line answer. */
    public String execute(String line) {
        return answer(controller, line);
    }

    /** The source console commands are recorded with. */
    public static final String SOURCE = "console";

    /**
     * Runs one command line against a run and returns its answer, one line: {@code ok: rate 8000,0
     * (console) at 12.345s}, {@code error: ...}, the status, or the list of commands for {@code help}.
     */
    public static String answer(RunController controller, String line) {
        return answer(controller, line, SOURCE);
    }

    /** {@link #answer(RunController, String)}, the change recorded with {@code source} ({@code page}, {@code api}). */
    public static String answer(RunController controller, String line, String source) {
        return answer(controller, line, source, RunController.CONSOLE_WAIT);
    }

    /** {@link #answer(RunController, String, String)}, a change waiting up to {@code maxWait} for the run's start. */
    public static String answer(RunController controller, String line, String source, java.time.Duration maxWait) {
        try {
            ControlAction action = ControlAction.parse(line);
            if (action instanceof ControlAction.Status) {
                return controller.status().describe();
            }
            if (action instanceof ControlAction.Help) {
                return "commands: " + ControlAction.VERBS;
            }
            Change c = controller.apply(action, source, maxWait);
            return "ok: " + (c == null ? line.strip() : c.describe());
        } catch (IllegalArgumentException | IllegalStateException e) {
            return "error: " + e.getMessage();
        }
    }
}
