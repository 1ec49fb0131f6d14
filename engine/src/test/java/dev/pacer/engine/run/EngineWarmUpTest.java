package dev.pacer.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.RunClock;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's warm-up runs the engine off the record: the real op is never called, nothing it runs reaches the
 * real run's recorders, and the real limiter (made when the run starts) grants exactly the run's ops.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EngineWarmUpTest {

    static final Duration BOUND = Duration.ofMillis(600);

    /** A synchronous op that counts its calls. */
    static final class Counting implements Op {
        final AtomicLong calls = new AtomicLong();

        @Override
        public Outcome run(long cycle) {
            calls.incrementAndGet();
            return Outcome.OK;
        }
    }

    /** An asynchronous op that counts its starts and completes at once. */
    static final class CountingAsync implements AsyncOp {
        final AtomicLong calls = new AtomicLong();

        @Override
        public void start(long cycle, Completion completion) {
            calls.incrementAndGet();
            completion.complete(Outcome.OK);
        }

        @Override
        public int capacity() {
            return 7;
        }
    }

    static ActivityConfig config(String rate, int threads, long cycles) {
        return new ActivityConfig(OpSpec.parse("noop"), threads, false, rate == null ? null : RateSpec.parse(rate),
                null, cycles);
    }

    @Test
    void aWarmUpRunsStandInOpsNeverTheRealOneAndRecordsNothingOfTheRealRun() {
        Counting op = new Counting();
        Activity real = new Activity(config("20000", 2, 0), op, RunClock.system());
        EngineWarmUp.Result warm = EngineWarmUp.before(real, BOUND);
        assertNotNull(warm);
        assertTrue(warm.ops() > 0, "it ran stand-in ops: " + warm);
        assertTrue(warm.seconds() > 0 && warm.seconds() <= BOUND.toNanos() / 1e9 + 0.5, "within its bound: " + warm);
        assertEquals(0, op.calls.get(), "the real op is never called");
        assertEquals(0, real.metrics().drain(0, 1, 0, 1).ops(), "nothing reached the real run's recorders");
        assertNull(real.limiterSnapshot(), "the real limiter does not exist yet");
        assertTrue(real.isRunning(), "the real run is still to start");
    }

    @Test
    void theRunsSinksAreWrittenEveryPrivateIntervalSoTheirCodeIsCompiledBeforeTheClock() {
        Counting op = new Counting();
        Activity real = new Activity(config("20000", 1, 0), op, RunClock.system());
        List<IntervalReport> seen = new CopyOnWriteArrayList<>();
        EngineWarmUp.Result warm = EngineWarmUp.before(real, BOUND, List.of(seen::add));
        assertNotNull(warm);
        // at least four rounds, each with intervals (cut every 10 ms; a late reporter may merge some)
        assertTrue(seen.size() >= 4, "intervals the sink was given: " + seen.size());
        assertEquals(warm.ops(), seen.stream().mapToLong(r -> r.stats().ops()).sum(),
                "each stand-in op in one interval the sink saw");
        assertEquals(0, op.calls.get(), "the real op is never called");
        assertEquals(0, real.metrics().drain(0, 1, 0, 1).ops(), "nothing reached the real run's recorders");
    }

    @Test
    void anAsynchronousOpIsStoodInForByAnAsynchronousOpWithItsInFlightBound() {
        CountingAsync op = new CountingAsync();
        Activity real = new Activity(config("20000", 1, 0), op, RunClock.system());
        EngineWarmUp.Result warm = EngineWarmUp.before(real, BOUND);
        assertNotNull(warm);
        assertTrue(warm.ops() > 0, "it ran stand-in ops: " + warm);
        assertEquals(0, op.calls.get(), "the real op is never started");
        Set<Class<?>> kinds = new HashSet<>();
        for (int round = 0; round < 3; round++) {
            AsyncOp standIn = assertInstanceOf(AsyncOp.class,
                    EngineWarmUp.standIn(op, List.of(), round, Runnable::run));
            assertEquals(7, standIn.capacity());
            kinds.add(standIn.getClass());
        }
        assertEquals(3, kinds.size(), "three classes, so the worker's call of the op is not inlined for one");
    }

    /** A mix of three named ops, each cycle of the next. */
    static final class CountingMix implements AsyncOp, OpMix {
        final AtomicLong calls = new AtomicLong();

        @Override
        public void start(long cycle, Completion completion) {
            calls.incrementAndGet();
            completion.complete(Outcome.OK);
        }

        @Override
        public List<String> opNames() {
            return List.of("a", "b", "c");
        }

        @Override
        public int opOf(long cycle) {
            return (int) (cycle % 3);
        }
    }

    @Test
    void aMixIsStoodInForByAMixOfAsManyNamedOpsSoItsPerOpRecordingIsWarmedToo() {
        CountingMix op = new CountingMix();
        Activity real = new Activity(config("20000", 1, 0), op, RunClock.system());
        assertEquals(List.of("a", "b", "c"), real.opNames());
        for (int round = 0; round < 3; round++) {
            OpMix standIn = assertInstanceOf(OpMix.class,
                    EngineWarmUp.standIn(op, real.opNames(), round, Runnable::run));
            assertEquals(List.of("a", "b", "c"), standIn.opNames());
            assertEquals(List.of(0, 1, 2, 0),
                    List.of(standIn.opOf(0), standIn.opOf(1), standIn.opOf(2), standIn.opOf(3)));
        }
        OpMix plain = assertInstanceOf(OpMix.class,
                EngineWarmUp.standIn(new CountingAsync(), List.of(), 0, Runnable::run));
        assertEquals(OpMix.NO_OP, plain.opOf(5), "a plain op's stand-in names no op");
        EngineWarmUp.Result warm = EngineWarmUp.before(real, BOUND);
        assertNotNull(warm);
        assertEquals(0, op.calls.get(), "the real op is never started");
        IntervalStats nothing = real.metrics().drain(0, 1, 0, 1);
        assertEquals(0, nothing.ops() + nothing.op(0).ops(), "nothing reached the real run's recorders");
    }

    @Test
    void theRunAfterAWarmUpIsExactlyItsOwnItsLimiterGrantsOnlyItsOpsAndItsStartLineSaysSo() throws Exception {
        Counting op = new Counting();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        RunOptions options = RunOptions.builder(config("5000", 2, 1000)).engineWarmUp(BOUND).announce(true).build();
        LoadRun run = new LoadRun(options, op, new PrintStream(new ByteArrayOutputStream()), errStream);
        Summary summary = run.run();
        assertEquals(1000, summary.ops(), "the run's cycles, none of the warm-up's");
        assertEquals(1000, op.calls.get(), "the real op ran the run's ops only");
        assertEquals(1000, run.activity().limiterSnapshot().permitsGranted(),
                "the real limiter granted the run's ops and nothing else");
        String lines = err.toString(StandardCharsets.UTF_8);
        assertTrue(lines.matches("(?s).*pacer: engine warm-up \\S+ off the record \\([0-9,]+ stand-in ops\\).*"),
                lines);
    }

    @Test
    void aRunWritingAnHlogAndACsvAfterAWarmUpWritesOnlyItsOwnIntervalsThere(@TempDir Path dir) throws Exception {
        Counting op = new Counting();
        Path hlog = dir.resolve("run.hlog");
        Path csv = dir.resolve("run.csv");
        RunOptions options = RunOptions.builder(config("5000", 2, 1000)).engineWarmUp(BOUND)
                .interval(Duration.ofMillis(50)).hlog(hlog).csv(csv).build();
        Summary summary = new LoadRun(options, op, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())).run();
        assertEquals(1000, summary.ops());
        long logged = 0;
        try (var in = Files.newInputStream(hlog)) {
            HistogramLogReader reader = new HistogramLogReader(in);
            for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                if ("response".equals(h.getTag())) {
                    logged += ((Histogram) h).getTotalCount();
                }
            }
        }
        assertEquals(1000, logged, "the log's response histograms count the run's ops, none of the warm-up's");
        long rows = Files.readAllLines(csv).stream().skip(1).mapToLong(l -> Long.parseLong(l.split(",")[3])).sum();
        assertEquals(1000, rows, "the CSV's rows count the run's ops, none of the warm-up's");
    }

    @Test
    void aZeroBoundOrARunStoppedBeforeItsStartIsNoWarmUp() {
        Counting op = new Counting();
        assertNull(EngineWarmUp.before(new Activity(config("1000", 1, 0), op, RunClock.system()), Duration.ZERO));
        Activity stopped = new Activity(config(null, 1, 0), op, RunClock.system());
        stopped.stop(dev.pacer.engine.api.StopReason.SIGNAL, "test");
        assertNull(EngineWarmUp.before(stopped, BOUND));
        assertEquals(0, op.calls.get());
    }

    @Test
    void aStopDuringTheWarmUpEndsItAndItsLineSaysWhoStoppedItNotTheBoundOrTheJit() {
        Counting op = new Counting();
        Activity real = new Activity(config("20000", 1, 0), op, RunClock.system());
        // the run's Ctrl-C, as the signal handler makes it, at the warm-up's first interval
        EngineWarmUp.Result warm = EngineWarmUp.before(real, Duration.ofSeconds(30), List.of(r -> {
            if (real.isRunning()) {
                real.stop(dev.pacer.engine.api.StopReason.SIGNAL, "SIGINT");
            }
        }));
        assertNotNull(warm);
        assertEquals("SIGINT", warm.stoppedBy());
        assertTrue(!warm.settled(), warm.toString());
        assertTrue(warm.seconds() < 5, "the stop ended it, not its 30 s bound: " + warm);
        assertTrue(warm.startLine().endsWith(", stopped by SIGINT"), warm.startLine());
        assertTrue(new EngineWarmUp.Result(10, 1.5, false).startLine().endsWith(", stopped at its bound"));
        assertTrue(new EngineWarmUp.Result(10, 0.5, true).startLine().endsWith(", JIT settled"));
        assertEquals(0, op.calls.get());
    }

    @Test
    void aRateWhoseTenthIsBelowTheLeastRateIsWarmedAtItsRate() {
        Counting op = new Counting();
        Activity real = new Activity(config("1e-6", 1, 0), op, RunClock.system());
        EngineWarmUp.Result warm = EngineWarmUp.before(real, Duration.ofMillis(300));
        assertNotNull(warm);
        assertNull(EngineWarmUp.tenth(RateSpec.parse("1e-6")));
        assertEquals(0, op.calls.get());
    }

    @Test
    void anUnpacedRunIsWarmedUnpaced() {
        Counting op = new Counting();
        Activity real = new Activity(config(null, 1, 0), op, RunClock.system());
        EngineWarmUp.Result warm = EngineWarmUp.before(real, Duration.ofMillis(300));
        assertNotNull(warm);
        assertNull(EngineWarmUp.privateConfig(real.config(), null).rate());
        assertTrue(warm.ops() > 0, warm.toString());
        assertEquals(0, op.calls.get());
    }
}
