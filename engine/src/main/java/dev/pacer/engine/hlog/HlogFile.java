package dev.pacer.engine.hlog;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What was read from one histogram log besides its intervals, which {@link HlogReader} hands over one
 * at a time and does not keep.
 *
 * @param path      the file
 * @param startSec  the log's start time, seconds since the epoch
 * @param settings  the run's settings from its {@code #[pacer run]} line (empty when there is none)
 * @param intervals how many interval histograms were read and are counted (not those {@code leftOut})
 * @param markers   pacer's change comments
 * @param notes     pacer's interval comments (target, ops, errors, phase), in log order; empty for logs
 *                  written before pacer wrote them, or by other tools
 * @param warnings  {@code file:line: problem} for each line that could not be read
 * @param leftOut   the intervals whose histograms were handed over but are not to be counted: each lost a line
 *                  (named in {@code warnings}) or its note, so its ops and errors cannot both be counted
 */
public record HlogFile(Path path, double startSec, Map<String, String> settings, long intervals, List<Marker> markers,
                       List<IntervalNote> notes, List<String> warnings, Set<Span> leftOut) {

    /** An interval's bounds as its histograms carry them, ms since the epoch. */
    public record Span(long startMs, long endMs) {
        static Span of(TaggedInterval i) {
            return new Span(Math.round(i.startSec() * 1000), Math.round(i.endSec() * 1000));
        }
    }

    public HlogFile {
        leftOut = Set.copyOf(leftOut);
    }

    /** Whether the interval from {@code startSec} to {@code endSec} (seconds since the epoch) is left out. */
    public boolean leftOut(double startSec, double endSec) {
        return !leftOut.isEmpty() && leftOut.contains(new Span(Math.round(startSec * 1000), Math.round(endSec * 1000)));
    }
}
