package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.RunClock;
import dev.pacer.ratelimit.api.Sleeper;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.SettingException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run with a pacing tick: its workers wake once per tick and send what fell due, each op late by its wait
 * (spread evenly over the tick, none early), and the rate holds; a strictness that would forfeit that lateness
 * is refused, at the start and while the run goes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PacingTickRunTest {

    static final long MS = 1_000_000;

    @Test
    void aRunAt20000PerSecondWithA1MsTickHoldsItsRateAndWaitsUpToATick() throws Exception {
        LoadTest.Result r = ManualClock.play(new ManualRunClock(), LoadTest.rate("20000").pacingTick(
                Duration.ofMillis(1)).threads(1).op("noop").duration(Duration.ofSeconds(1)));
        // exact: the slots due in the last tick before the deadline go when it ends, after the deadline
        assertEquals(20_000, r.summary().ops(), "every slot of 1 s at 20 000/s");
        Histogram wait = r.histogram(Metric.WAIT);
        // the ops due during a tick go when it ends: their waits spread evenly from 0 to the tick
        assertTrue(Math.abs(wait.getValueAtPercentile(50) - MS / 2) <= MS / 10,
                "wait p50 " + wait.getValueAtPercentile(50) + " ns, not about half a tick");
        assertTrue(wait.getMaxValue() <= MS + MS / 10, "wait max " + wait.getMaxValue() + " ns: beyond a tick");
    }

    @Test
    void withoutATickTheSameRunsOpsStartOnTime() throws Exception {
        LoadTest.Result r = ManualClock.play(new ManualRunClock(), LoadTest.rate("20000").threads(1).op("noop")
                .duration(Duration.ofSeconds(1)));
        assertEquals(20_000, r.summary().ops(), 40, "the rate held: 20 000 ops in 1 s");
        assertTrue(r.histogram(Metric.WAIT).getValueAtPercentile(99) < MS / 10,
                "wait p99 " + r.histogram(Metric.WAIT).getValueAtPercentile(99) + " ns");
    }

    @Test
    void aStrictnessOtherThan0IsRefusedWithATick() {
        SettingException e = assertThrows(SettingException.class, () -> PoissonRunTest.quiet(LoadTest.rate("1000,1")
                .pacingTick(Duration.ofMillis(1)).op("noop").duration(Duration.ofSeconds(1))).start());
        assertTrue(e.getMessage().contains("cannot go with a pacing tick"), e.getMessage());
    }

    @Test
    void aScenarioPhasesStrictnessWithATickIsRefusedAtThePhasesLine() {
        var scenario = dev.pacer.engine.scenario.ScenarioParser.parse("""
                phases:
                  - {rate: 100, duration: 1s}
                  - {rate: 100, duration: 1s, strictness: 1}
                """, "st.yaml");
        var e = assertThrows(dev.pacer.engine.api.ScenarioException.class, () -> PoissonRunTest.quiet(
                LoadTest.scenario(scenario).pacingTick(Duration.ofMillis(1))).start());
        assertTrue(e.getMessage().startsWith("st.yaml:3: phase 'phase-2': strictness 1 cannot go with a pacing tick"),
                e.getMessage());
    }

    @Test
    void aScenariosOwnStrictnessWithATickIsRefusedAtItsLineNotAsTheRates() {
        var scenario = dev.pacer.engine.scenario.ScenarioParser.parse("""
                name: top
                strictness: 0.5
                phases:
                  - {rate: 100, duration: 1s}
                """, "top.yaml");
        var e = assertThrows(dev.pacer.engine.api.ScenarioException.class, () -> PoissonRunTest.quiet(
                LoadTest.scenario(scenario).pacingTick(Duration.ofMillis(1))).start());
        assertEquals("top.yaml:2: strictness 0.5 cannot go with a pacing tick, which makes every op late by up to a"
                + " tick by design: strictness 0 keeps the rate", e.getMessage());
        // a scenario made in code has no line: the tick, which the caller gave, is named
        var made = new dev.pacer.engine.api.Scenario("made", "", "api", null, java.util.Map.of(), null, 0.5,
                scenario.phases(), java.util.Map.of(), null, null);
        SettingException s = assertThrows(SettingException.class, () -> PoissonRunTest.quiet(
                LoadTest.scenario(made).pacingTick(Duration.ofMillis(1))).start());
        assertEquals("pacing-tick", s.setting());
        assertTrue(s.getMessage().startsWith("invalid pacing-tick '1.00ms': cannot go with scenario made's strictness"
                + " 0.5: "), s.getMessage());
    }

    @Test
    void aTickOutsideItsBoundsIsRefused() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1), Duration.ofMillis(101)}) {
            SettingException e = assertThrows(SettingException.class, () -> PoissonRunTest.quiet(LoadTest.rate("1000")
                    .pacingTick(bad).op("noop").duration(Duration.ofSeconds(1))).start());
            assertTrue(e.getMessage().contains("must be above 0 and at most 100"), e.getMessage());
        }
    }

    @Test
    void aLiveStrictnessChangeIsRefusedWithATickAndTheRunGoesOn() throws Exception {
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate("1000").pacingTick(Duration.ofMillis(1))
                .op("noop").duration(Duration.ofSeconds(30))).start();
        try {
            SettingException e = assertThrows(SettingException.class, () -> running.strictness(0.5));
            assertTrue(e.getMessage().contains("cannot go with a pacing tick"), e.getMessage());
            assertThrows(SettingException.class, () -> running.rate("2000,1"));
            running.rate("2000"); // strictness 0: taken
        } finally {
            running.stop();
        }
        LoadTest.Result r = running.await();
        assertEquals(0.0, r.summary().strictness(), "the refused strictness never applied");
    }

    /** How many times a worker parked waiting for a free in-flight slot, in a run of 10 ms async ops, 64 in flight. */
    static int poolWaits(Duration tick) throws Exception {
        ManualRunClock manual = new ManualRunClock();
        AtomicInteger waits = new AtomicInteger();
        RunClock counting = new RunClock() { // the limiter parks on sleeper(); waits for a free slot park here
            @Override
            public long nanoTime() {
                return manual.nanoTime();
            }

            @Override
            public void park(long nanos) {
                if (Thread.currentThread().getName().startsWith("pacer-worker")) {
                    waits.incrementAndGet();
                }
                manual.park(nanos);
            }

            @Override
            public void unpark(Thread thread) {
                manual.unpark(thread);
            }

            @Override
            public Instant instant() {
                return manual.instant();
            }

            @Override
            public Sleeper sleeper() {
                return manual.sleeper();
            }

            @Override
            public Thread start(Thread.Builder builder, Runnable task) {
                return manual.start(builder, task);
            }
        };
        AsyncOp op = new AsyncOp() { // each op completes 10 ms after it starts
            @Override
            public void start(long cycle, Completion completion) {
                manual.start(Thread.ofVirtual(), () -> {
                    try {
                        manual.sleep(10 * MS);
                    } catch (InterruptedException e) {
                        return;
                    }
                    completion.complete(Outcome.OK);
                });
            }
        };
        LoadTest test = PoissonRunTest.quiet(LoadTest.rate("20000").op(op).maxInFlight(64).threads(1)
                .duration(Duration.ofSeconds(1)).clock(counting));
        if (tick != null) {
            test.pacingTick(tick);
        }
        LoadTest.Result r = ManualClock.finish(manual, test.start());
        assertTrue(r.summary().ops() >= 6_000, r.summary().ops() + " ops: about 6 400 a second fit in flight");
        return waits.get();
    }

    @Test
    void aWorkerWaitingForAFreeSlotIsWokenPerBatchOfCompletionsOrTickNotPerCompletion() throws Exception {
        int ticked = poolWaits(Duration.ofMillis(1));
        // woken once 8 of the 64 slots are free (6 400 completions/s: 800 times) or a tick has passed (1 000 times)
        assertTrue(ticked <= 1_800, ticked + " waits for a free slot in 1 s at a 1 ms tick");
        int woken = poolWaits(null);
        assertTrue(woken >= 5_000, woken + " waits for a free slot in 1 s without a tick: one per completion");
    }
}
