package dev.pacer.engine;

import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How runs end: at their schedule's end whatever their ops do, with every op that started counted once
 * (completed in the drain, or cancelled when the grace period ends), and with no worker left behind.
 * On the manual clock: every count and time is exact.
 */
@Timeout(60)
class RunEndTest {

    static final long MS = 1_000_000L;

    final ManualRunClock clock = new ManualRunClock();

    LoadRun run(ActivityConfig config, Op op, Duration grace) {
        return new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(200)).grace(grace).clock(clock)
                .build(),
                op,
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
    }

    static ActivityConfig config(String rate, int threads, boolean virtual, Duration duration, int maxInFlight) {
        return new ActivityConfig(OpSpec.parse("test"), threads, virtual, rate == null ? null : RateSpec.parse(rate),
                duration, 0, maxInFlight);
    }

    /** An op that takes {@code nanos} of the clock's time. */
    Op sleeping(long nanos) {
        return cycle -> {
            clock.sleep(nanos);
            return null;
        };
    }

    /** An async op that completes {@code delay} after it starts, counting how many are in flight at most. */
    final class DelayedOp implements AsyncOp {
        final long delayNanos;
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();

        DelayedOp(Duration delay) {
            this.delayNanos = delay.toNanos();
        }

        @Override
        public void start(long cycle, Completion completion) {
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            clock.start(Thread.ofVirtual(), () -> {
                try {
                    clock.sleep(delayNanos);
                } catch (InterruptedException e) {
                    return;
                }
                inFlight.decrementAndGet();
                completion.complete(Outcome.OK);
            });
        }
    }

    @Test
    void noSlotWhoseIdealTimeIsTheEndIsIssuedWhateverTheSliceRoundsTo() throws Exception {
        // 3 ops/s: the slice (333 333 333.33 ns) rounds down, which put slot 6 (ideally at 2.0 s) a hair
        // before a 2 s deadline: 7 ops. 300 ops/s for 1 s put slot 300 at 999 999 999.6 ns: 301 ops.
        assertEquals(6, ManualClock.play(clock, run(config("3", 1, false, Duration.ofSeconds(2), 0), cycle -> null,
                Duration.ZERO)).ops());
        Summary s = ManualClock.play(clock, run(config("300", 1, false, Duration.ofSeconds(1), 0), cycle -> null,
                Duration.ZERO));
        assertEquals(300, s.ops(), "every slot before the end, and not slot 300 (ideally at the end)");
    }

    @Test
    void aWorkerBehindAtTheEndStillTakesTheSlotsDueBeforeItLate() throws Exception {
        // 1000 ops/s for 1 s on one worker; the op of cycle 990 takes 15 ms, so at the deadline (1 000 ms) the slots
        // of 991-999 ms are due and not taken: the worker takes them at 1 005 ms, each late, then leaves by itself
        long t0 = clock.nanoTime();
        LoadRun r = run(config("1000", 1, false, Duration.ofSeconds(1), 0),
                cycle -> {
                    if (cycle == 990) {
                        clock.sleep(15 * MS);
                    }
                    return null;
                }, Duration.ofSeconds(1));
        List<IntervalReport> intervals = new CopyOnWriteArrayList<>();
        r.addIntervalListener(intervals::add);
        Summary s = ManualClock.play(clock, r);
        assertEquals(1000, s.ops(), "every slot due before the end was taken (991 when the stop came at the end)");
        List<IntervalReport> schedule = intervals.stream().filter(i -> !i.drain())
                .toList();
        assertEquals(5, schedule.size(), "five 200 ms intervals, the late slots in the last, no interval of their own");
        assertEquals(1000, schedule.stream().mapToLong(i -> i.stats().ops()).sum());
        assertEquals(200, schedule.get(4).stats().ops(), "the last interval holds its 9 late slots");
        assertEquals(StopReason.DURATION, s.stopReason());
        assertEquals(1.0, s.durationSeconds(), 1e-9, "the run's length is its schedule's");
        assertEquals(14 * MS, s.latencies().get(Metric.WAIT).max(), 14 * MS / 1000,
                "the slot of 991 ms went at 1 005 ms");
        assertEquals(1_005 * MS, clock.nanoTime() - t0, "the run ended when the late worker left, not at the slack");
    }

    @Test
    void slowOpsFinishAfterTheEndWithoutStretchingTheRun() throws Exception {
        // 100 ops/s for 3 s, each op 2 s: all 300 start on time and finish up to 2 s after the end
        long t0 = clock.nanoTime();
        Summary s = ManualClock.play(clock, run(config("100", 400, true, Duration.ofSeconds(3), 0),
                sleeping(2_000 * MS),
                Duration.ofSeconds(10)));
        assertEquals(300, s.ops(), "every slot before the end ran and was counted");
        assertEquals(3.0, s.durationSeconds(), 1e-9, "the run's length is its schedule's");
        assertEquals(100.0, s.achievedRate(), 1e-6);
        assertEquals(300L, s.outcomes().get("ok"), "none was cancelled");
        assertEquals(0, s.latencies().get(Metric.WAIT).max(), "all started on time");
        assertTrue(s.latencies().get(Metric.SERVICE).min() >= 1_998_000_000L, "2 s each, to the histogram's 0.1 %");
        assertEquals(4_990 * MS, clock.nanoTime() - t0,
                "the drain waited for the last op: started at 2.99 s, 2 s long");
    }

    @Test
    void opsStillRunningWhenTheGraceEndsAreCancelledAndTheRunEnds() throws Exception {
        long t0 = clock.nanoTime();
        Summary s = ManualClock.play(clock, run(config("10", 2, false, Duration.ofSeconds(1), 0),
                sleeping(3_600_000 * MS),
                Duration.ofMillis(300)));
        assertEquals(2, s.ops(), "the two ops that started are counted");
        assertEquals(2L, s.outcomes().get("cancelled"));
        assertEquals(2, s.errors(), "a cancelled op is an error");
        assertEquals(1.0, s.durationSeconds(), 1e-9);
        // they started at 0 and 0.1 s and ran until the grace's end at 1.3 s
        assertEquals(1_200 * MS, s.latencies().get(Metric.SERVICE).min(), 1_200 * MS / 1000);
        assertEquals(1_300 * MS, s.latencies().get(Metric.SERVICE).max(), 1_300 * MS / 1000);
        assertEquals(1_300 * MS, clock.nanoTime() - t0, "the run ends a grace period after its end, not an hour later");
    }

    @Test
    void loweringThreadsLetsRetiringWorkersRunTheirSlotsAndAStopReachesThem() throws Exception {
        // 0.5 ops/s: 8 workers hold the slots at 0, 2, 4, ... 14 s. Lowered to 1, the 7 retiring ones keep
        // theirs (slot 2 s runs); raised to 8 again they are kept, not replaced; at the 3 s deadline every
        // worker is reached, however far its slot.
        LoadRun r = run(config("0.5", 8, false, Duration.ofSeconds(3), 0), cycle -> null, Duration.ZERO);
        CompletableFuture<Summary> result = ManualClock.start(clock, r);
        assertTrue(r.activity().awaitStarted(10, TimeUnit.SECONDS));
        long t0 = r.activity().startNanos();
        clock.advanceTo(t0 + 300 * MS);
        r.activity().setThreads(1, "test");
        assertEquals(7, r.activity().retiringThreads());
        r.activity().setThreads(8, "test");
        assertEquals(0, r.activity().retiringThreads(), "kept, not replaced");
        assertEquals(8, r.activity().workersStarted(), "no new threads");
        r.activity().setThreads(1, "test");
        Summary s = clock.await(result);
        assertEquals(2, s.ops(), "the slots at 0 s and 2 s ran, one of them by a retiring worker");
        assertEquals(StopReason.DURATION, s.stopReason());
        assertEquals(3_000 * MS, clock.nanoTime() - t0, "no retiring worker kept the run past its deadline");
        clock.runUntil(r.activity()::isDone);
        assertEquals(1, s.threads(), "the setting at the end");
    }

    @Test
    void anAsyncOpsWorkerMovesOnAndTheInFlightBoundMakesLateSlotsWait() throws Exception {
        // 200 ops/s, each op 120 ms, at most 4 in flight: 4 start at 0, 5, 10, 15 ms, then 4 more each time
        // those complete (120 ms later), so 36 start before the 1 s end; slots wait for a free one and that
        // wait is wait time; the worker never waits for a completion itself
        DelayedOp op = new DelayedOp(Duration.ofMillis(120));
        Summary s = ManualClock.play(clock, run(config("200", 1, false, Duration.ofSeconds(1), 4), op,
                Duration.ofSeconds(5)));
        assertEquals(4, op.mostInFlight.get(), "the bound held and was reached");
        // the slots still waiting for a free one at the end never started: counted not-sent, with no service time
        long notSent = s.errorsByType().getOrDefault("not-sent", 0L);
        assertEquals(36, s.ops() - notSent, "4 every 120 ms could start in the second: " + s.outcomes());
        assertEquals(200, s.ops(), "every slot of the second is counted once: " + s.outcomes());
        // the last started at 8 x 120 + 15 = 975 ms, for the slot at 35 x 5 = 175 ms
        assertTrue(s.latencies().get(Metric.WAIT).max() >= 800 * MS - 800 * MS / 1000,
                "waiting for a free slot is wait time");
        assertEquals(120 * MS, s.latencies().get(Metric.SERVICE).min(), 120 * MS / 1000, "120 ms each");
        assertEquals(notSent, s.errors(), "no other error: " + s.outcomes());
    }

    /**
     * Every slot before the end is counted once, however many workers wait for a free in-flight slot and however far
     * behind: each waiting worker took owed slots until the end, so several counted the same span (4 097 to 4 247 of
     * 4 000 at 8 to 64 threads), and one slot at the end too (301 of 300); a worker far behind held a run of slots
     * from its grant that no one counted (542 of 600). The achieved rate is of the ops that started.
     */
    @Test
    void everySlotBeforeTheEndIsCountedOnceWhateverWaitsForAFreeSlot() throws Exception {
        for (int threads : new int[] {1, 4, 16}) {
            DelayedOp never = new DelayedOp(Duration.ofHours(1)); // a server that never answers: 2 in flight, forever
            Summary s = ManualClock.play(clock, run(config("300", threads, false, Duration.ofSeconds(1), 2), never,
                    Duration.ZERO));
            assertEquals(300, s.ops(), threads + " threads: " + s.outcomes());
            assertEquals(Map.of("cancelled", 2L, "not-sent", 298L), s.outcomes(), threads + " threads");
            assertEquals(2.0, s.achievedRate(), 1e-9, "2 ops started in the second; not-sent ones did not");
        }
        // one worker far behind (a 10 ms op, one at a time, at 2 000/s) takes its slots from the limiter in runs
        DelayedOp slow = new DelayedOp(Duration.ofMillis(10));
        Summary s = ManualClock.play(clock, run(config("2000", 1, false, Duration.ofSeconds(1), 1), slow,
                Duration.ofSeconds(1)));
        assertEquals(2000, s.ops(), "every slot of the second: " + s.outcomes());
        long started = s.outcomes().getOrDefault("ok", 0L);
        assertTrue(started >= 100 && started <= 104, "one 10 ms op at a time: " + s.outcomes());
        assertEquals(2000 - started, s.outcomes().get("not-sent"));
        assertEquals(started, s.achievedRate(), 1e-9, "the ops started in the second");
    }

    @Test
    void asyncOpsInFlightAtTheEndCompleteInTheDrainAndCount() throws Exception {
        DelayedOp op = new DelayedOp(Duration.ofMillis(300));
        Summary s = ManualClock.play(clock, run(config("100", 1, false, Duration.ofSeconds(1), 0), op,
                Duration.ofSeconds(5)));
        assertEquals(100, s.ops(), "the 30 in flight at the end completed and counted");
        assertEquals(100L, s.outcomes().get("ok"));
        assertEquals(1.0, s.durationSeconds(), 1e-9);
        assertEquals(100.0, s.achievedRate(), 1e-6);
    }

    @Test
    void asyncOpsThatNeverCompleteAreCancelledAfterTheGrace() throws Exception {
        AsyncOp never = (cycle, completion) -> { };
        long t0 = clock.nanoTime();
        Summary s = ManualClock.play(clock, run(config("50", 1, false, Duration.ofMillis(500), 0), never,
                Duration.ofMillis(200)));
        assertEquals(25, s.ops());
        assertEquals(25L, s.outcomes().get("cancelled"));
        assertEquals(700 * MS, clock.nanoTime() - t0, "cancelled at the grace's end");
    }
}
