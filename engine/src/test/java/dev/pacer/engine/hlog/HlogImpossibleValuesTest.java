package dev.pacer.engine.hlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.UnaryOperator;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Values no log holds, edited into a run's log, are named by their line and their interval is not counted. */
@Timeout(60)
class HlogImpossibleValuesTest {

    @TempDir
    Path dir;

    /**
     * The run's log of {@link HlogPairingTest#runLog} with its second interval's response histogram line (line 11)
     * or, with {@code note}, that interval's note (line 12) edited; read, with the one warning it has.
     */
    HlogFile edited(String name, boolean note, UnaryOperator<String> edit) throws Exception {
        Path file = HlogPairingTest.runLog(dir.resolve(name));
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        int at = note ? 11 : 10;
        assertTrue(lines.get(at).startsWith(note ? "#[pacer interval]" : "Tag=response,1.000,"), lines.get(at));
        lines.set(at, edit.apply(lines.get(at)));
        Files.write(file, lines);
        HlogFile log = HlogReader.read(file);
        assertEquals(1, log.warnings().size(), log.warnings().toString());
        assertEquals(6, log.intervals(), "the interval is left out: " + log.warnings());
        assertEquals(2, log.notes().size());
        return log;
    }

    static String warning(HlogFile log) {
        return log.warnings().getFirst();
    }

    @Test
    void aStartThatIsNotATimeIsNamed() throws Exception {
        HlogFile nan = edited("nan.hlog", false, l -> l.replace("Tag=response,1.000,", "Tag=response,NaN,"));
        assertEquals(nan.path() + ":11: impossible interval histogram (starts at NaN s)", warning(nan));
        HlogFile negative = edited("neg.hlog", false, l -> l.replace("Tag=response,1.000,", "Tag=response,-5.000,"));
        assertEquals(negative.path() + ":11: impossible interval histogram (starts at -5.000 s)", warning(negative));
    }

    @Test
    void aLengthThatIsNotATimeIsNamed() throws Exception {
        HlogFile huge = edited("huge.hlog", false, l -> l.replace("1.000,1.000,", "1.000,1e308,"));
        assertTrue(warning(huge).startsWith(huge.path() + ":11: impossible interval histogram (ends past the year "
                + "9999"), warning(huge));
        HlogFile negative = edited("neg.hlog", false, l -> l.replace("1.000,1.000,", "1.000,-1.000,"));
        assertEquals(negative.path() + ":11: impossible interval histogram (lasts -1.000 s)", warning(negative));
    }

    /** {@code line} with its histogram replaced by one holding {@code counts}, each at another value. */
    static String withCounts(String line, long... counts) {
        Histogram h = new Histogram(3);
        for (int i = 0; i < counts.length; i++) {
            h.recordValueWithCount(1000 * (i + 1), counts[i]);
        }
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        byte[] bytes = new byte[length];
        buffer.rewind();
        buffer.get(bytes);
        return line.substring(0, line.lastIndexOf(',') + 1) + Base64.getEncoder().encodeToString(bytes);
    }

    @Test
    void countsThatAddUpPastALongAreNamedWhetherTheyWrapNegativeOrPositive() throws Exception {
        long half = Long.MAX_VALUE / 2 + 10;
        HlogFile two = edited("two.hlog", false, l -> withCounts(l, half, half));
        assertEquals(two.path() + ":11: impossible interval histogram (its counts add up past " + Long.MAX_VALUE
                + ")", warning(two));
        long big = Long.MAX_VALUE - 1; // three add up past 2^64, to a positive long
        HlogFile three = edited("three.hlog", false, l -> withCounts(l, big, big, big));
        assertEquals(three.path() + ":11: impossible interval histogram (its counts add up past " + Long.MAX_VALUE
                + ")", warning(three));
    }

    @Test
    void histogramsWhoseCountsAddUpPastALongAcrossTheLogAreNamed() throws Exception {
        Path file = HlogPairingTest.runLog(dir.resolve("sum.hlog"));
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.set(6, withCounts(lines.get(6), Long.MAX_VALUE - 50)); // the first interval's response
        lines.set(7, lines.get(7).replace("\"ops\":100,", "\"ops\":" + (Long.MAX_VALUE - 50) + ","));
        Files.write(file, lines);
        HlogFile log = HlogReader.read(file);
        String past = ": impossible interval histogram (the log's 'response' counts add up past " + Long.MAX_VALUE
                + ")";
        assertEquals(List.of(file + ":11" + past, file + ":15" + past), log.warnings(), "each interval after it");
        assertEquals(3, log.intervals(), "the first interval only");
    }

    @Test
    void aNoteWithMoreErrorsThanOpsIsNamed() throws Exception {
        HlogFile log = edited("errors.hlog", true, l -> l.replaceFirst("\"errors\":\\{[^}]*}",
                "\"errors\":{\"x\":1000}"));
        assertEquals(log.path() + ":12: unreadable pacer comment (more errors than its 100 ops)", warning(log));
    }

    @Test
    void aNoteWhoseOpsAreNotItsHistogramsIsNamed() throws Exception {
        HlogFile log = edited("ops.hlog", true, l -> l.replace("\"ops\":100,", "\"ops\":10,"));
        assertEquals(log.path() + ":12: the note says 10 ops, the interval's histograms hold 100: the interval is "
                + "left out", warning(log));
    }

    @Test
    void aNoteOfAnImpossibleIntervalIsNamed() throws Exception {
        HlogFile log = edited("times.hlog", true, l -> l.replace("\"start\":1.0,", "\"start\":-1.0,"));
        assertEquals(log.path() + ":12: unreadable pacer comment (an interval from -1.0 s to 2.0 s)", warning(log));
    }
}
