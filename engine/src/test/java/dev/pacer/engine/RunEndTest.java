package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.event.StopReason;
import dev.pacer.engine.metrics.Metric;
import dev.pacer.engine.op.AsyncOp;
import dev.pacer.engine.op.Completion;
import dev.pacer.engine.op.Op;
import dev.pacer.engine.op.OpSpec;
import dev.pacer.engine.op.Outcome;
import dev.pacer.engine.result.Summary;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.ratelimit.RateSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * How runs end: at their schedule's end whatever their ops do, with every op that started counted once
 * (completed in the drain, or cancelled when the grace period ends), and with no worker left behind.
 * Real clock; bounds hold on a loaded 2-core machine.
 */
class RunEndTest {

    static final ScheduledExecutorService TIMER = Executors.newScheduledThreadPool(2);

    @AfterAll
    static void stopTimer() {
        TIMER.shutdownNow();
    }

    static LoadRun run(ActivityConfig config, Op op, Duration grace) {
        return new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(200)).grace(grace).build(), op,
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
    }

    static ActivityConfig config(String rate, int threads, boolean virtual, Duration duration, int maxInFlight) {
        return new ActivityConfig(OpSpec.parse("test"), threads, virtual, rate == null ? null : RateSpec.parse(rate),
                duration, 0, maxInFlight);
    }

    /** An async op that completes {@code delay} after it starts, counting how many are in flight at most. */
    static final class DelayedOp implements AsyncOp {
        final long delayNanos;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();

        DelayedOp(Duration delay) {
            this.delayNanos = delay.toNanos();
        }

        @Override
        public void start(long cycle, Completion completion) {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            TIMER.schedule(() -> {
                inFlight.decrementAndGet();
                completion.complete(Outcome.OK);
            }, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    @Test
    void noSlotWhoseIdealTimeIsTheEndIsIssuedWhateverTheSliceRoundsTo() throws Exception {
        // 3 ops/s: the slice (333 333 333.33 ns) rounds down, which put slot 6 (ideally at 2.0 s) a hair
        // before a 2 s deadline: 7 ops. 300 ops/s for 1 s put slot 300 at 999 999 999.6 ns: 301 ops.
        assertEquals(6, run(config("3", 1, false, Duration.ofSeconds(2), 0), cycle -> null, Duration.ZERO).run().ops());
        Summary s = run(config("300", 1, false, Duration.ofSeconds(1), 0), cycle -> null, Duration.ZERO).run();
        assertTrue(s.ops() <= 300, "slot 300 (ideally at the end) is never issued: " + s.ops());
        // the earlier ones are, unless the machine stalls the worker near the end: the run ends at its
        // deadline and a backlog still owed then is not worked off (a 200 ms stall in a full suite: 241)
        assertTrue(s.ops() >= 200, "the slots before the end ran: " + s.ops());
    }

    @Test
    void slowOpsFinishAfterTheEndWithoutStretchingTheRun() throws Exception {
        // 100 ops/s for 3 s, each op 2 s: all 300 start on time and finish up to 2 s after the end
        Op twoSeconds = cycle -> {
            Thread.sleep(2_000);
            return null;
        };
        long t0 = System.nanoTime();
        Summary s = run(config("100", 400, true, Duration.ofSeconds(3), 0), twoSeconds, Duration.ofSeconds(10)).run();
        double wall = (System.nanoTime() - t0) / 1e9;
        assertEquals(300, s.ops(), "every slot before the end ran and was counted");
        assertEquals(3.0, s.durationSeconds(), 1e-9, "the run's length is its schedule's");
        assertEquals(100.0, s.achievedRate(), 1e-6);
        assertEquals(300L, s.outcomes().get("ok"), "none was cancelled");
        assertTrue(s.latencies().get(Metric.SERVICE).min() >= 1_990_000_000L, "2 s each, to the histogram's 0.1 %");
        assertTrue(wall >= 4.9 && wall < 15, "the drain waited for the last op (2 s after the end): " + wall);
    }

    @Test
    void opsStillRunningWhenTheGraceEndsAreCancelledAndTheRunEnds() throws Exception {
        Op oneHour = cycle -> {
            Thread.sleep(3_600_000);
            return null;
        };
        long t0 = System.nanoTime();
        Summary s = run(config("10", 2, false, Duration.ofSeconds(1), 0), oneHour, Duration.ofMillis(300)).run();
        double wall = (System.nanoTime() - t0) / 1e9;
        assertEquals(2, s.ops(), "the two ops that started are counted");
        assertEquals(2L, s.outcomes().get("cancelled"));
        assertEquals(2, s.errors(), "a cancelled op is an error");
        assertEquals(1.0, s.durationSeconds(), 1e-9);
        assertTrue(s.latencies().get(Metric.SERVICE).min() >= 995_000_000L, "they ran from their start to the grace's end");
        assertTrue(wall < 10, "the run ends a grace period after its end, not an hour later: " + wall);
    }

    @Test
    void loweringThreadsLetsRetiringWorkersRunTheirSlotsAndAStopReachesThem() throws Exception {
        // 0.5 ops/s: 8 workers hold the slots at 0, 2, 4, ... 14 s. Lowered to 1, the 7 retiring ones keep
        // theirs (slot 2 s runs); raised to 8 again they are kept, not replaced; at the 3 s deadline every
        // worker is reached, however far its slot.
        LoadRun r = run(config("0.5", 8, false, Duration.ofSeconds(3), 0), cycle -> null, Duration.ZERO);
        CompletableFuture<Summary> result = CompletableFuture.supplyAsync(() -> {
            try {
                return r.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long t0 = System.nanoTime();
        assertTrue(r.activity().awaitStarted(10, TimeUnit.SECONDS));
        Thread.sleep(300);
        r.activity().setThreads(1, "test");
        assertEquals(7, r.activity().retiringThreads());
        r.activity().setThreads(8, "test");
        assertEquals(0, r.activity().retiringThreads(), "kept, not replaced");
        assertEquals(8, r.activity().workersStarted(), "no new threads");
        r.activity().setThreads(1, "test");
        Summary s = result.get(20, TimeUnit.SECONDS);
        double wall = (System.nanoTime() - t0) / 1e9;
        assertEquals(2, s.ops(), "the slots at 0 s and 2 s ran, one of them by a retiring worker");
        assertEquals(StopReason.DURATION, s.stopReason());
        assertTrue(wall < 8, "no retiring worker kept the run past its deadline: " + wall);
        assertTrue(r.activity().awaitDone(5, TimeUnit.SECONDS), "every worker left");
        assertEquals(1, s.threads(), "the setting at the end");
    }

    @Test
    void anAsyncOpsWorkerMovesOnAndTheInFlightBoundMakesLateSlotsWait() throws Exception {
        // 200 ops/s, each op 100 ms, at most 4 in flight: 40 ops/s can complete, so slots wait for a free
        // one and that wait is wait time; the worker never waits for a completion itself
        DelayedOp op = new DelayedOp(Duration.ofMillis(100));
        Summary s = run(config("200", 1, false, Duration.ofSeconds(1), 4), op, Duration.ofSeconds(5)).run();
        assertTrue(op.mostInFlight.get() <= 4, "the bound held: " + op.mostInFlight.get());
        assertEquals(4, op.mostInFlight.get(), "and was reached");
        // the slots still waiting for a free one at the end never started: counted not-sent, with no service time
        long notSent = s.errorsByType().getOrDefault("not-sent", 0L);
        long started = s.ops() - notSent;
        assertTrue(started >= 30 && started <= 48, "about 40 could start in the second: " + s.outcomes());
        assertTrue(Math.abs(s.ops() - 200) <= 4, "every slot of the second is counted: " + s.outcomes());
        assertTrue(s.latencies().get(Metric.WAIT).max() >= 300_000_000L, "waiting for a free slot is wait time");
        assertTrue(s.latencies().get(Metric.SERVICE).at("90") >= 99_500_000L
                && s.latencies().get(Metric.SERVICE).max() < 150_000_000L,
                "the started fifth took 100 ms each, to the histogram's 0.1 %: " + s.latencies());
        assertEquals(notSent, s.errors(), "no other error: " + s.outcomes());
    }

    @Test
    void asyncOpsInFlightAtTheEndCompleteInTheDrainAndCount() throws Exception {
        DelayedOp op = new DelayedOp(Duration.ofMillis(300));
        Summary s = run(config("100", 1, false, Duration.ofSeconds(1), 0), op, Duration.ofSeconds(5)).run();
        assertEquals(100, s.ops(), "the ~30 in flight at the end completed and counted");
        assertEquals(100L, s.outcomes().get("ok"));
        assertEquals(1.0, s.durationSeconds(), 1e-9);
        assertEquals(100.0, s.achievedRate(), 1e-6);
    }

    @Test
    void asyncOpsThatNeverCompleteAreCancelledAfterTheGrace() throws Exception {
        AsyncOp never = (cycle, completion) -> { };
        Summary s = run(config("50", 1, false, Duration.ofMillis(500), 0), never, Duration.ofMillis(200)).run();
        assertEquals(25, s.ops());
        assertEquals(25L, s.outcomes().get("cancelled"));
    }

}
