package dev.pacer.engine.report;

import java.nio.file.Path;
import java.util.List;

/**
 * What could be read from one histogram log.
 *
 * @param path      the file
 * @param startSec  the log's start time, seconds since the epoch
 * @param intervals its interval histograms, in file order
 * @param markers   pacer's change comments
 * @param warnings  {@code file:line: problem} for each line that could not be read
 */
public record HlogFile(Path path, double startSec, List<TaggedInterval> intervals, List<Marker> markers,
                       List<String> warnings) {
}
