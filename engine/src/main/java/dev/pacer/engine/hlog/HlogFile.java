package dev.pacer.engine.hlog;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What was read from one histogram log besides its intervals, which {@link HlogReader} hands over one
 * at a time and does not keep.
 *
 * @param path      the file
 * @param startSec  the log's start time, seconds since the epoch
 * @param settings  the run's settings from its {@code #[pacer run]} line (empty when there is none)
 * @param intervals how many interval histograms were read
 * @param markers   pacer's change comments
 * @param notes     pacer's interval comments (target, ops, errors, phase), in log order; empty for logs
 *                  written before pacer wrote them, or by other tools
 * @param warnings  {@code file:line: problem} for each line that could not be read
 */
public record HlogFile(Path path, double startSec, Map<String, String> settings, long intervals, List<Marker> markers,
        List<IntervalNote> notes,
                       List<String> warnings) {
}
