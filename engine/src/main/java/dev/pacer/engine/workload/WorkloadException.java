package dev.pacer.engine.workload;

import dev.pacer.engine.api.FileLineException;

/** A workload file that cannot run: the message is {@code file:line: what is wrong}. */
public final class WorkloadException extends FileLineException {

    /** @param problem what is wrong; line breaks in it become spaces */
    public WorkloadException(String source, int line, String problem) {
        super(source, line, problem);
    }
}
