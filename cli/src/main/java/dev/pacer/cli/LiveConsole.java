package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.StatusBlock;
import java.io.ByteArrayOutputStream;
import java.io.IOError;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.LineReaderImpl;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * A run on a terminal: its status block redrawn in place every interval, and below it a command line
 * ({@code pacer> }) whose typing output never breaks. Everything the run prints (start lines, changes,
 * answers, failures) is printed above the block; each command is answered once. Ctrl-C stops the run
 * (a second one ends the grace period for ops in flight). When the run ends the last status stays on the
 * screen and the summary follows.
 *
 * <p>The block is the top of a multi-line prompt: JLine redraws it, under its own lock, from a widget
 * called by the reporter thread after each interval ({@link LineReader#callWidget} takes that lock), and
 * {@link LineReader#printAbove} does the same for output. So the reporter, the run's other threads and
 * the typing thread never write to the terminal at once.
 */
final class LiveConsole implements AutoCloseable {

    private static final String PROMPT = "pacer> ";
    private static final String REDRAW = "pacer-redraw";
    /** The longest command line run: the longest command is far shorter, and an answer may quote what was typed. */
    static final int MAX_COMMAND = 200;

    private final Terminal terminal;
    private final LineReaderImpl reader;
    private final StatusBlock block;
    private final ByteArrayOutputStream summary = new ByteArrayOutputStream();
    private volatile boolean finished;

    private LiveConsole(Terminal terminal, StatusBlock block) {
        this.terminal = terminal;
        this.block = block;
        this.reader = (LineReaderImpl) LineReaderBuilder.builder().terminal(terminal).appName("pacer")
                .variable(LineReader.HISTORY_SIZE, 100).build();
        reader.getWidgets().put(REDRAW, () -> {
            reader.setPrompt(prompt());
            reader.callWidget(LineReader.REDISPLAY);
            return true;
        });
    }

    /** The terminal this process runs on, with a status block for the run to update. */
    static LiveConsole open() throws IOException {
        Terminal terminal = TerminalBuilder.builder().system(true).encoding(StandardCharsets.UTF_8).build();
        return new LiveConsole(terminal, new StatusBlock());
    }

    /** Wires the test to this console: its status block, its output above the block, a redraw per interval. */
    LoadTest attach(LoadTest test) {
        PrintStream above = new PrintStream(new LineOutput(this::printAbove), true, StandardCharsets.UTF_8);
        return test.statusBlock(block).output(new PrintStream(summary, true, StandardCharsets.UTF_8), above)
                .progress(false).onInterval(r -> redraw());
    }

    /** Reads commands until the run ends; answers each above the block. Returns the summary the run printed. */
    String interact(LoadTest.Running running) {
        Thread typing = Thread.currentThread();
        running.onEnd(() -> {
            finished = true;
            typing.interrupt(); // wakes readLine (blocked on the keyboard) with a UserInterruptException
        });
        while (!finished) {
            String line;
            try {
                line = reader.readLine(prompt());
            } catch (UserInterruptException e) {
                if (!finished) {
                    running.signal("SIGINT"); // Ctrl-C while typing: the run stops (twice: at once)
                }
                continue;
            } catch (EndOfFileException | IOError e) {
                break; // Ctrl-D or the terminal went away: no more commands, the run goes on
            }
            if (!finished && !line.isBlank()) {
                printAbove(line.length() > MAX_COMMAND ? "error: a command is one short line (rate 8000, threads 32,"
                        + " help, ...); this one has " + line.length() + " characters, not run"
                        : running.execute(line));
            }
        }
        Thread.interrupted(); // the wake-up, if readLine returned before it came
        return summary.toString(StandardCharsets.UTF_8);
    }

    private void redraw() {
        if (reader.isReading()) {
            try {
                reader.callWidget(REDRAW);
            } catch (IllegalStateException e) {
                // readLine returned between the check and the call (a command was entered): JLine refuses a widget
                // then, and its next readLine draws the prompt, the block with it; any other failure is not this race
                if (reader.isReading()) {
                    throw e;
                }
            }
        }
    }

    private void printAbove(String line) {
        reader.printAbove(line);
    }

    /** The status block's lines, fitted to the terminal, then the command line's prompt. */
    private String prompt() {
        // the terminal's width, however narrow (a block drawn wider would wrap, and each redraw pile up below
        // the last); a terminal that does not say its width gets 80 columns
        int width = terminal.getWidth() <= 1 ? 79 : terminal.getWidth() - 1;
        List<String> lines = block.render(width);
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l.replace("%", "%%")).append('\n'); // the prompt is a pattern: % is its escape
        }
        return b.append(PROMPT).toString();
    }

    @Override
    public void close() throws IOException {
        terminal.close();
    }

    /** Hands each complete line written to it to a consumer. */
    private static final class LineOutput extends OutputStream {
        private final java.util.function.Consumer<String> lines;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        LineOutput(java.util.function.Consumer<String> lines) {
            this.lines = lines;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                lines.accept(pending.toString(StandardCharsets.UTF_8));
                pending.reset();
            } else if (b != '\r') {
                pending.write(b);
            }
        }
    }
}
