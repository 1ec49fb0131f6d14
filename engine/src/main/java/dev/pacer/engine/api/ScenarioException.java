package dev.pacer.engine.api;


/** A scenario file that cannot run: the message is {@code file:line: what is wrong}. */
public final class ScenarioException extends FileLineException {

    /** @param problem what is wrong; line breaks in it become spaces */
    public ScenarioException(String source, int line, String problem) {
        super(source, line, problem);
    }
}
