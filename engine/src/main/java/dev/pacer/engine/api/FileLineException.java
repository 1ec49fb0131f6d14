package dev.pacer.engine.api;

/**
 * A file that cannot be used, found at a line of it: the message is {@code file:line: what is wrong}, the one line
 * the CLI prints. Scenario and workload files throw their own subclasses.
 */
public class FileLineException extends IllegalArgumentException {

    private final String source;
    private final int line;

    /** @param problem what is wrong; line breaks in it (SnakeYAML's messages have them) become spaces */
    public FileLineException(String source, int line, String problem) {
        super(source + ":" + line + ": " + problem.strip().replaceAll("\\s*\\R\\s*", " "));
        this.source = source;
        this.line = line;
    }

    /** The file (or built-in name) the problem is in. */
    public String source() {
        return source;
    }

    /** The 1-based line of the problem. */
    public int line() {
        return line;
    }
}
