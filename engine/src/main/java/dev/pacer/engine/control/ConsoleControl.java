package dev.pacer.engine.control;

import dev.pacer.engine.Change;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Commands typed into the terminal running {@code pacer run}: one per line ({@code rate 8000},
 * {@code threads 32}, {@code status}, ...). Each is acknowledged on one line ({@code ok: ...}) or
 * refused on one line ({@code error: ...}) and the run goes on. Reads on a daemon thread until end of
 * input.
 */
public final class ConsoleControl {

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
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = reader.readLine()) != null; ) {
                if (!line.isBlank()) {
                    out.println(execute(line));
                    out.flush();
                }
            }
        } catch (IOException e) {
            // input closed: no more commands
        }
    }

    /** Runs one command line and returns the one-line answer. */
    public String execute(String line) {
        try {
            ControlAction action = ControlAction.parse(line);
            if (action instanceof ControlAction.Status) {
                return controller.status().describe();
            }
            Change c = controller.apply(action, "console");
            return "ok: " + (c == null ? line.strip() : c.describe());
        } catch (IllegalArgumentException | IllegalStateException e) {
            return "error: " + e.getMessage();
        }
    }
}
