package dev.pacer.engine.internal;

import dev.pacer.engine.ManualClock;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.run.ActivityConfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import dev.pacer.engine.api.ManualRunClock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Whole runs in-process: bounded by cycles, or on the manual clock, so counts are exact whatever the
 * machine's speed.
 */
@Timeout(60)
class LoadRunTest {

    static final long MS = 1_000_000L;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ManualRunClock clock = new ManualRunClock();

    /** A run of {@code config} on the manual clock, to its end. */
    Summary play(ActivityConfig config, Op op) throws Exception {
        return ManualClock.play(clock, new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(100))
                .clock(clock)
                .build(), op, new PrintStream(out), new PrintStream(new ByteArrayOutputStream())));
    }

    Summary run(ActivityConfig config, Op op) throws Exception {
        LoadRun run = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(100)).build(),
                op, new PrintStream(out), new PrintStream(new ByteArrayOutputStream()));
        return run.run();
    }

    @Test
    void aCycleLimitedRunDoesExactlyThatManyOpsEachCycleOnce() throws Exception {
        AtomicLong sum = new AtomicLong();
        Op op = cycle -> {
            sum.addAndGet(cycle);
            return Outcome.OK;
        };
        Summary s = run(new ActivityConfig(OpSpec.parse("counting"), 4, false, null, null, 100_000), op);
        assertEquals(100_000, s.ops());
        assertEquals(99_999L * 100_000 / 2, sum.get(), "cycles 0..99999, each exactly once");
        assertEquals(StopReason.CYCLES, s.stopReason());
        assertTrue(s.passed());
        assertEquals(100_000, s.latencies().get(Metric.RESPONSE).count());
        assertTrue(out.toString().contains("ops        100000"), out.toString());
    }

    @Test
    void aTimedRunStartsNoOpScheduledAtOrAfterItsEnd() throws Exception {
        // 20 ops/s for 2 s: slots at 0, 50, ..., 1950 ms are 40 ops; the slot at 2000 ms is past the end
        Summary s = play(new ActivityConfig(OpSpec.parse("x"), 2, false, RateSpec.parse("20"),
                Duration.ofSeconds(2), 0),
                cycle -> null);
        assertEquals(40, s.ops(), "the slots before the end, not the one at it");
        assertEquals(StopReason.DURATION, s.stopReason());
        assertEquals(0, s.latencies().get(Metric.WAIT).max(), "each on time");
    }

    /** One worker at 1 000 ops/s for 1.5 s whose op stalls 300 ms once, at cycle 100 (on a fresh manual clock). */
    static long opsAroundAStall(String rate) throws Exception {
        LoadRunTest t = new LoadRunTest();
        Op op = cycle -> {
            if (cycle == 100) {
                t.clock.sleep(300 * MS);
            }
            return null;
        };
        return t.play(new ActivityConfig(OpSpec.parse("stall"), 1, false, RateSpec.parse(rate),
                Duration.ofMillis(1_500), 0),
                op).ops();
    }

    @Test
    void burstCompensationForfeitsMostOfAStallsBacklogWhereAverageModeRunsIt() throws Exception {
        // Strictness 0 runs the 300 ops the stall owed (every slot before the end is issued); 0.5 forfeits
        // half the open gap at each op's end (the worker hands its end time to the limiter), so only a
        // handful of them run.
        long average = opsAroundAStall("1000,0");
        long compensated = opsAroundAStall("1000,0.5");
        assertEquals(1_500, average, "strictness 0 issued every slot, the 300 the stall delayed too");
        assertTrue(average - compensated >= 290,
                "strictness 0.5 forfeited the stall's backlog: " + compensated + " ops against " + average);
    }

    @Test
    void opFailuresAreCountedByTypeAndNeverKillAWorker() throws Exception {
        Op op = cycle -> {
            if (cycle % 10 == 0) {
                throw new IllegalStateException("boom");
            }
            return cycle % 10 == 1 ? Outcome.of("4xx", false) : null;
        };
        Summary s = run(new ActivityConfig(OpSpec.parse("flaky"), 2, false, null, null, 10_000), op);
        assertEquals(10_000, s.ops(), "failed ops are ops too, and every worker kept going");
        assertEquals(1_000, s.errors());
        assertEquals(1_000L, s.errorsByType().get("IllegalStateException"));
        assertEquals(1_000L, s.outcomes().get("4xx"), "a non-error outcome is counted but is not an error");
        assertEquals(8_000L, s.outcomes().get("ok"));
        assertFalse(s.passed(), "10 % errors is over the default 1 %");
        assertTrue(s.failure().contains("error ratio 0.1000"), s.failure());
        assertEquals(s.ops(), s.outcomes().values().stream().mapToLong(Long::longValue).sum(), "every op has one "
                + "outcome");
    }

    @Test
    void threadsAddedAndRetiredMidRunLoseNoOp() throws Exception {
        AtomicLong done = new AtomicLong();
        Op op = cycle -> {
            done.incrementAndGet();
            Thread.onSpinWait();
            return null;
        };
        ActivityConfig config = new ActivityConfig(OpSpec.parse("x"), 2, false, RateSpec.parse("50k"), null, 40_000);
        LoadRun run = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(50)).build(), op,
                new PrintStream(out), new PrintStream(new ByteArrayOutputStream()));
        Thread control = new Thread(() -> {
            int[] steps = {8, 1, 5, 2, 16, 3};
            for (int t : steps) {
                try {
                    Thread.sleep(60);
                } catch (InterruptedException e) {
                    return;
                }
                if (!run.activity().isDone()) {
                    run.activity().setThreads(t, "test");
                }
            }
        });
        control.start();
        Summary s = run.run();
        control.join();
        assertEquals(40_000, s.ops(), "every cycle ran and was recorded across thread changes");
        assertEquals(40_000, done.get());
        assertTrue(s.changes().stream().anyMatch(c -> c.kind() == ChangeKind.THREADS));
    }

    @Test
    void aPausedUnpacedRunRunsNothingUntilResumed() throws Exception {
        // two workers, each op 1 ms (from its start, when it is counted): 2 ops per ms while running
        AtomicLong started = new AtomicLong();
        Op op = cycle -> {
            started.incrementAndGet();
            clock.sleep(MS);
            return null;
        };
        ActivityConfig config = new ActivityConfig(OpSpec.parse("x"), 2, false, null, null, 0);
        LoadRun run = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(50)).clock(clock).build(), op,
                new PrintStream(out), new PrintStream(new ByteArrayOutputStream()));
        CompletableFuture<Summary> result = ManualClock.start(clock, run);
        assertTrue(run.activity().awaitStarted(10, TimeUnit.SECONDS));
        long t0 = run.activity().startNanos();
        clock.advanceTo(t0 + 100 * MS);
        assertEquals(202, started.get(), "ops at 0, 1, ..., 100 ms on each worker");
        run.activity().pause("test");
        clock.advance(1_000 * MS);
        assertEquals(202, started.get(), "the ops in flight finished and none started while paused");
        run.activity().resume("test");
        clock.advance(100 * MS);
        assertEquals(404, started.get(), "resumed at once: ops at 1 100, 1 101, ..., 1 200 ms on each worker");
        run.requestStop(StopReason.CONTROL, "test");
        Summary s = clock.await(result);
        assertEquals(StopReason.CONTROL, s.stopReason());
        assertEquals(started.get(), s.ops(), "every op counted once");
    }
}
