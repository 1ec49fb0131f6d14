package dev.pacer.engine.scenario;

import dev.pacer.engine.ManualClock;
import dev.pacer.engine.LoadTest;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Threshold;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Knee;
import dev.pacer.engine.api.RunFigures;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.ScenarioException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.ManualRunClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The knee search against a server of known capacity: 4 workers × 10 ms, so at most 400 req/s, simulated on
 * the manual clock (a call queues for the first free worker, then takes 10 ms of the clock's time), so every
 * probe's verdict is exact and the search runs in seconds whatever the machine's load. 16 workers: at 100/s they
 * hold slots up to 160 ms ahead, which a rate change does not move, inside the probes' 500 ms settling time.
 */
@Timeout(120)
class KneeSearchTest {

    /** A server of {@code workers} × {@code serviceNanos} on the clock: each call waits for the first free worker. */
    static final class SimulatedServer implements Op {
        final ManualRunClock clock;
        final long serviceNanos;
        /** When each worker is free next; guarded by this. */
        private long[] freeAt;

        SimulatedServer(ManualRunClock clock, int workers, long serviceNanos) {
            this.clock = clock;
            this.serviceNanos = serviceNanos;
            this.freeAt = new long[workers];
        }

        synchronized void resize(int workers) {
            freeAt = java.util.Arrays.copyOf(freeAt, workers);
        }

        @Override
        public Outcome run(long cycle) throws Exception {
            long end;
            synchronized (this) {
                int first = 0;
                for (int k = 1; k < freeAt.length; k++) {
                    if (freeAt[k] < freeAt[first]) {
                        first = k;
                    }
                }
                end = Math.max(clock.nanoTime(), freeAt[first]) + serviceNanos;
                freeAt[first] = end;
            }
            clock.sleep(end - clock.nanoTime());
            return null;
        }
    }

    static final String SLO = "response.p99<100ms";

    /** What the test saw of one interval, copied (the reporter reuses its histograms). */
    record Seen(long start, long end, long ops, long errors, Histogram response) {
    }

    static Scenario scenario(String hold) {
        return ScenarioParser.parse("""
                threads: 16
                phases:
                  - name: warm
                    duration: 2s
                    rate: 100
                    warmup: true
                  - name: knee
                    search: {from: 100, to: 1600, slo: "%s", hold: %s, settle: 500ms, precision: 4%%}
                """.formatted(SLO, hold), "knee.yaml");
    }

    static LoadTest.Result run(SimulatedServer server, Scenario s, List<Seen> seen, Runnable midway) throws Exception {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        LoadTest t = LoadTest.scenario(s).op(server).clock(server.clock).interval(java.time.Duration.ofMillis(250))
                .output(sink, sink)
                .progress(false).announce(false).onInterval(r -> {
                    if (!r.drain()) {
                        IntervalStats st = r.stats();
                        seen.add(new Seen(st.startNanos(), st.endNanos(), st.ops(), st.errors(),
                                st.histogram(Metric.RESPONSE).copy()));
                    }
                });
        if (midway != null) {
            t.onChange(c -> {
                if (c.kind() == ChangeKind.PROBE && c.value().endsWith("/s")) {
                    midway.run();
                }
            });
        }
        return ManualClock.finish(server.clock, t.start());
    }

    @Test
    void findsTheKneeOfA400PerSecondServerAndEachVerdictMatchesItsOwnIntervals() throws Exception {
        {
            SimulatedServer server = new SimulatedServer(new ManualRunClock(), 4, 10_000_000L);
            List<Seen> seen = new CopyOnWriteArrayList<>();
            LoadTest.Result r = run(server, scenario("2s"), seen, null);
            Knee knee = r.summary().knee();
            assertNotNull(knee, "the summary has the search's result");
            assertEquals(StopReason.SEARCH, r.summary().stopReason(), "the run ends when the search does");
            String trajectory = knee.probes().stream().map(p -> p.rate() + (p.passed() ? " held" : " broke: "
                    + p.why()))
                    .toList().toString();
            assertEquals("found", knee.status(), trajectory);
            assertTrue(r.passed(), "a knee found passes: " + r.failure());
            // 100, 200, 400 held; 800 broke (400/s completed), then the bracket halves to 412.5 - 400 < 4 %
            assertEquals(400.0, knee.rate(), "the server's capacity exactly: " + trajectory);
            assertEquals(List.of(100.0, 200.0, 400.0, 800.0, 600.0, 500.0, 450.0, 425.0, 412.5),
                    knee.probes().stream().map(Knee.Probe::rate).toList().subList(0, 9));
            assertNotNull(knee.atKnee());

            Threshold gate = Threshold.parse(SLO);
            for (Knee.Probe p : knee.probes()) {
                if (p.why().startsWith("ended early")) {
                    assertTrue(!p.passed(), "a probe that exploded is broken");
                    continue;
                }
                Histogram merged = new Histogram(3);
                long ops = 0;
                for (Seen s : seen) {
                    if (s.start() >= p.windowStartNanos() && s.end() <= p.windowEndNanos()) {
                        merged.add(s.response());
                        ops += s.ops();
                    }
                }
                assertEquals(p.figures().ops(), ops, "probe at " + p.rate() + " judged exactly its window's intervals");
                double seconds = (p.windowEndNanos() - p.windowStartNanos()) / 1e9;
                RunFigures mine = new RunFigures(ops, 0, p.rate(), ops / seconds, seconds,
                        Map.of(Metric.RESPONSE, LatencySummary.of(merged)));
                boolean sloHeld = gate.evaluate(mine).passed();
                boolean sustained = ops / seconds >= p.rate() * 0.98;
                assertEquals(sloHeld && sustained, p.passed(), "probe at " + p.rate() + ": " + p.why());
            }
        }
    }

    @Test
    void aCapacityThatMovesMidSearchIsReportedAsUnstable() throws Exception {
        {
            SimulatedServer server = new SimulatedServer(new ManualRunClock(), 4, 10_000_000L);
            List<Seen> seen = new CopyOnWriteArrayList<>();
            int[] probes = {0};
            // after the fifth probe begins, the server loses half its workers: 400 -> 200 req/s
            LoadTest.Result r = run(server, scenario("2s"), seen, () -> {
                if (++probes[0] == 5) {
                    server.resize(2);
                }
            });
            Knee knee = r.summary().knee();
            String trajectory = knee.probes().stream().map(p -> p.rate() + (p.passed() ? " held" : " broke"))
                    .toList().toString();
            assertEquals("unstable", knee.status(), trajectory);
            assertTrue(Double.isNaN(knee.rate()), "no number is given for an unstable system");
            assertEquals("the knee search gave no rate (knee unstable)", r.failure(), "so the exit status is 1");
        }
    }

    @Test
    void whileTheSearchRunsEveryDoorRefusesAChangeAndTheKneeStaysTheServers() throws Exception {
        SimulatedServer server = new SimulatedServer(new ManualRunClock(), 4, 10_000_000L);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        List<String> changes = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger probes = new java.util.concurrent.atomic.AtomicInteger();
        LoadTest.Running r = LoadTest.scenario(scenario("2s")).op(server).clock(server.clock)
                .interval(java.time.Duration.ofMillis(250)).output(sink, sink).progress(false).announce(false)
                .onChange(c -> {
                    changes.add(c.kind() + " " + c.value() + " " + c.source());
                    if (c.kind() == ChangeKind.PROBE && c.value().endsWith("/s")) {
                        probes.incrementAndGet();
                    }
                }).start();
        server.clock.runUntil(() -> probes.get() == 2); // the second probe, 200/s, is being held
        int before = changes.size();
        List<org.junit.jupiter.api.function.Executable> doors = List.of(() -> r.rate("5000"),
                () -> r.strictness(0), () -> r.threads(2), r::pause, r::resume);
        for (org.junit.jupiter.api.function.Executable door : doors) {
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    door);
            assertEquals(ScenarioRunner.SEARCH_OWNS_THE_RATE, e.getMessage());
        }
        // the console's and the control endpoint's way in: one error line
        assertEquals("error: " + ScenarioRunner.SEARCH_OWNS_THE_RATE, r.execute("rate 5000"));
        assertEquals("error: " + ScenarioRunner.SEARCH_OWNS_THE_RATE, r.execute("pause"));
        assertEquals(before, changes.size(), "nothing was recorded: " + changes.subList(before, changes.size()));

        Knee knee = ManualClock.finish(server.clock, r).summary().knee();
        assertEquals("found", knee.status());
        assertEquals(400.0, knee.rate(), "the server's capacity, as without the refused changes");
        assertEquals(200.0, knee.probes().get(1).rate());
        assertTrue(knee.probes().get(1).passed(), knee.probes().get(1).why());
    }

    @Test
    void beforeTheSearchPhaseAChangeIsStillTaken() throws Exception {
        SimulatedServer server = new SimulatedServer(new ManualRunClock(), 4, 10_000_000L);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        long t0 = server.clock.nanoTime();
        LoadTest.Running r = LoadTest.scenario(scenario("2s")).op(server).clock(server.clock)
                .interval(java.time.Duration.ofMillis(250)).output(sink, sink).progress(false).announce(false)
                .start();
        server.clock.runUntil(() -> server.clock.nanoTime() - t0 > 500_000_000L); // in the 2 s warm-up phase
        assertTrue(r.execute("rate 150").startsWith("ok: "), "the warm-up phase is not the search's");
        r.stop();
        ManualClock.finish(server.clock, r);
    }

    @Test
    void aSearchThatGivesNoRateFailsTheRun() throws Exception {
        // 'none': the first probe already breaks an SLO the 10 ms server cannot meet
        SimulatedServer server = new SimulatedServer(new ManualRunClock(), 4, 10_000_000L);
        Scenario none = ScenarioParser.parse("""
                threads: 16
                phases:
                  - name: knee
                    search: {from: 100, to: 1600, slo: "response.p99<1ms", hold: 2s, settle: 500ms}
                """, "none.yaml");
        LoadTest.Result r = run(server, none, new CopyOnWriteArrayList<>(), null);
        assertEquals("none", r.summary().knee().status());
        assertEquals("the knee search gave no rate (knee none)", r.failure());
        // 'unfinished': the run is cut before the search ends
        server = new SimulatedServer(new ManualRunClock(), 4, 10_000_000L);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        r = ManualClock.finish(server.clock, LoadTest.scenario(scenario("2s")).op(server).clock(server.clock)
                .interval(java.time.Duration.ofMillis(250)).duration(java.time.Duration.ofSeconds(3)).output(sink, sink)
                .progress(false).announce(false).start());
        assertEquals("unfinished", r.summary().knee().status());
        assertEquals("the knee search gave no rate (knee unfinished)", r.failure());
    }

    @Test
    void aSearchMustBeTheLastPhaseAndItsSloMustParse() {
        ScenarioException e = org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class,
                () -> ScenarioParser.parse("""
                phases:
                  - search: {from: 100, to: 1000, slo: "response.p99<20ms"}
                  - duration: 1s
                    rate: 10
                """, "s.yaml"));
        assertTrue(e.getMessage().contains("must be the last"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(ScenarioException.class, () -> ScenarioParser.parse("""
                phases:
                  - search: {from: 100, to: 1000, slo: "respose.p99<20ms"}
                """, "s.yaml"));
        assertTrue(e.getMessage().contains("respose"), e.getMessage());
    }
}
