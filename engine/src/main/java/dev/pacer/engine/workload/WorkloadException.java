package dev.pacer.engine.workload;

/** A workload file that cannot run: the message is {@code file:line: what is wrong}. */
public final class WorkloadException extends IllegalArgumentException {

    private final String source;
    private final int line;

    /** @param problem what is wrong; line breaks in it (SnakeYAML's messages have them) become spaces */
    public WorkloadException(String source, int line, String problem) {
        super(source + ":" + line + ": " + problem.strip().replaceAll("\\s*\\R\\s*", " "));
        this.source = source;
        this.line = line;
    }

    /** The file the problem is in. */
    public String source() {
        return source;
    }

    /** The 1-based line of the problem. */
    public int line() {
        return line;
    }
}
