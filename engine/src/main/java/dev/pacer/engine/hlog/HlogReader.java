package dev.pacer.engine.hlog;

import dev.pacer.engine.api.IoReason;
import dev.pacer.engine.text.BoundedLineReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Reads HdrHistogram interval logs with HdrHistogram's own {@link HistogramLogReader}, one interval
 * line at a time, handing each interval to the caller as it is read and keeping none: memory does not
 * grow with the log. A corrupt or truncated line, one that is not UTF-8, one over
 * {@link #MAX_LINE_BYTES}, or a histogram declaring a range that would take more than
 * {@link #MAX_COUNTS} counts to decode is reported with its line number, and every readable interval is
 * still read.
 *
 * <p>Each interval line is handed to a reader together with the header lines seen so far
 * ({@code #[StartTime: ...]}, {@code #[BaseTime: ...]}, the format version), so timestamps are
 * interpreted exactly as a whole-file read would. pacer's own comment lines (settings, changes, interval notes) are
 * read with {@link HlogComments}.
 */
public final class HlogReader {

    /** The longest line read; pacer's interval lines are a few KB. */
    static final int MAX_LINE_BYTES = 8 << 20;
    /** How far a line over {@link #MAX_LINE_BYTES} is skipped in search of its end before reading stops. */
    static final long GIVE_UP_BYTES = 64L << 20;
    /**
     * Unreadable lines before any readable interval after which a file is taken for no log at all: far more than a
     * log whose first intervals were damaged has, far fewer than a large file of something else.
     */
    static final int MAX_BAD_LINES_FIRST = 10_000;
    /** The most counts a histogram may need (8 bytes each): 4 M, 32 MB, e.g. 5 digits up to 78 hours in ns. */
    static final long MAX_COUNTS = 1 << 22;

    private static final Pattern START_TIME = Pattern.compile("#\\[StartTime: ([0-9.]+)");

    private HlogReader() {
    }

    /** Reads a log for its start, settings, markers and warnings, counting its intervals. */
    public static HlogFile read(Path file) {
        return read(file, interval -> true);
    }

    /**
     * Reads a log, handing each readable interval to {@code each} as it is read; reading stops early
     * when {@code each} returns false (the log's start is known by then).
     *
     * @throws IllegalArgumentException one line, when the file is missing or unreadable, or holds no
     *                                  readable interval at all (naming the file and the first bad line)
     */
    public static HlogFile read(Path file, Predicate<TaggedInterval> each) {
        StringBuilder header = new StringBuilder();
        List<Marker> markers = new ArrayList<>();
        List<IntervalNote> notes = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<String, String> settings = Map.of();
        double startSec = Double.NaN;
        long read = 0;
        try (BoundedLineReader lines = new BoundedLineReader(Files.newInputStream(file), MAX_LINE_BYTES,
                GIVE_UP_BYTES)) {
            for (BoundedLineReader.Line l; (l = lines.next()) != null; ) {
                if (read == 0 && warnings.size() >= MAX_BAD_LINES_FIRST) {
                    // not a log (or one whose start is lost): said, not read to its end, which may never come
                    throw new IllegalArgumentException("'" + file + "' has no readable interval histogram in its first "
                            + (l.number() - 1) + " lines: " + warnings.get(0));
                }
                String at = file + ":" + l.number() + ": ";
                if (l.problem() != null) {
                    warnings.add(at + l.problem());
                    continue;
                }
                String line = l.text();
                if (line.isBlank()) {
                    continue;
                }
                if (line.startsWith("#")) {
                    Matcher start = START_TIME.matcher(line);
                    if (start.find()) {
                        startSec = Double.parseDouble(start.group(1));
                    }
                    if (line.startsWith("#[StartTime") || line.startsWith("#[BaseTime")
                            || line.startsWith("#[Histogram log format version")) {
                        header.append(line).append('\n');
                    }
                    try {
                        Map<String, String> run = HlogComments.parseRun(line);
                        if (run != null) {
                            settings = run;
                        }
                        Marker m = Double.isNaN(startSec) ? null : HlogComments.parseChange(line, startSec);
                        if (m != null) {
                            markers.add(m);
                        }
                        IntervalNote note = HlogComments.parseInterval(line);
                        if (note != null) {
                            notes.add(note);
                        }
                    } catch (IllegalArgumentException e) {
                        warnings.add(at + "unreadable pacer comment (" + e.getMessage() + ")");
                    }
                    continue;
                }
                if (line.startsWith("\"StartTimestamp\"")) {
                    continue; // the legend
                }
                TaggedInterval interval;
                try {
                    interval = readInterval(header, line);
                } catch (RuntimeException e) {
                    warnings.add(at + "unreadable interval histogram (" + problem(e) + ")");
                    continue;
                }
                read++;
                if (Double.isNaN(startSec)) {
                    startSec = interval.startSec();
                }
                if (!each.test(interval)) {
                    break;
                }
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("cannot read '" + file + "': no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read '" + file + "': " + IoReason.of(e));
        }
        if (read == 0) {
            throw new IllegalArgumentException("'" + file + "' has no readable interval histogram"
                    + (warnings.isEmpty() ? "" : ": " + warnings.get(0)));
        }
        return new HlogFile(file, startSec, settings, read, markers, notes, warnings);
    }

    private static TaggedInterval readInterval(CharSequence header, String line) {
        checkRange(line.substring(line.lastIndexOf(',') + 1));
        String text = header + line + "\n";
        HistogramLogReader reader =
                new HistogramLogReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
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

    /**
     * Refuses a histogram whose header declares a range that would take more than {@link #MAX_COUNTS}
     * counts to decode (HdrHistogram allocates them all first), reading only its header: the compressed
     * form is a cookie, a length and a deflated encoding that starts with the precision and the range.
     */
    private static void checkRange(String base64) {
        ByteBuffer compressed = ByteBuffer.wrap(Base64.getDecoder().decode(base64));
        int cookie = compressed.getInt() & ~0xf0; // the low nibble of the second byte is the word size
        int headerSize = switch (cookie) {
            case 0x1c849304, 0x1c849302 -> 40; // V2, V1
            case 0x1c849309 -> 32; // V0
            default -> throw new IllegalStateException("not an integer histogram");
        };
        int length = compressed.getInt();
        Inflater inflater = new Inflater();
        ByteBuffer header = ByteBuffer.allocate(headerSize);
        try {
            inflater.setInput(compressed.array(), 8, Math.min(length, compressed.capacity() - 8));
            if (inflater.inflate(header.array()) < headerSize) {
                throw new IllegalStateException("truncated");
            }
        } catch (DataFormatException e) {
            throw new IllegalStateException("corrupt: " + e.getMessage());
        } finally {
            inflater.end();
        }
        header.position(headerSize == 40 ? 12 : 4); // cookie [, payload length, normalizing offset]
        int digits = header.getInt();
        long lowest = header.getLong();
        long highest = header.getLong();
        if (digits < 0 || digits > 5 || lowest < 1 || highest < 2 * lowest) {
            throw new IllegalStateException("declares an impossible precision or range");
        }
        long counts = countsNeeded(digits, lowest, highest);
        if (counts > MAX_COUNTS) {
            throw new IllegalStateException("declares a range of " + lowest + ".." + highest + " at " + digits
                    + " digits, " + counts + " counts, over the " + MAX_COUNTS + " read");
        }
    }

    /** The length of the counts array HdrHistogram makes for this precision and range. */
    static long countsNeeded(int digits, long lowest, long highest) {
        long largestSingleUnit = 2 * (long) Math.pow(10, digits);
        int subBucketCountMagnitude = 64 - Long.numberOfLeadingZeros(largestSingleUnit - 1); // ceil(log2)
        long subBucketCount = 1L << Math.max(subBucketCountMagnitude, 1);
        int unitMagnitude = 63 - Long.numberOfLeadingZeros(lowest);
        long smallestUntrackable = subBucketCount << unitMagnitude;
        int buckets = 1;
        while (smallestUntrackable <= highest && smallestUntrackable > 0) {
            smallestUntrackable <<= 1;
            buckets++;
        }
        return (buckets + 1) * (subBucketCount / 2);
    }

    private static String problem(RuntimeException e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return root instanceof IllegalStateException && m != null ? m
                : root.getClass().getSimpleName() + (m == null ? "" : ": " + m.split("\n")[0]);
    }
}
