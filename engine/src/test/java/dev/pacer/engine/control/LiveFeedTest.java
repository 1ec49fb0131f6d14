package dev.pacer.engine.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.metrics.MetricsRegistry;
import dev.pacer.engine.metrics.WorkerMetrics;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.text.Json;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The console page's feed: history in order, then live records; bounded queues and history; laggards dropped. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveFeedTest {

    final AtomicLong clock = new AtomicLong(1_000);

    LiveFeed feed(int history, int queue) {
        return new LiveFeed(history, queue, 2_000, clock::get);
    }

    static IntervalReport interval(double elapsed, long ops, Outcome outcome) {
        MetricsRegistry registry = new MetricsRegistry();
        WorkerMetrics m = registry.attach(false);
        for (long i = 0; i < ops; i++) {
            m.record(1_000, 2_000, outcome);
        }
        long end = (long) (elapsed * 1e9);
        IntervalStats stats = registry.drain(end - 1_000_000_000L, end, 0, 1000);
        return new IntervalReport(stats, elapsed, RateSpec.of(100), 100, 2, null, false, false, 0, ops, elapsed,
                stats.errors());
    }

    static Change change(double at, String value) {
        return new Change(0, at, ChangeKind.RATE, value, "page");
    }

    static List<String> drainHistory(LiveFeed.Subscription s) throws Exception {
        List<String> types = new ArrayList<>();
        for (int i = 0; i < s.history().size(); i++) {
            JsonNode r = Json.MAPPER.readTree(s.next());
            types.add(r.get("type").asText() + "@" + r.get("t").asDouble());
        }
        return types;
    }

    @Test
    void aLatePageGetsTheWholeHistoryInOrderThenWhatFollows() throws Exception {
        LiveFeed f = feed(1_000, 16);
        f.interval(interval(1, 100, Outcome.OK), null, false, 0);
        f.change(change(1.5, "200"));
        f.interval(interval(2, 200, Outcome.OK), null, false, 0);
        f.interval(interval(3, 200, Outcome.OK), null, false, 0);
        LiveFeed.Subscription s = f.subscribe();
        assertEquals(List.of("interval@1.0", "change@1.5", "interval@2.0", "interval@3.0"), drainHistory(s));
        f.change(change(3.5, "300"));
        JsonNode live = Json.MAPPER.readTree(s.next());
        assertEquals("rate 300 (page) at 3.500s", live.get("text").asText(), "the console's words");
        assertEquals("page", live.get("source").asText());
    }

    @Test
    void anIntervalRecordCarriesWhatThePageDraws() throws Exception {
        LiveFeed f = feed(1_000, 16);
        f.interval(interval(1, 10, Outcome.of("timeout", true)), "wait is growing", true, 64);
        JsonNode r = Json.MAPPER.readTree(f.subscribe().next());
        assertEquals(100, r.get("target").asDouble());
        assertEquals(10, r.get("errorsByType").get("timeout").asLong());
        assertEquals(1_000, r.get("wait").get("p50").asLong(), 1_000 * 0.01);
        assertEquals(2_000 + 1_000, r.get("response").get("max").asLong(), 3_000 * 0.01);
        assertEquals("wait is growing", r.get("behind").asText());
        assertTrue(r.get("paused").asBoolean());
        assertEquals(64, r.get("inFlightCapacity").asInt());
    }

    @Test
    void aMixsIntervalRecordCarriesEachOpsFiguresThatAddUpToItsOwn() throws Exception {
        MetricsRegistry registry = new MetricsRegistry(List.of("browse", "pay"));
        WorkerMetrics m = registry.attach(false);
        Outcome declined = Outcome.of("declined", true);
        for (int i = 0; i < 30; i++) {
            m.record(1_000, 2_000, Outcome.OK, 0);
        }
        for (int i = 0; i < 10; i++) {
            m.record(5_000, 40_000, i < 4 ? declined : Outcome.OK, 1);
        }
        IntervalStats stats = registry.drain(0, 2_000_000_000L, 0, 2000);
        for (long ns : new long[] {12_000, 30_000}) { // pay in two steps, as a workload's would record them
            Histogram step = IntervalStats.newHistogram();
            step.recordValueWithCount(ns, 10);
            stats.op(1).addStep(stats.op(1).steps(), step);
        }
        LiveFeed f = feed(1_000, 16);
        f.interval(new IntervalReport(stats, 2, RateSpec.of(20), 20, 1, null, false, false, 0, 40, 2, 4), null,
                false, 0);
        JsonNode r = Json.MAPPER.readTree(f.subscribe().next());
        JsonNode perOp = r.get("perOp");
        assertEquals(List.of("browse", "pay"), iterable(perOp.fieldNames()), "in the ops' order");
        assertEquals(30, perOp.get("browse").get("ops").asLong());
        assertEquals(15.0, perOp.get("browse").get("rate").asDouble(), 1e-9, "30 ops in 2 s");
        assertEquals(0, perOp.get("browse").get("errors").asLong());
        assertEquals(10, perOp.get("pay").get("ops").asLong());
        assertEquals(4, perOp.get("pay").get("errors").asLong());
        assertEquals(45_000, perOp.get("pay").get("response").get("p99").asLong(), 45_000 * 0.01);
        assertEquals(5_000, perOp.get("pay").get("wait").get("max").asLong(), 5_000 * 0.01);
        assertEquals(r.get("ops").asLong(),
                perOp.get("browse").get("ops").asLong() + perOp.get("pay").get("ops").asLong());
        assertFalse(perOp.get("browse").has("steps"), "an op of one step has no step figures");
        JsonNode steps = perOp.get("pay").get("steps");
        assertEquals(2, steps.size(), "each step's service time, in order: " + steps);
        assertEquals(12_000, steps.get(0).get("p99").asLong(), 12_000 * 0.01);
        assertEquals(30_000, steps.get(1).get("max").asLong(), 30_000 * 0.01);

        f.interval(interval(3, 10, Outcome.OK), null, false, 0);
        LiveFeed.Subscription s = f.subscribe();
        s.next();
        assertFalse(Json.MAPPER.readTree(s.next()).has("perOp"), "a plain op's record has none");
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void theHistoryKeepsItsLimitForgettingTheOldestIntervalsFirst() throws Exception {
        LiveFeed f = feed(5, 16);
        f.change(change(0, "100"));
        for (int i = 1; i <= 10; i++) {
            f.interval(interval(i, 1, Outcome.OK), null, false, 0);
        }
        assertEquals(List.of("change@0.0", "interval@7.0", "interval@8.0", "interval@9.0", "interval@10.0"),
                drainHistory(f.subscribe()));
    }

    @Test
    void aStreamThatFallsAQueueBehindIsDroppedAndThePublisherGoesOn() throws Exception {
        LiveFeed f = feed(1_000, 4);
        LiveFeed.Subscription reader = f.subscribe();
        LiveFeed.Subscription stalled = f.subscribe();
        for (int i = 1; i <= 4; i++) {
            f.interval(interval(i, 1, Outcome.OK), null, false, 0);
            assertEquals(i, Json.MAPPER.readTree(reader.next()).get("t").asInt(), "the reader keeps up");
        }
        assertFalse(stalled.dropped(), "four records queued: its whole queue");
        f.interval(interval(5, 1, Outcome.OK), null, false, 0);
        assertTrue(stalled.dropped(), "the fifth finds its queue full");
        assertFalse(reader.dropped());
        assertEquals(1, f.subscribers());
        assertEquals(1, f.dropped());
        assertNull(stalled.next(), "a dropped stream ends at once");
    }

    @Test
    void aStreamStuckInOneWriteIsDroppedOnceTheStallLimitHasPassed() throws Exception {
        LiveFeed f = feed(1_000, 100);
        LiveFeed.Subscription s = f.subscribe();
        f.interval(interval(1, 1, Outcome.OK), null, false, 0);
        s.next();
        s.writing(f.now());
        clock.addAndGet(2_000);
        f.interval(interval(2, 1, Outcome.OK), null, false, 0);
        assertFalse(s.dropped(), "at the limit it may still be writing");
        clock.addAndGet(1);
        f.interval(interval(3, 1, Outcome.OK), null, false, 0);
        assertTrue(s.dropped(), "past it, it is dropped");
    }

    @Test
    void aWriterWaitingForTheNextRecordIsWokenWhenItsStreamIsDropped() throws Exception {
        LiveFeed f = feed(1_000, 8);
        LiveFeed.Subscription s = f.subscribe();
        f.interval(interval(1, 1, Outcome.OK), null, false, 0);
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                s.next();
                s.next(); // waits
            } catch (InterruptedException e) {
                return; // woken
            }
            throw new AssertionError("next() returned instead of being interrupted");
        });
        while (writer.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
        s.writing(f.now()); // as if the writer were stuck in a write
        clock.addAndGet(10_000);
        f.interval(interval(2, 1, Outcome.OK), null, false, 0);
        writer.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(writer.isAlive(), "the writer left");
        assertTrue(s.dropped());
    }

    @Test
    void theEndReachesEveryStreamAndEndsIt() throws Exception {
        LiveFeed f = feed(1_000, 8);
        LiveFeed.Subscription s = f.subscribe();
        f.interval(interval(1, 1, Outcome.OK), null, false, 0);
        f.close();
        assertEquals("interval", Json.MAPPER.readTree(s.next()).get("type").asText());
        assertNull(s.next(), "then the stream ends");
        LiveFeed.Subscription late = f.subscribe();
        assertEquals(1, late.history().size(), "a page that opens after the end still gets the history");
        late.next();
        assertNull(late.next());
    }
}
