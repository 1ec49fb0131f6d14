package dev.pacer.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.text.Json;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.RunClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A workload's log: its named ops as a table, JSON, CSV rows and per-op charts, apart from the run's totals. */
@Timeout(60)
class PerOpReportTest {

    static final long MS = 1_000_000;

    /** browse (1 ms) three cycles in four, pay (4 ms, every other one declined) the fourth. */
    static final class Shop implements Op, OpMix {
        static final Outcome DECLINED = Outcome.of("declined", true);
        private final RunClock clock;

        Shop(RunClock clock) {
            this.clock = clock;
        }

        @Override
        public List<String> opNames() {
            return List.of("browse", "pay");
        }

        @Override
        public int opOf(long cycle) {
            return cycle % 4 == 3 ? 1 : 0;
        }

        @Override
        public Outcome run(long cycle) throws InterruptedException {
            boolean pay = opOf(cycle) == 1;
            clock.sleep(pay ? 4 * MS : MS);
            return pay && cycle % 8 == 7 ? DECLINED : null;
        }
    }

    @TempDir
    Path dir;
    Path log;

    /** 100 ops/s for 4 s on the manual clock: 300 browses and 100 payments, 50 of them declined. */
    @BeforeEach
    void run() throws Exception {
        log = dir.resolve("shop.hlog");
        ManualRunClock clock = new ManualRunClock(Instant.parse("2026-11-25T12:00:00Z"));
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        LoadTest.Running running = LoadTest.rate(100).threads(1).op(new Shop(clock)).duration(Duration.ofSeconds(4))
                .interval(Duration.ofSeconds(1)).hlog(log).output(sink, sink).clock(clock).start();
        CompletableFuture<Void> ended = new CompletableFuture<>();
        running.onEnd(() -> ended.complete(null));
        clock.runUntil(ended::isDone);
        assertEquals(400, running.await().summary().ops());
    }

    @Test
    void theOpsAreAPerOpTableBesideTheTotalsWhichStayTheRuns() {
        Report r = Report.of(List.of(log), null, null);
        assertEquals(List.of("wait", "service", "response"), List.copyOf(r.totals().keySet()), "the totals' tags only");
        assertEquals(400, r.ops());
        assertEquals(List.of("browse", "pay"), r.opNames());
        Report.OpFigures browse = r.perOp().get(0);
        Report.OpFigures pay = r.perOp().get(1);
        assertEquals(300, browse.ops());
        assertEquals(100, pay.ops());
        assertEquals(0L, browse.errors());
        assertEquals(50L, pay.errors());
        assertEquals(75.0, browse.rate(), 1e-9);
        assertEquals(4 * MS, pay.latencies().get(Metric.SERVICE).max(), 4 * MS / 1000);
        assertEquals(4, r.points().size());
        for (Report.Point p : r.points()) {
            assertEquals(p.count("response"), p.opCount("browse") + p.opCount("pay"), "each point's ops add up");
            assertEquals(p.errorCount(), p.opErrors().get("pay"));
        }

        String text = ReportText.format(r);
        assertTrue(text.lines().anyMatch(l -> l.matches("  op +ops +errors +wait p50 +p99 +max +resp p50 +p99 +max")),
                text);
        assertTrue(text.lines()
                .anyMatch(l -> l.matches("  browse +300 +0 +0ns +0ns +0ns +1\\.00ms +1\\.00ms +1\\.00ms")), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("  pay +100 +50 +0ns +0ns +0ns +4\\.00ms +4\\.00ms +4\\.00ms")),
                text);
        assertTrue(text.lines().noneMatch(l -> l.startsWith("  wait.") || l.startsWith("  response.")),
                "no per-op tag among the totals' rows: " + text);
    }

    @Test
    void theJsonAndCsvCarryEachOp() throws Exception {
        Report r = Report.of(List.of(log), null, null);
        JsonNode json = Json.MAPPER.readTree(ReportJson.format(r));
        assertEquals(300, json.get("perOp").get("browse").get("ops").asLong());
        assertEquals(50, json.get("perOp").get("pay").get("errors").asLong());
        assertEquals(100, json.get("perOp").get("pay").get("response").get("count").asLong());
        assertTrue(json.path("response.pay").isMissingNode(), "not a total's tag");
        JsonNode second = json.get("intervals").get(1);
        assertEquals(75, second.get("perOp").get("browse").get("ops").asLong());
        assertEquals(25, second.get("perOp").get("pay").get("ops").asLong());
        assertEquals(13, second.get("perOp").get("pay").get("errors").asLong(), "cycles 103, 111, ..., 199");
        assertEquals(4 * MS, second.get("perOp").get("pay").get("service").get("max").asLong(), 4 * MS / 1000);

        List<String> csv = ReportCsv.format(r).lines().toList();
        assertEquals(List.of("tag", "wait", "service", "response", "wait.browse", "service.browse", "response.browse",
                "wait.pay", "service.pay", "response.pay"), csv.stream().map(l -> l.split(",")[0]).toList());
        assertTrue(csv.get(9).startsWith("response.pay,100,"), csv.get(9));
    }

    @Test
    void thePageHasAPerOpTableAndDataForItsTwoCharts() throws Exception {
        Report r = Report.of(List.of(log), null, null);
        String page = ReportHtml.render(r);
        assertTrue(page.contains("<table class=\"ops\">"), "the per-op table");
        assertTrue(page.contains("<tr><td>pay</td><td>100</td><td>25.0</td><td>50</td>"), page);
        Matcher data = Pattern.compile("<script type=\"application/json\" id=\"pacer-data\">(.*?)</script>",
                Pattern.DOTALL).matcher(page);
        assertTrue(data.find());
        JsonNode run = Json.MAPPER.readTree(data.group(1)).get("runs").get(0);
        assertEquals("[\"browse\",\"pay\"]", run.get("ops").toString());
        assertEquals("[\"wait\",\"service\",\"response\"]", run.get("tags").toString(), "no chart per op tag");
        JsonNode o = run.get("points").get(1).get("o");
        assertEquals(25, o.get("pay").get(0).asLong(), "its ops in the interval");
        assertEquals(4 * MS, o.get("pay").get(2).asLong(), 4 * MS / 1000, "its response p99");
        assertTrue(page.contains("chart-op-rate") && page.contains("chart-op-response"), "the script draws them");
    }

    @Test
    void aLogWithOpTagsAndNoNotesHasOpsWhoseErrorsAreUnknown() throws Exception {
        Path file = dir.resolve("bare.hlog");
        try (PrintStream out = new PrintStream(file.toFile())) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputStartTime(1_700_000_000_000L);
            w.setBaseTime(1_700_000_000_000L);
            for (String tag : new String[] {"response", "response.a"}) {
                Histogram h = IntervalStats.newHistogram();
                h.recordValue(5 * MS);
                h.recordValue(7 * MS);
                h.setStartTimeStamp(1_700_000_000_000L);
                h.setEndTimeStamp(1_700_000_001_000L);
                h.setTag(tag);
                w.outputIntervalHistogram(h);
            }
        }
        Report r = Report.of(List.of(file), null, null);
        assertEquals(List.of("response"), List.copyOf(r.totals().keySet()));
        assertEquals(2, r.perOp().get(0).ops());
        assertNull(r.perOp().get(0).errors());
        assertTrue(ReportText.format(r).lines().anyMatch(l -> l.matches("  a +2 +- .*")), ReportText.format(r));
    }
}
