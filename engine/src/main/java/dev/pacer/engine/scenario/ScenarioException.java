package dev.pacer.engine.scenario;

/** A scenario file that cannot run: the message is {@code file:line: what is wrong}. */
public final class ScenarioException extends IllegalArgumentException {

    private final String source;
    private final int line;

    /** @param problem what is wrong; line breaks in it (SnakeYAML's messages have them) become spaces */
    public ScenarioException(String source, int line, String problem) {
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
