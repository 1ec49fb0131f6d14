package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.OpSummary;
import dev.pacer.engine.api.RunFigures;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.sink.SummaryJson;
import dev.pacer.engine.sink.SummaryText;
import dev.pacer.engine.text.Json;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.RunClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A mix's run records each named op beside the totals: exact on the manual clock, in the summary's text and JSON. */
@Timeout(60)
class PerOpFiguresTest {

    static final long MS = 1_000_000;

    /**
     * A 3:2:1 mix of browse, cart and checkout by cycle ({@code 0 0 0 1 1 2}, repeated); each sleeps its own time on
     * the run's clock (1, 2 and 25 ms) and checkout is always declined. At 100 ops/s on one thread a checkout (slot
     * 5 at 50 ms, done at 75 ms) makes the next browse wait 15 ms and the one after 6 ms; every other op is on time.
     */
    static final class Shop implements Op, OpMix {
        static final Outcome DECLINED = Outcome.of("declined", true);
        static final long[] SLEEP = {MS, 2 * MS, 25 * MS};
        private final RunClock clock;

        Shop(RunClock clock) {
            this.clock = clock;
        }

        @Override
        public List<String> opNames() {
            return List.of("browse", "cart", "checkout");
        }

        @Override
        public int opOf(long cycle) {
            int k = (int) (cycle % 6);
            return k < 3 ? 0 : k < 5 ? 1 : 2;
        }

        @Override
        public Outcome run(long cycle) throws InterruptedException {
            int op = opOf(cycle);
            clock.sleep(SLEEP[op]);
            return op == 2 ? DECLINED : null;
        }
    }

    @Test
    void eachOpsCountsErrorsAndTimesAreExactAndAddUpToTheRunsInEveryInterval() throws Exception {
        ManualRunClock clock = new ManualRunClock();
        List<IntervalStats> intervals = new CopyOnWriteArrayList<>();
        LoadTest.Result r = ManualClock.play(clock, LoadTest.rate("100").threads(1).op(new Shop(clock))
                .duration(Duration.ofSeconds(6)).interval(Duration.ofSeconds(1))
                .onInterval(i -> intervals.add(i.stats())));
        Summary s = r.summary();
        assertEquals(600, s.ops());
        assertEquals(List.of("browse", "cart", "checkout"), s.perOp().stream().map(OpSummary::op).toList());
        RunFigures browse = s.perOp().get(0).figures();
        RunFigures cart = s.perOp().get(1).figures();
        RunFigures checkout = s.perOp().get(2).figures();
        assertEquals(List.of(300L, 200L, 100L), List.of(browse.ops(), cart.ops(), checkout.ops()));
        assertEquals(List.of(0L, 0L, 100L), List.of(browse.errors(), cart.errors(), checkout.errors()));
        assertEquals(Map.of("declined", 100L), s.perOp().get(2).errorsByType());
        assertEquals(Map.of("ok", 300L), s.perOp().get(0).outcomes());
        assertEquals(s.errors(), checkout.errors());
        assertEquals(50.0, browse.achievedRate(), 1e-9, "its ops over the run's 6 s");

        assertEquals(MS, max(browse, Metric.SERVICE), MS / 1000);
        assertEquals(2 * MS, max(cart, Metric.SERVICE), 2 * MS / 1000);
        assertEquals(25 * MS, max(checkout, Metric.SERVICE), 25 * MS / 1000);
        assertEquals(15 * MS, max(browse, Metric.WAIT), 15 * MS / 1000, "the browse after a checkout waits");
        assertEquals(0, max(cart, Metric.WAIT));
        assertEquals(0, max(checkout, Metric.WAIT));
        assertEquals(16 * MS, max(browse, Metric.RESPONSE), 16 * MS / 1000);
        assertEquals(15 * MS, s.latencies().get(Metric.WAIT).max(), 15 * MS / 1000, "the totals see the same ops");
        // browse waits: 102 of 0 (the first group's three and every third), 99 of 6 ms, 99 of 15 ms
        assertEquals(6 * MS, browse.latencies().get(Metric.WAIT).at("50"), 6 * MS / 1000);
        assertEquals(15 * MS, browse.latencies().get(Metric.WAIT).at("75"), 15 * MS / 1000);

        long[] byOp = new long[3];
        for (IntervalStats i : intervals) {
            long named = 0;
            long errors = 0;
            for (int op = 0; op < 3; op++) {
                named += i.op(op).ops();
                errors += i.op(op).errors();
                byOp[op] += i.op(op).ops();
                assertEquals(i.op(op).ops(), i.op(op).histogram(Metric.WAIT).getTotalCount());
            }
            assertEquals(i.ops(), named, "an interval's ops are its named ops'");
            assertEquals(i.errors(), errors);
        }
        assertEquals(List.of(51L, 33L, 16L), List.of(intervals.get(0).op(0).ops(), intervals.get(0).op(1).ops(),
                intervals.get(0).op(2).ops()), "cycles 0 to 99: 16 groups of six, then three browses and a cart");
        assertEquals(List.of(300L, 200L, 100L), List.of(byOp[0], byOp[1], byOp[2]), "the intervals add up to the run");
    }

    private static long max(RunFigures f, Metric m) {
        return f.latencies().get(m).max();
    }

    @Test
    void theSummarysTextHasAPerOpTableAndItsJsonAPerOpObject() throws Exception {
        ManualRunClock clock = new ManualRunClock();
        Summary s = ManualClock.play(clock, LoadTest.rate("100").threads(1).op(new Shop(clock))
                .duration(Duration.ofSeconds(3))).summary();
        String text = SummaryText.format(s);
        List<String> lines = text.lines().toList();
        int header = lines.indexOf(lines.stream()
                .filter(l -> l.matches("  op +ops +errors +wait p50 +p99 +max +resp p50 +p99 +max"))
                .findFirst().orElseThrow(() -> new AssertionError(text)));
        assertTrue(lines.get(header + 1).matches(
                "  browse +150 +0 +6\\.00ms +15\\.0ms +15\\.0ms +7\\.00ms +16\\.0ms +16\\.0ms"), lines.get(header + 1));
        assertTrue(lines.get(header + 2).matches("  cart +100 +0 +0ns +0ns +0ns +2\\.00ms +2\\.00ms +2\\.00ms"),
                lines.get(header + 2));
        assertTrue(lines.get(header + 3).matches("  checkout +50 +50 +0ns +0ns +0ns +25\\.0ms +25\\.0ms +25\\.0ms"),
                lines.get(header + 3));
        assertFalse(text.contains("of no op"), "every op had a cycle");

        JsonNode json = Json.MAPPER.readTree(SummaryJson.toJson(s).toString());
        JsonNode perOp = json.get("perOp");
        assertEquals(List.of("browse", "cart", "checkout"), iterable(perOp.fieldNames()));
        assertEquals(150, perOp.get("browse").get("ops").asLong());
        assertEquals(50, perOp.get("checkout").get("errors").asLong());
        assertEquals(50, perOp.get("checkout").get("errorsByType").get("declined").asLong());
        assertEquals(25 * MS, perOp.get("checkout").get("service").get("max").asLong(), 25 * MS / 1000);
        assertTrue(perOp.get("cart").get("targetRate").isNull(), "an op has no target of its own");
        assertEquals(json.get("ops").asLong(), perOp.get("browse").get("ops").asLong()
                + perOp.get("cart").get("ops").asLong() + perOp.get("checkout").get("ops").asLong());
    }

    @Test
    void aPlainOpsSummaryHasNoPerOpTableNorObject() throws Exception {
        ManualRunClock clock = new ManualRunClock();
        Summary s = ManualClock.play(clock, LoadTest.rate("100").threads(1).op(cycle -> null)
                .duration(Duration.ofSeconds(1))).summary();
        assertTrue(s.perOp().isEmpty());
        assertFalse(SummaryText.format(s).contains("resp p50"), SummaryText.format(s));
        assertFalse(SummaryJson.toJson(s).has("perOp"));
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
