package dev.pacer.engine.report;

import dev.pacer.engine.output.HlogSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Reads HdrHistogram interval logs with HdrHistogram's own {@link HistogramLogReader}, one interval
 * line at a time, so that a corrupt or truncated line is reported with its line number and every
 * readable interval is still kept.
 *
 * <p>Each interval line is handed to a reader together with the header lines seen so far
 * ({@code #[StartTime: ...]}, {@code #[BaseTime: ...]}, the format version), so timestamps are
 * interpreted exactly as a whole-file read would.
 */
public final class HlogReader {

    private static final Pattern CHANGE_AT = Pattern.compile("(.*) at ([0-9.]+)s\\s*$");
    private static final Pattern START_TIME = Pattern.compile("#\\[StartTime: ([0-9.]+)");

    private HlogReader() {
    }

    /**
     * Reads a log.
     *
     * @throws IllegalArgumentException one line, when the file is missing or unreadable, or holds no
     *                                  readable interval at all (naming the file and the first bad line)
     */
    public static HlogFile read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("cannot read '" + file + "': no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read '" + file + "': " + e.getMessage());
        }
        StringBuilder header = new StringBuilder();
        List<TaggedInterval> intervals = new ArrayList<>();
        List<Marker> markers = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        double startSec = Double.NaN;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int lineNo = i + 1;
            if (line.isBlank()) {
                continue;
            }
            if (line.startsWith("#")) {
                Matcher start = START_TIME.matcher(line);
                if (start.find()) {
                    startSec = Double.parseDouble(start.group(1));
                }
                if (line.startsWith("#[")) {
                    header.append(line).append('\n');
                }
                String prefix = "#" + HlogSink.CHANGE_PREFIX;
                if (line.startsWith(prefix)) {
                    Matcher m = CHANGE_AT.matcher(line.substring(prefix.length()));
                    if (m.matches() && !Double.isNaN(startSec)) {
                        markers.add(new Marker(startSec + Double.parseDouble(m.group(2)), m.group(1).strip()));
                    }
                }
                continue;
            }
            if (line.startsWith("\"StartTimestamp\"")) {
                continue; // the legend
            }
            try {
                intervals.add(readInterval(header + line + "\n"));
            } catch (RuntimeException e) {
                warnings.add(file + ":" + lineNo + ": unreadable interval histogram (" + problem(e) + ")");
            }
        }
        if (intervals.isEmpty()) {
            throw new IllegalArgumentException("'" + file + "' has no readable interval histogram"
                    + (warnings.isEmpty() ? "" : ": " + warnings.get(0)));
        }
        if (Double.isNaN(startSec)) {
            startSec = intervals.get(0).startSec();
        }
        return new HlogFile(file, startSec, intervals, markers, warnings);
    }

    private static TaggedInterval readInterval(String text) {
        HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        EncodableHistogram h = reader.nextIntervalHistogram();
        if (h == null) {
            throw new IllegalStateException("not an interval line");
        }
        if (!(h instanceof Histogram histogram)) {
            throw new IllegalStateException("a floating-point histogram, not supported");
        }
        String tag = h.getTag() == null ? "" : h.getTag();
        return new TaggedInterval(tag, h.getStartTimeStamp() / 1000.0, h.getEndTimeStamp() / 1000.0, histogram);
    }

    private static String problem(RuntimeException e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return root.getClass().getSimpleName() + (m == null ? "" : ": " + m.split("\n")[0]);
    }
}
