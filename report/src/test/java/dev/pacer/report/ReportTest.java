package dev.pacer.report;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.hlog.HlogComments;
import dev.pacer.engine.hlog.HlogFile;
import dev.pacer.engine.hlog.HlogReader;
import dev.pacer.engine.hlog.IntervalNote;
import dev.pacer.engine.hlog.Marker;
import dev.pacer.engine.api.Threshold;
import dev.pacer.engine.api.ThresholdResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.IntervalStats;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Reading, windowing, merging and plotting logs written here with HdrHistogram's own writer. */
@Timeout(60)
class ReportTest {

    @TempDir
    Path dir;

    /** A change comment, as pacer writes it. */
    static String change(double atSec, ChangeKind kind, String value, String source) {
        return HlogComments.change(new Change((long) (atSec * 1e9), atSec, kind, value, source));
    }

    /**
     * Writes a log starting at {@code startSec} (epoch) with one-second intervals; interval k of each tag
     * holds the values {@code values[k]}.
     */
    Path log(String name, double startSec, String[] tags, long[][] values, String... comments) throws IOException {
        Path file = dir.resolve(name);
        try (PrintStream out = new PrintStream(file.toFile())) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            long startMs = (long) (startSec * 1000);
            w.outputLogFormatVersion();
            w.outputStartTime(startMs);
            w.setBaseTime(startMs);
            w.outputLegend();
            for (int k = 0; k < values.length; k++) {
                for (String tag : tags) {
                    Histogram h = IntervalStats.newHistogram();
                    for (long v : values[k]) {
                        h.recordValue(v);
                    }
                    h.setStartTimeStamp(startMs + k * 1000L);
                    h.setEndTimeStamp(startMs + (k + 1) * 1000L);
                    h.setTag(tag);
                    w.outputIntervalHistogram(h);
                }
                if (k < comments.length) {
                    w.outputComment(comments[k]);
                }
            }
        }
        return file;
    }

    static long[] range(long from, long to) {
        long[] v = new long[(int) (to - from)];
        for (int i = 0; i < v.length; i++) {
            v[i] = from + i;
        }
        return v;
    }

    @Test
    void twoLogsMergeToExactlyTheHistogramOfAllTheirValues() throws IOException {
        long[][] a = {range(1, 1_000), range(5_000, 7_000), range(90_000, 90_500)};
        long[][] b = {range(300, 2_000), range(1_000_000, 1_000_300)};
        Path la = log("a.hlog", 1_700_000_000.0, new String[] {"response"}, a);
        Path lb = log("b.hlog", 1_700_000_000.4, new String[] {"response"}, b);
        Report merged = Report.of(List.of(la, lb), null, null);

        Histogram all = IntervalStats.newHistogram();
        for (long[][] log : new long[][][] {a, b}) {
            for (long[] interval : log) {
                for (long v : interval) {
                    all.recordValue(v);
                }
            }
        }
        Histogram got = merged.totals().get("response");
        assertEquals(all.getTotalCount(), got.getTotalCount());
        for (HistogramIterationValue v : all.recordedValues()) {
            assertEquals(v.getCountAtValueIteratedTo(), got.getCountAtValue(v.getValueIteratedTo()),
                    "count at " + v.getValueIteratedTo());
        }
        for (double q : new double[] {50, 90, 99, 99.9, 100}) {
            assertEquals(all.getValueAtPercentile(q), got.getValueAtPercentile(q), "p" + q + " is that of all values, "
                    + "not an average");
        }
        assertEquals(0.0, merged.from(), 1e-9, "time zero is the earlier log's start");
        assertEquals(3.0, merged.to(), 1e-9);
        assertEquals(3, merged.points().size(), "shards' intervals share buckets of the interval length");
        assertEquals(a[0].length + b[0].length, merged.points().get(0).count("response"));
    }

    @Test
    void aLogThroughAPipeIsReadOnceAndWhole() throws Exception {
        long[][] perSecond = {range(1, 101), range(1, 101), range(1, 101)};
        Path file = log("a.hlog", 1_700_000_000.0, new String[] {"response"}, perSecond);
        Path fifo = dir.resolve("fifo"); // as zcat run.hlog.gz | pacer report /dev/stdin gives it
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        // a daemon: a reader that stops early leaves it blocked
        Thread writer = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                Files.write(fifo, Files.readAllBytes(file));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Report piped = Report.of(List.of(fifo), 1.0, null);
        writer.join();
        assertEquals(200, piped.ops(), "a pipe's log whole, not 'no readable interval histogram'");
        assertEquals(Report.of(List.of(file), 1.0, null).totals().get("response").getTotalCount(),
                piped.totals().get("response").getTotalCount());
    }

    @Test
    void aMergedWindowAddsEachLogsOwnRateSoALateShardsStraddlingIntervalsDoNotUnderstateIt() throws IOException {
        long[][] perSecond = {range(1, 101), range(1, 101), range(1, 101), range(1, 101), range(1, 101)};
        Path a = log("a.hlog", 1_700_000_000.0, new String[] {"response"}, perSecond);
        Path late = log("late.hlog", 1_700_000_000.5, new String[] {"response"}, perSecond); // intervals at .5 s
        Report window = Report.of(List.of(a, late), 1.0, 4.0);
        // a: 1-2, 2-3, 3-4 (300 ops in 3 s); late: 1.5-2.5, 2.5-3.5 (200 ops in 2 s); 0.5-1.5 and 3.5-4.5 straddle
        assertEquals(500, window.ops());
        assertEquals(200, window.rate(), 1e-6, "100 ops/s per shard, not 500 ops over the window's 3 s");
        assertEquals(100, Report.of(List.of(a), 1.0, 4.0).rate(), 1e-6, "one log: its ops over its length");
    }

    @Test
    void logsOneAfterTheOtherAverageTheirRatesAndALogGivenTwiceIsRefused() throws IOException {
        long[][] twoSeconds = {range(1, 101), range(1, 101)};
        Path first = log("first.hlog", 1_700_000_000.0, new String[] {"response"}, twoSeconds);
        Path second = log("second.hlog", 1_700_000_002.0, new String[] {"response"}, twoSeconds);
        Report both = Report.of(List.of(first, second), null, null);
        assertEquals(400, both.ops());
        assertEquals(100, both.rate(), 1e-6, "100 ops/s for 2 s, then 100 ops/s for 2 s: 100 ops/s, not 200");
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> Report.of(List.of(first, dir.resolve(".").resolve("first.hlog")), null, null));
        assertTrue(twice.getMessage().contains("given twice"), twice.getMessage());
    }

    @Test
    void aPageOverlaysManyLabelledRunsChartsFirst() throws IOException {
        long[][] v = {range(1, 101), range(1, 101)};
        List<Report> runs = List.of(Report.of(List.of(log("x.hlog", 1_700_000_000.0, new String[] {"response"}, v)),
                null, null),
                Report.of(List.of(log("y.hlog", 1_700_000_100.0, new String[] {"response"}, v)), null, null),
                Report.of(List.of(log("z.hlog", 1_700_000_200.0, new String[] {"response"}, v)), null, null));
        String page = ReportHtml.render(runs, "limiters compared", List.of("atomic", "leaky", "bucket:size=5"));
        for (String label : List.of("atomic", "leaky", "bucket:size=5")) {
            assertTrue(page.contains("\"label\":\"" + label + "\""), "the data names the run " + label);
            assertTrue(page.indexOf("<h2>" + label + ": ") > page.indexOf("<div id=\"charts\">"), "its table comes "
                    + "after the charts");
        }
        assertThrows(IllegalArgumentException.class, () -> ReportHtml.render(runs, "x", List.of("one label")));
        assertThrows(IllegalArgumentException.class, () -> ReportHtml.render(runs, null), "without labels, one or two");
    }

    @Test
    void aWindowKeepsTheIntervalsWhollyInsideIt() throws IOException {
        long[][] v = new long[10][];
        for (int k = 0; k < 10; k++) {
            v[k] = range(1_000 * (k + 1), 1_000 * (k + 1) + 100);
        }
        Path file = log("w.hlog", 1_700_000_000.0, new String[] {"wait", "service", "response"}, v);
        Report r = Report.of(List.of(file), 3.0, 7.0);
        assertEquals(400, r.ops(), "intervals 3..6");
        assertEquals(3.0, r.from(), 1e-9);
        assertEquals(7.0, r.to(), 1e-9);
        assertEquals(100.0, r.rate(), 1e-9);
        assertEquals(List.of("wait", "service", "response"), List.copyOf(r.totals().keySet()));
        assertEquals(4_000, r.totals().get("wait").getMinValue(), 4);
        assertThrows(IllegalArgumentException.class, () -> Report.of(List.of(file), 20.0, 30.0));
    }

    @Test
    void aWindowKeepsAnIntervalItsReporterCutAFewMillisecondsLate() throws IOException {
        // a loaded machine: the reporter woke 4 ms after the 2 s tick, then on time at 3 s
        long[] boundsMs = {0, 1_000, 2_004, 3_000};
        Path file = dir.resolve("late.hlog");
        try (PrintStream out = new PrintStream(file.toFile())) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            long startMs = 1_700_000_000_000L;
            w.outputStartTime(startMs);
            w.setBaseTime(startMs);
            for (int k = 0; k < 3; k++) {
                Histogram h = IntervalStats.newHistogram();
                h.recordValueWithCount(1_000 * (k + 1), 100 * (k + 1));
                h.setStartTimeStamp(startMs + boundsMs[k]);
                h.setEndTimeStamp(startMs + boundsMs[k + 1]);
                h.setTag("response");
                w.outputIntervalHistogram(h);
            }
        }
        assertEquals(200, Report.of(List.of(file), 1.0, 2.0).ops(), "1.000 to 2.004 is the interval asked for as 1 s "
                + "to 2 s");
        assertEquals(300, Report.of(List.of(file), 2.0, 3.0).ops(), "and 2.004 to 3.000 the one asked for as 2 s to 3 "
                + "s");
        assertEquals(500, Report.of(List.of(file), 1.0, 3.0).ops());
        assertThrows(IllegalArgumentException.class, () -> Report.of(List.of(file), 1.5, 2.5),
                "half of an interval is not in the window");
    }

    @Test
    void corruptAndTruncatedLinesAreNamedAndTheRestIsStillRead() throws IOException {
        Path file = log("c.hlog", 1_700_000_000.0, new String[] {"response"}, new long[][] {range(1, 50), range(1, 50),
                range(1, 50), range(1, 50)});
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        int corrupt = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("Tag=") && corrupt < 0) {
                corrupt = i;
                lines.set(i, lines.get(i).substring(0, 40) + "!!!garbage!!!" + lines.get(i).substring(60));
            }
        }
        String last = lines.get(lines.size() - 1);
        lines.set(lines.size() - 1, last.substring(0, last.length() / 2)); // cut mid-histogram, as a crash would
        Files.write(file, lines);

        HlogFile read = HlogReader.read(file);
        assertEquals(2, read.intervals(), "the two whole intervals");
        assertEquals(2, read.warnings().size(), read.warnings().toString());
        assertTrue(read.warnings().get(0).startsWith(file + ":" + (corrupt + 1) + ": unreadable interval"),
                read.warnings().get(0));
        assertTrue(read.warnings().get(1).startsWith(file + ":" + lines.size() + ": "), read.warnings().get(1));
        assertEquals(98, Report.of(List.of(file), null, null).ops());
    }

    @Test
    void filesThatCannotBeReadAreOneLineNamingThem() throws IOException {
        Path missing = dir.resolve("missing.hlog");
        assertEquals("cannot read '" + missing + "': no such file",
                assertThrows(IllegalArgumentException.class, () -> HlogReader.read(missing)).getMessage());
        Path junk = Files.writeString(dir.resolve("junk.hlog"), "#[StartTime: 1700000000.000 (seconds since "
                + "epoch)]\nnot,a,log\n");
        String message = assertThrows(IllegalArgumentException.class, () -> HlogReader.read(junk)).getMessage();
        assertTrue(message.startsWith("'" + junk + "' has no readable interval histogram: " + junk + ":2: "), message);
    }

    @Test
    void aFileOfJunkIsGivenUpOnAfterItsFirstTenThousandBadLinesNotReadToItsEnd() throws IOException {
        Path junk = Files.writeString(dir.resolve("junk.hlog"), "not,a,log\n".repeat(20_000)
                + "0.1,1.0,1.0,HISTFAAAA\n");
        String message = assertThrows(IllegalArgumentException.class, () -> HlogReader.read(junk)).getMessage();
        assertTrue(message.startsWith("'" + junk + "' has no readable interval histogram in its first 10000 lines: "
                + junk + ":1: "), message);
    }

    @Test
    void aLineWithNoEndIsGivenUpOnNotReadForever() {
        Path zero = Path.of("/dev/zero"); // a line without end: read to its end, it would never come
        String message = assertThrows(IllegalArgumentException.class, () -> HlogReader.read(zero)).getMessage();
        assertTrue(message.startsWith("'/dev/zero' has no readable interval histogram: /dev/zero:1: over 8388608 "
                + "bytes, no line end in its first "), message);
    }

    /** An interval note for interval k of a log with one-second intervals. */
    static String note(int k, double target, long ops, Map<String, Long> errors, String phase, boolean warmup) {
        return HlogComments.interval(new IntervalNote(k, k + 1, target, ops, errors, phase, warmup, false));
    }

    @Test
    void intervalNotesAreReadBackAndHdrHistogramsOwnReaderReadsPastThem() throws IOException {
        Path file = log("n.hlog", 1_700_000_000.0, new String[] {"wait", "response"}, new long[][] {range(1, 10),
                range(1, 20)},
                note(0, 9, 9, Map.of(), "warm", true), note(1, Double.NaN, 19, Map.of("unexpected-5xx", 4L, "timeout",
                        1L), null, false));
        assertTrue(Files.readString(file).contains("#[pacer interval] {\"start\":1.0,\"end\":2.0,\"ops\":19,"
                + "\"errors\":{\"timeout\":1,\"unexpected-5xx\":4},\"warmup\":false,\"drain\":false}"),
                        Files.readString(file));

        HistogramLogReader hdr = new HistogramLogReader(file.toFile());
        List<String> read = new ArrayList<>();
        for (EncodableHistogram h; (h = hdr.nextIntervalHistogram()) != null; ) {
            read.add(h.getTag() + ":" + ((Histogram) h).getTotalCount());
        }
        assertEquals(List.of("wait:9", "response:9", "wait:19", "response:19"), read, "HdrHistogram reads every "
                + "interval past the notes");

        HlogFile log = HlogReader.read(file);
        assertEquals(List.of(), log.warnings());
        assertEquals(List.of(new IntervalNote(0, 1, 9, 9, Map.of(), "warm", true, false),
                new IntervalNote(1, 2, Double.NaN, 19, Map.of("unexpected-5xx", 4L, "timeout", 1L), null, false,
                        false)), log.notes());
        assertEquals(5, log.notes().get(1).errorCount());
    }

    @Test
    void warmUpIsLeftOutOfTheTotalsAndErrorsArePerIntervalInTextCsvAndJson() throws IOException {
        Path file = log("e.hlog", 1_700_000_000.0, new String[] {"wait", "response"},
                new long[][] {range(1, 101), range(1_000, 1_200), range(2_000, 2_300)},
                note(0, 100, 100, Map.of("timeout", 7L), "warm", true), note(1, 200, 200, Map.of(), "steady", false),
                note(2, 300, 300, Map.of("unexpected-5xx", 30L), "steady", false));
        Report r = Report.of(List.of(file), null, null);
        assertEquals(500, r.ops(), "the warm-up's 100 ops are not counted");
        assertEquals(2.0, r.durationSeconds(), 1e-9, "nor its second");
        assertEquals(250.0, r.rate(), 1e-9);
        assertEquals(1_000, r.totals().get("wait").getMinValue(), "nor its latencies");
        assertEquals(Map.of("unexpected-5xx", 30L), r.errors(), "nor its errors");
        assertEquals(3, r.points().size(), "the series keeps it");
        assertTrue(r.points().get(0).warmup());
        assertEquals(300.0, r.points().get(2).target(), 1e-9);

        String text = ReportText.format(r);
        assertTrue(text.contains("errors     30 (unexpected-5xx 30)"), text);
        assertTrue(text.contains("(warm-up not counted)"), text);
        assertTrue(text.contains("intervals with errors"), text);
        assertTrue(text.matches("(?s).*0\\.00s +1\\.00s +warm \\(warm-up\\) +100\\.0 +100\\.0 +7 .*\\(timeout 7\\).*"),
                text);
        assertTrue(text.matches("(?s).*2\\.00s +3\\.00s +steady +300\\.0 +300\\.0 +30 .*"), text);

        List<String> csv = ReportCsv.intervals(r).lines().toList();
        assertEquals("start,end,phase,warmup,drain,target,ops,rate,errors,errors:timeout,errors:unexpected-5xx,"
                + "wait_p50,wait_p90,wait_p99,wait_max,response_p50,response_p90,response_p99,response_max",
                        csv.get(0));
        assertEquals(4, csv.size(), "a row per interval");
        assertTrue(csv.get(3).startsWith("2.000,3.000,steady,false,false,300.0,300,300.0,30,0,30,"), csv.get(3));
        long p50 = r.points().get(2).byTag().get("wait").p50();
        assertEquals(2_149, p50, 2);
        assertTrue(csv.get(3).contains("," + p50 + ","), csv.get(3));

        String json = ReportJson.format(r);
        assertTrue(json.contains("\"errors\" : {\n    \"total\" : 30,\n    \"unexpected-5xx\" : 30\n  }"), json);
        assertTrue(json.contains("\"phase\" : \"warm\",\n    \"warmup\" : true"), json);
    }

    @Test
    void aBrokenIntervalNoteIsNamedAndTheIntervalsAreStillRead() throws IOException {
        Path file = log("b.hlog", 1_700_000_000.0, new String[] {"response"}, new long[][] {range(1, 10), range(1, 20)},
                "[pacer interval] {\"start\":0,\"end\":1}", "[pacer interval] {\"start\":1,");
        HlogFile log = HlogReader.read(file);
        assertEquals(2, log.intervals());
        assertEquals(2, log.warnings().size(), log.warnings().toString());
        assertTrue(log.warnings().get(0).contains("unreadable pacer comment (an interval without 'start', 'end' and "
                + "'ops')"),
                log.warnings().get(0));
        assertTrue(log.warnings().get(1).contains("broken JSON after '#[pacer interval]'"), log.warnings().get(1));
    }

    @Test
    void pacerChangeCommentsBecomeMarkersAtTheirTimes() throws IOException {
        Path file = log("m.hlog", 1_700_000_000.0, new String[] {"response"}, new long[][] {range(1, 10), range(1, 10),
                range(1, 10)},
                change(1.25, ChangeKind.RATE, "8000,0", "console"), change(2.0, ChangeKind.PHASE, "ramp", "scenario"));
        Report r = Report.of(List.of(file), null, null);
        assertEquals(List.of(new Marker(1.25, ChangeKind.RATE, "8000,0", "console"),
                new Marker(2.0, ChangeKind.PHASE, "ramp", "scenario")), r.markers());
        assertEquals("rate 8000,0", r.markers().get(0).label());
    }

    @Test
    void thePlotPageIsOneSelfContainedFileWithItsDataAndScriptInline() throws IOException {
        long[][] v = {range(1_000, 2_000), range(2_000, 3_000), range(3_000, 9_000)};
        Path file = log("p.hlog", 1_700_000_000.0, new String[] {"wait", "service", "response"}, v,
                change(1.5, ChangeKind.RATE, "2000,0", "http"), change(1.51, ChangeKind.PHASE, "up", "scenario"));
        String html = ReportHtml.render(Report.of(List.of(file), null, null));
        assertFalse(html.contains("<link") || html.contains("src=\""), "no external resources");
        Matcher urls = Pattern.compile("https?://[^\"'\\s]*").matcher(html);
        while (urls.find()) {
            assertEquals("http://www.w3.org/2000/svg", urls.group(), "the only URL is the SVG namespace");
        }
        assertTrue(html.contains("<title>pacer report: p.hlog</title>"));
        assertTrue(html.contains("<script type=\"application/json\" id=\"pacer-data\">{\"nines\":4,"), "the data "
                + "inline");
        assertTrue(html.contains("function Chart("), "the script inline");
        assertTrue(html.contains("{\"at\":1.5,\"label\":\"rate 2000,0; phase up\"}"), "changes close together share a "
                + "marker");
        assertTrue(html.contains("\"tags\":[\"wait\",\"service\",\"response\"]"), html);
        String hostile = ReportHtml.render(List.of(Report.of(List.of(file), null, null)), "</script><b>");
        assertTrue(hostile.contains("<title>pacer report: &lt;/script&gt;&lt;b&gt;</title>"), "the title is escaped");
    }

    @Test
    void twoRunsCompareInTextAndOnOnePage() throws IOException {
        Path a = log("a.hlog", 1_700_000_000.0, new String[] {"response"}, new long[][] {range(1_000, 2_000),
                range(1_000, 2_000)},
                note(0, 1000, 1000, Map.of(), null, false), note(1, 1000, 1000, Map.of(), null, false));
        Path b = log("b.hlog", 1_700_000_100.0, new String[] {"response"}, new long[][] {range(2_000, 2_500),
                range(2_000, 2_500)},
                note(0, 1000, 500, Map.of("timeout", 5L), null, false), note(1, 1000, 500, Map.of(), null, false));
        Report ra = Report.of(List.of(a), null, null);
        Report rb = Report.of(List.of(b), null, null);
        String text = ReportText.differences(ra, rb);
        assertTrue(text.matches("(?s).*rate \\(ops/s\\) +1000\\.0 +500\\.0 +-50\\.0 %.*"), text);
        assertTrue(text.matches("(?s).*errors +0 +5 +new.*"), text);
        assertTrue(text.matches("(?s).*error ratio \\(%\\) +0\\.000 +0\\.500 +new.*"), text);
        java.util.Set<Integer> changeColumns = new java.util.HashSet<>();
        text.lines().skip(1).forEach(l -> changeColumns.add(l.length()));
        assertEquals(1, changeColumns.size(), "every row's columns line up: " + text);
        assertTrue(text.matches("(?s).*response max +2\\.00us +2\\.50us +\\+25\\.0 %.*"), text);
        String html = ReportHtml.render(List.of(ra, rb), null);
        assertTrue(html.contains("<title>pacer report: a.hlog vs b.hlog</title>"));
        assertTrue(html.contains("<h2>Differences (B against A)</h2>"));
        assertTrue(html.contains("<tr><td>response p50</td><td>1.50us</td><td>2.25us</td>"), html);
        assertEquals(2, html.split("\"spectrum\":").length - 1, "both runs' data");
    }

    @Test
    void notesMatchIntervalsWhoseBoundsHdrHistogramReadsBackAMillisecondShort() throws IOException {
        Path file = dir.resolve("t.hlog");
        long startMs = 1_795_432_983_123L;
        long[][] bounds = {{0, 17_000}, {17_000, 18_001}, {18_001, 18_008}, {18_008, 19_000}};
        try (PrintStream out = new PrintStream(file.toFile())) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputLogFormatVersion();
            w.outputStartTime(startMs);
            w.setBaseTime(startMs);
            for (long[] b : bounds) {
                Histogram h = IntervalStats.newHistogram();
                h.recordValue(1000);
                h.setStartTimeStamp(startMs + b[0]);
                h.setEndTimeStamp(startMs + b[1]);
                h.setTag("response");
                w.outputIntervalHistogram(h);
                w.outputComment(HlogComments.interval(new IntervalNote(b[0] / 1e3, b[1] / 1e3, 8000, 1, Map.of(), "p",
                        false, false)));
            }
        }
        Report r = Report.of(List.of(file), null, null);
        assertEquals(4, r.points().size());
        for (int i = 0; i < bounds.length; i++) {
            Report.Point p = r.points().get(i);
            assertTrue(p.noted(), "interval " + i + " has its note");
            assertEquals(8000.0, p.target(), 1e-9);
            assertEquals(bounds[i][0] / 1e3, p.start(), 1e-6, "the note's exact bounds");
            assertEquals(bounds[i][1] / 1e3, p.end(), 1e-6);
        }
        assertTrue(r.isCut(r.points().get(2)), "a 7 ms interval is a cut");
        assertFalse(r.isCut(r.points().get(3)));
    }

    /**
     * A shard's log as pacer writes it: {@code intervals} intervals of {@code intervalMs}, each holding
     * {@code ops} response values and a note with {@code target} and {@code ops} errors of type {@code refused}
     * (every op failed, as against a refused port).
     */
    Path refusedShard(String name, double startSec, long intervalMs, int intervals, int ops,
            double target) throws IOException {
        Path file = dir.resolve(name);
        try (PrintStream out = new PrintStream(file.toFile())) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            long startMs = (long) (startSec * 1000);
            w.outputLogFormatVersion();
            w.outputStartTime(startMs);
            w.setBaseTime(startMs);
            for (int k = 0; k < intervals; k++) {
                Histogram h = IntervalStats.newHistogram();
                h.recordValueWithCount(1_000_000, ops);
                h.setStartTimeStamp(startMs + k * intervalMs);
                h.setEndTimeStamp(startMs + (k + 1) * intervalMs);
                h.setTag("response");
                w.outputIntervalHistogram(h);
                w.outputComment(HlogComments.interval(new IntervalNote(k * intervalMs / 1e3, (k + 1) * intervalMs / 1e3,
                        target, ops, Map.of("refused", (long) ops), null, false, false)));
            }
        }
        return file;
    }

    @Test
    void threeShardsWithEqualIntervalNotesMergeToAllTheirErrorsAndTheirTargetsAdded() throws IOException {
        // three shards of a 300 ops/s test against a refused port: each interval's note is the same in every shard
        List<Path> shards = List.of(refusedShard("s0.hlog", 1_700_000_000.0, 1000, 4, 100, 100),
                refusedShard("s1.hlog", 1_700_000_000.0, 1000, 4, 100, 100),
                refusedShard("s2.hlog", 1_700_000_000.0, 1000, 4, 100, 100));
        Report merged = Report.of(shards, null, null);
        assertEquals(1_200, merged.ops());
        assertEquals(Map.of("refused", 1_200L), merged.errors(), "each shard's notes count, equal or not");
        assertEquals(4, merged.points().size());
        for (Report.Point p : merged.points()) {
            assertEquals(300, p.target(), 1e-9, "the three shares added in every point");
            assertEquals(300, p.errorCount());
        }
        assertEquals(300, merged.figures().targetRate(), 1e-9);
        ThresholdResult gate = Threshold.parse("errors<50%").evaluate(merged.figures());
        assertFalse(gate.passed());
        assertTrue(gate.actual().startsWith("100"), "judged on every error: " + gate.actual());
    }

    @Test
    void logsWithDifferentIntervalLengthsMergeToTheirTargetsAdded() throws IOException {
        // two shards of a 2 000 ops/s test over 4 s, one logging every second, the other every 100 ms
        Path seconds = refusedShard("s.hlog", 1_700_000_000.0, 1000, 4, 1000, 1000);
        Path tenths = refusedShard("t.hlog", 1_700_000_000.0, 100, 40, 100, 1000);
        Report merged = Report.of(List.of(seconds, tenths), null, null);
        assertEquals(8_000, merged.ops());
        assertEquals(2_000, merged.figures().targetRate(), 1e-9, "each log's target counted once over the 4 s");
        assertEquals(2_000, merged.rate(), 1e-9);
        assertEquals(4, merged.points().size(), "points as long as the longer intervals");
        for (Report.Point p : merged.points()) {
            assertEquals(2_000, p.target(), 1e-9, "at " + p.start());
            assertEquals(2_000, p.count("response"));
        }
    }

    @Test
    void aLogGivenAgainThroughASymbolicOrAHardLinkIsRefusedAsGivenTwice() throws IOException {
        Path log = refusedShard("one.hlog", 1_700_000_000.0, 1000, 2, 10, 10);
        Path symlink = Files.createSymbolicLink(dir.resolve("sym.hlog"), log);
        Path hardLink = Files.createLink(dir.resolve("hard.hlog"), log);
        for (Path again : List.of(symlink, hardLink)) {
            IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                    () -> Report.of(List.of(log, again), null, null), again.toString());
            assertEquals(again + " is given twice (" + log + " is the same file): merging it with itself would count"
                    + " its ops twice", twice.getMessage());
        }
        Path copy = Files.copy(log, dir.resolve("copy.hlog"));
        assertEquals(40, Report.of(List.of(log, copy), null, null).ops(), "a copy is another log");
    }
}
