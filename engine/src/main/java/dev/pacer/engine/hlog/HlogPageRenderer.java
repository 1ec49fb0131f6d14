package dev.pacer.engine.hlog;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Makes the report page of a run's .hlog: one self-contained HTML file, as {@code pacer report LOG --plot}
 * writes it. The report module makes that page and the engine may not depend on it, so whoever has both
 * (the CLI) hands a run one; the run's console page then offers the page when the run ends. Called once,
 * on the run's thread, after the log's last line has been written.
 */
@FunctionalInterface
public interface HlogPageRenderer {

    /**
     * The page of the log at {@code hlog}.
     *
     * @throws IOException the log could not be read
     */
    String render(Path hlog) throws IOException;
}
