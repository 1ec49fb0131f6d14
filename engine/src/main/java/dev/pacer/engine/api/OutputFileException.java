package dev.pacer.engine.api;

import java.io.IOException;

/**
 * A run's output file (its log, its CSV) could not be opened once the run was under way: its message is one line,
 * {@code cannot write FILE: REASON}, for the user as it is.
 */
public final class OutputFileException extends IOException {

    public OutputFileException(String message, Throwable cause) {
        super(message, cause);
    }
}
