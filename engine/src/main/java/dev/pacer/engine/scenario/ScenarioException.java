package dev.pacer.engine.scenario;

import dev.pacer.engine.text.FileLineException;

/** A scenario file that cannot run: the message is {@code file:line: what is wrong}. */
public final class ScenarioException extends FileLineException {

    /** @param problem what is wrong; line breaks in it become spaces */
    public ScenarioException(String source, int line, String problem) {
        super(source, line, problem);
    }
}
