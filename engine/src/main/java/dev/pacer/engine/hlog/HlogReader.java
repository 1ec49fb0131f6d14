package dev.pacer.engine.hlog;

import dev.pacer.engine.api.IoReason;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.OpTag;
import dev.pacer.engine.text.BoundedLineReader;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.InflaterInputStream;
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
 * <p>A file holds one log: a second header ({@code #[pacer run]}, {@code #[StartTime: ...]}, ...), as two logs
 * concatenated have, is refused, naming its line. In a log with pacer's interval notes, each interval's histograms are
 * paired with its note ({@link Pairing}), so that ops (from the histograms) and errors (from the notes) are counted
 * over the same intervals.
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

    /**
     * Intervals without a note at the start of a log after which it is taken for one without notes (written before
     * pacer wrote them, or by another tool): in a log with notes, only an interval whose note line was unreadable
     * has none.
     */
    static final int MAX_UNNOTED = 4;

    private static final Pattern START_TIME = Pattern.compile("#\\[StartTime: ([0-9.]+)");
    /** The lines a log has once, in its header: a second one starts a second log. */
    private static final List<String> ONCE = List.of("#" + HlogComments.RUN, "#[StartTime", "#[BaseTime",
            "#[Histogram log format version");

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
     * @throws IllegalArgumentException one line, when the file is missing or unreadable, holds no
     *                                  readable interval at all (naming the file and the first bad line), holds a
     *                                  second log, or has an interval's histograms without its note or a note
     *                                  without its histograms (naming the line)
     */
    public static HlogFile read(Path file, Predicate<TaggedInterval> each) {
        StringBuilder header = new StringBuilder();
        List<Marker> markers = new ArrayList<>();
        List<IntervalNote> notes = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<String, String> settings = Map.of();
        double startSec = Double.NaN;
        long read = 0;
        Set<String> once = new HashSet<>();
        Map<String, Long> tagTotals = new HashMap<>(); // to refuse counts past a long, which would wrap in a report
        Pairing pairing = new Pairing(file, warnings);
        boolean stopped = false;
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
                    pairing.unreadable();
                    continue;
                }
                String line = l.text();
                if (line.isBlank()) {
                    continue;
                }
                if (line.startsWith("#")) {
                    for (String tag : ONCE) {
                        if (line.startsWith(tag) && !once.add(tag)) {
                            throw new IllegalArgumentException(at + "a second log starts here (a second '" + tag.strip()
                                    + "' line): report each log from a file of its own");
                        }
                    }
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
                        if (note != null && pairing.note(note, l.number(), startSec)) {
                            notes.add(note);
                        }
                    } catch (IllegalArgumentException e) {
                        if (e instanceof Pairing.Refused) {
                            throw e;
                        }
                        warnings.add(at + "unreadable pacer comment (" + e.getMessage() + ")");
                        if (line.startsWith("#" + HlogComments.INTERVAL)) {
                            pairing.unreadable(); // its interval lost its note
                        }
                    }
                    continue;
                }
                if (line.startsWith("\"StartTimestamp\"")) {
                    continue; // the legend
                }
                TaggedInterval interval;
                try {
                    interval = readInterval(header, line);
                    long count = interval.histogram().getTotalCount();
                    long sum = tagTotals.getOrDefault(interval.tag(), 0L);
                    if (sum > Long.MAX_VALUE - count) {
                        throw new Impossible("the log's '" + interval.tag() + "' counts add up past "
                                + Long.MAX_VALUE);
                    }
                    tagTotals.put(interval.tag(), sum + count);
                } catch (RuntimeException e) {
                    warnings.add(at + (e instanceof Impossible ? "impossible" : "unreadable") + " interval histogram ("
                            + problem(e) + ")");
                    pairing.unreadable();
                    continue;
                }
                read++;
                if (Double.isNaN(startSec)) {
                    startSec = interval.startSec();
                }
                pairing.histogram(interval, l.number(), startSec);
                if (!each.test(interval)) {
                    stopped = true;
                    break;
                }
            }
            if (!stopped) {
                pairing.end(startSec);
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("cannot read '" + file + "': no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read '" + file + "': " + IoReason.of(e));
        }
        long counted = read - pairing.leftOutHistograms;
        if (counted == 0) {
            throw new IllegalArgumentException("'" + file + "' has no readable interval histogram"
                    + (warnings.isEmpty() ? "" : ": " + warnings.get(0)));
        }
        return new HlogFile(file, startSec, settings, counted, markers, notes, warnings, pairing.leftOut);
    }

    /**
     * Pairs each interval's histograms with its note as they are read. pacer writes an interval's histograms (one per
     * tag, all with the interval's bounds), then its note; ops are counted from the histograms and errors from the
     * notes, so in a log with notes an interval counts only with both. One that lost a line (a histogram, its note:
     * the line is named) is left out whole, as is one the log ends in before its note (a run cut short: named). One
     * whose histograms have no note where the log goes on, or a note without histograms, is no log pacer wrote (an
     * edited or spliced one): it is refused, naming the line. A log with no note in its first {@link #MAX_UNNOTED}
     * intervals is one without notes, whose intervals all count.
     */
    private static final class Pairing {

        /** A log refused for an interval without its note or a note without its interval. */
        static final class Refused extends IllegalArgumentException {
            Refused(String message) {
                super(message);
            }
        }

        private final Path file;
        private final List<String> warnings;
        /** The intervals left out, and how many histograms they had. */
        final Set<HlogFile.Span> leftOut = new HashSet<>();
        long leftOutHistograms;
        /** The interval being read: its bounds, its first histogram's line, its histograms' counts by tag. */
        private HlogFile.Span span;
        private long firstLine;
        private final Map<String, Long> counts = new HashMap<>();
        /** Whether a line was unreadable since the last interval's note (it was of this interval, or its note). */
        private boolean damaged;
        /** Whether the log has notes (one was read). */
        private boolean noted;
        /** Before the first note: the intervals read without one (past {@link #MAX_UNNOTED}, one more only). */
        private final List<Unnoted> unnoted = new ArrayList<>();

        /** An interval read before the log's first note, without one. */
        private record Unnoted(long line, HlogFile.Span span, int histograms, boolean damaged) {
        }

        Pairing(Path file, List<String> warnings) {
            this.file = file;
            this.warnings = warnings;
        }

        /** A line that could not be read: of the interval being read, or its note. */
        void unreadable() {
            damaged = true;
        }

        /** A histogram: of the interval being read, or the first of the next (other bounds, or a tag again). */
        void histogram(TaggedInterval i, long line, double startSec) {
            HlogFile.Span s = HlogFile.Span.of(i);
            if (!counts.isEmpty() && (!s.equals(span) || counts.containsKey(i.tag()))) {
                closeWithoutNote(startSec);
            }
            if (counts.isEmpty()) {
                span = s;
                firstLine = line;
            }
            counts.put(i.tag(), i.histogram().getTotalCount());
        }

        /**
         * The note of the interval being read: true when it is to be kept, false when its interval is left out.
         *
         * @throws Refused when it is not that interval's, or an interval before it had no note
         */
        boolean note(IntervalNote n, long line, double startSec) {
            if (!noted) {
                noted = true;
                for (Unnoted u : unnoted) {
                    if (!u.damaged() || unnoted.size() > MAX_UNNOTED) {
                        throw noNote(u.line(), u.span(), startSec);
                    }
                    leaveOut(u.span(), u.histograms());
                }
                unnoted.clear();
            }
            boolean its = !counts.isEmpty() && Math.abs(n.start() + startSec - span.startMs() / 1e3) <= 0.0025
                    && Math.abs(n.end() + startSec - span.endMs() / 1e3) <= 0.0025;
            if (!its) {
                if (counts.isEmpty() && damaged) { // its histograms were unreadable, named
                    damaged = false;
                    return false;
                }
                if (!counts.isEmpty()) {
                    closeWithoutNote(startSec);
                }
                throw new Refused(file + ":" + line + ": a '#" + HlogComments.INTERVAL.strip() + "' note for "
                        + seconds(n.start(), n.end()) + " without that interval's histograms before it");
            }
            boolean keep = !damaged;
            if (keep) {
                String mismatch = mismatch(n);
                if (mismatch != null) {
                    warnings.add(file + ":" + line + ": " + mismatch + ": the interval is left out");
                    keep = false;
                }
            }
            if (!keep) {
                leaveOut(span, counts.size());
            }
            counts.clear();
            damaged = false;
            return keep;
        }

        /** How the note's ops differ from those its histograms hold, or null if they agree. */
        private String mismatch(IntervalNote n) {
            Long ops = counts.get(Metric.RESPONSE.tag());
            if (ops != null && ops != n.ops()) {
                return "the note says " + n.ops() + " ops, the interval's histograms hold " + ops;
            }
            for (Map.Entry<String, IntervalNote.OpCounts> op : n.perOp().entrySet()) {
                Long opOps = counts.get(OpTag.of(Metric.RESPONSE,
                        op.getKey()));
                if (opOps != null && opOps != op.getValue().ops()) {
                    return "the note says " + op.getValue().ops() + " ops of op '" + op.getKey()
                            + "', the interval's histograms hold " + opOps;
                }
            }
            return null;
        }

        /** The log's end: an interval still without its note was cut off, and is left out. */
        void end(double startSec) {
            if (noted && !counts.isEmpty()) {
                if (!damaged) {
                    warnings.add(file + ":" + firstLine + ": the log ends before the note of the interval at "
                            + seconds(span, startSec) + " (cut short?): the interval is left out");
                }
                leaveOut(span, counts.size());
            }
        }

        /** The interval being read ends without a note. */
        private void closeWithoutNote(double startSec) {
            if (noted) {
                if (!damaged) {
                    throw noNote(firstLine, span, startSec);
                }
                leaveOut(span, counts.size());
            } else if (unnoted.size() <= MAX_UNNOTED) { // past it, a log without notes: not kept
                unnoted.add(new Unnoted(firstLine, span, counts.size(), damaged));
            }
            counts.clear();
            damaged = false;
        }

        private void leaveOut(HlogFile.Span s, int histograms) {
            leftOut.add(s);
            leftOutHistograms += histograms;
        }

        private Refused noNote(long line, HlogFile.Span s, double startSec) {
            return new Refused(file + ":" + line + ": the interval at " + seconds(s, startSec) + " has histograms "
                    + "but no '#" + HlogComments.INTERVAL.strip() + "' note after them, as every interval of a "
                    + "pacer log has (an edited or spliced log?)");
        }

        private static String seconds(HlogFile.Span s, double startSec) {
            return seconds(s.startMs() / 1e3 - startSec, s.endMs() / 1e3 - startSec);
        }

        private static String seconds(double from, double to) {
            return String.format(java.util.Locale.ROOT, "%.3fs-%.3fs", from, to);
        }
    }

    private static TaggedInterval readInterval(CharSequence header, String line) {
        checkTimes(line);
        long total = checkCounts(line.substring(line.lastIndexOf(',') + 1));
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
        if (histogram.getTotalCount() < 0 || total >= 0 && histogram.getTotalCount() != total) {
            throw new Impossible("its counts add up past " + Long.MAX_VALUE);
        }
        String tag = h.getTag() == null ? "" : h.getTag();
        return new TaggedInterval(tag, h.getStartTimeStamp() / 1000.0, h.getEndTimeStamp() / 1000.0, histogram);
    }

    /** A value no log holds: a start that is not a time, a negative count, counts past a long. */
    private static final class Impossible extends IllegalStateException {
        Impossible(String message) {
            super(message);
        }
    }

    /**
     * Refuses an interval line's start or length that is not a time: not a number, negative, or ending past the year
     * 9999 (its bounds in ms would not fit a long). HdrHistogram reads them as they are, and casts NaN to 0.
     */
    private static void checkTimes(String line) {
        String[] fields = line.split(",", 5);
        int at = fields[0].startsWith("Tag=") ? 1 : 0;
        if (fields.length < at + 4) {
            return; // HdrHistogram's reader says what is missing
        }
        double start;
        double length;
        try {
            start = Double.parseDouble(fields[at]);
            length = Double.parseDouble(fields[at + 1]);
        } catch (NumberFormatException e) {
            return; // and what is not a number
        }
        if (!Double.isFinite(start) || start < 0) {
            throw new Impossible("starts at " + fields[at] + " s");
        }
        if (!Double.isFinite(length) || length < 0) {
            throw new Impossible("lasts " + fields[at + 1] + " s");
        }
        if (start + length > MAX_SECONDS) {
            throw new Impossible("ends past the year 9999: starts at " + fields[at] + " s, lasts " + fields[at + 1]
                    + " s");
        }
    }

    /** 10000-01-01T00:00:00Z, seconds since the epoch. */
    static final double MAX_SECONDS = 253_402_300_800.0;

    /**
     * Refuses a histogram whose header declares a range that would take more than {@link #MAX_COUNTS}
     * counts to decode (HdrHistogram allocates them all first), reading only its header: the compressed
     * form is a cookie, a length and a deflated encoding that starts with the precision and the range. Of the
     * encoding HdrHistogram writes (V2), it then reads the counts and returns their total, exact: HdrHistogram adds
     * them in a long that wraps; of older encodings, -1.
     */
    private static long checkCounts(String base64) {
        ByteBuffer compressed = ByteBuffer.wrap(Base64.getDecoder().decode(base64));
        int cookie = compressed.getInt() & ~0xf0; // the low nibble of the second byte is the word size
        int headerSize = switch (cookie) {
            case 0x1c849304, 0x1c849302 -> 40; // V2, V1
            case 0x1c849309 -> 32; // V0
            default -> throw new IllegalStateException("not an integer histogram");
        };
        int length = compressed.getInt();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new InflaterInputStream(
                new ByteArrayInputStream(compressed.array(), 8, Math.max(0, Math.min(length,
                        compressed.capacity() - 8))))))) {
            in.readInt(); // the encoding's cookie
            int payload = headerSize == 40 ? in.readInt() : -1;
            if (headerSize == 40) {
                in.readInt(); // the normalizing index offset
            }
            int digits = in.readInt();
            long lowest = in.readLong();
            long highest = in.readLong();
            if (digits < 0 || digits > 5 || lowest < 1 || highest < 2 * lowest) {
                throw new IllegalStateException("declares an impossible precision or range");
            }
            long counts = countsNeeded(digits, lowest, highest);
            if (counts > MAX_COUNTS) {
                throw new IllegalStateException("declares a range of " + lowest + ".." + highest + " at " + digits
                        + " digits, " + counts + " counts, over the " + MAX_COUNTS + " read");
            }
            if (cookie != 0x1c849304) {
                return -1;
            }
            in.readDouble(); // the integer to double ratio
            return total(in, payload);
        } catch (EOFException e) {
            throw new IllegalStateException("truncated");
        } catch (IOException e) {
            throw new IllegalStateException("corrupt: " + e.getMessage());
        }
    }

    /**
     * The total of V2's counts: {@code payload} bytes of ZigZag LEB128 longs (at most 9 bytes, the ninth of 8 bits),
     * each a count, or when negative a run of zero counts.
     */
    private static long total(DataInputStream in, int payload) throws IOException {
        long total = 0;
        for (int read = 0; read < payload; ) {
            long value = 0;
            int b;
            int shift = 0;
            do {
                b = in.readUnsignedByte();
                read++;
                value |= (long) (shift == 56 ? b : b & 0x7f) << shift;
                shift += 7;
            } while (shift <= 56 && (b & 0x80) != 0);
            long count = (value >>> 1) ^ -(value & 1);
            if (count > 0) {
                try {
                    total = Math.addExact(total, count);
                } catch (ArithmeticException e) {
                    throw new Impossible("its counts add up past " + Long.MAX_VALUE);
                }
            }
        }
        return total;
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
