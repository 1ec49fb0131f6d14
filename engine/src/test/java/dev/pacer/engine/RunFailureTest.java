package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.hlog.HlogFile;
import dev.pacer.engine.hlog.HlogReader;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.ManualRunClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a run does when an op or a listener fails in ways an exception handler does not expect. */
@Timeout(60)
class RunFailureTest {

    /** Throws a real StackOverflowError. */
    static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    @Test
    void anOpThatThrowsAnErrorIsRecordedAsThatErrorAndItsWorkerGoesOn() throws Exception {
        Op op = cycle -> {
            if (cycle % 50 == 7) {
                recurse(0);
            }
            if (cycle % 50 == 9) {
                throw new OutOfMemoryError("pretend");
            }
            return null;
        };
        Summary s = LoadTest.unpaced().threads(2).op(op).cycles(200).run().summary();
        assertEquals(200, s.ops(), "every call recorded, and both workers lived to the end");
        assertEquals(StopReason.CYCLES, s.stopReason());
        assertEquals(4L, s.errorsByType().get("StackOverflowError"));
        assertEquals(4L, s.errorsByType().get("OutOfMemoryError"));
        assertFalse(s.passed(), "8 errors in 200 calls is over the default 1 %");
    }

    @Test
    void anAsyncOpWhoseStartThrowsAnErrorIsRecordedAsThatError() throws Exception {
        AsyncOp op = (cycle, completion) -> {
            if (cycle % 10 == 0) {
                throw new StackOverflowError();
            }
            completion.complete(Outcome.OK);
        };
        Summary s = LoadTest.unpaced().op(op).cycles(100).run().summary();
        assertEquals(100, s.ops());
        assertEquals(10L, s.errorsByType().get("StackOverflowError"));
        assertEquals(StopReason.CYCLES, s.stopReason());
    }

    @Test
    void aStopWhileTheOpWarmsUpEndsItsWarmUpAtOnceAndNoOpRuns() throws Exception {
        java.util.concurrent.CountDownLatch warming = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<Throwable> ended =
                new java.util.concurrent.atomic.AtomicReference<>();
        AtomicLong calls = new AtomicLong();
        dev.pacer.engine.api.Op op = new dev.pacer.engine.api.Op() {
            @Override
            public dev.pacer.engine.api.Outcome run(long cycle) {
                calls.incrementAndGet();
                return null;
            }

            @Override
            public void warmUp() throws Exception {
                warming.countDown();
                try {
                    Thread.sleep(60_000); // an http client's closed loop, a pool filling: long, and interruptible
                } catch (InterruptedException e) {
                    ended.set(e);
                    throw e;
                }
            }
        };
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate(100).op(op).duration(Duration.ofSeconds(30)))
                .start();
        assertTrue(warming.await(10, java.util.concurrent.TimeUnit.SECONDS), "the op's warm-up began");
        running.signal("SIGINT");
        LoadTest.Result result = running.await(Duration.ofSeconds(10)); // the warm-up's 60 s would time this out
        assertTrue(ended.get() instanceof InterruptedException, "the warm-up was interrupted: " + ended.get());
        assertEquals(0, result.summary().ops(), "a run stopped before its start starts no op");
        assertEquals(0, calls.get());
    }

    @Test
    void anIntervalListenerThatThrowsEndsTheLoadBeforeAwaitThrows() throws Exception {
        ManualRunClock clock = new ManualRunClock();
        AtomicLong calls = new AtomicLong();
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate(100).threads(4).op(cycle -> {
            calls.incrementAndGet();
            return null;
        }).duration(Duration.ofSeconds(60)).onInterval(r -> {
            throw new IllegalStateException("listener broke");
        })).clock(clock).start();
        Exception e = assertThrows(IllegalStateException.class, () -> ManualClock.finish(clock, running));
        assertEquals("listener broke", e.getMessage());
        long atThrow = calls.get();
        // the slots of 0 .. 1 s; the one at 1 s is due with the cut that throws and may run or not
        assertTrue(atThrow == 100 || atThrow == 101, "the first interval's slots ran: " + atThrow);
        clock.advance(Duration.ofSeconds(10).toNanos());
        assertEquals(atThrow, calls.get(), "no op ran after await() threw");
    }

    @Test
    void anIntervalListenerThatThrowsLosesNoMeasuredOpFromAnyFileAndTheSummaryIsWritten(@TempDir Path dir)
            throws Exception {
        ManualRunClock clock = new ManualRunClock();
        Path hlog = dir.resolve("run.hlog");
        Path csv = dir.resolve("run.csv");
        Path json = dir.resolve("summary.json");
        AtomicLong calls = new AtomicLong();
        AtomicLong seen = new AtomicLong();
        java.util.List<Summary> finished = new java.util.concurrent.CopyOnWriteArrayList<>();
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate(500).op(cycle -> {
            calls.incrementAndGet();
            return null;
        }).duration(Duration.ofSeconds(2)).interval(Duration.ofMillis(200)).hlog(hlog).csv(csv).summaryJson(json)
                .onInterval(r -> {
                    if (seen.incrementAndGet() == 3) {
                        throw new IllegalStateException("listener broke");
                    }
                }).onFinish(finished::add)).clock(clock).start();
        Exception e = assertThrows(IllegalStateException.class, () -> ManualClock.finish(clock, running));
        assertEquals("listener broke", e.getMessage(), "await() still throws what the listener threw");
        assertEquals(3, seen.get(), "no interval listener is called after the throw");
        long ops = calls.get();
        assertTrue(ops >= 300 && ops <= 301, "the load stopped at the third interval: " + ops);
        long rows = java.nio.file.Files.readAllLines(csv).stream().skip(1)
                .mapToLong(l -> Long.parseLong(l.split(",")[3])).sum();
        assertEquals(ops, rows, "every op measured is in the CSV, the third interval's too");
        long logged = 0;
        try (var in = java.nio.file.Files.newInputStream(hlog)) {
            var reader = new org.HdrHistogram.HistogramLogReader(in);
            for (org.HdrHistogram.EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
                if ("response".equals(h.getTag())) {
                    logged += ((org.HdrHistogram.Histogram) h).getTotalCount();
                }
            }
        }
        assertEquals(ops, logged, "every op measured is in the log");
        var summary = dev.pacer.engine.text.Json.MAPPER.readTree(json.toFile());
        assertEquals(ops, summary.get("ops").asLong(), "the summary is written, with every op: " + summary);
        assertFalse(summary.get("passed").asBoolean());
        assertTrue(summary.get("failure").asText().contains("listener broke"), summary.get("failure").asText());
        assertEquals(1, finished.size(), "the finish listeners get the failed summary");
        assertEquals(ops, finished.get(0).ops());
    }

    @Test
    void aFinishListenerThatThrowsNeitherFailsTheRunNorKeepsTheSummaryFromTheOthers() throws Exception {
        java.util.List<Throwable> uncaught = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, x) -> uncaught.add(x));
        try {
            AtomicLong second = new AtomicLong();
            LoadTest.Result r = ManualClock.play(new ManualRunClock(), LoadTest.rate(500).op(cycle -> null).cycles(50)
                    .onFinish(s -> {
                        throw new IllegalStateException("finish listener broke");
                    }).onFinish(s -> second.addAndGet(s.ops())));
            assertEquals(50, r.summary().ops(), "the run's result is given");
            assertTrue(r.passed(), r.failure());
            assertEquals(50, second.get(), "the next listener got the summary");
            assertEquals(1, uncaught.size(), "what it threw went to the uncaught-exception handler: " + uncaught);
            assertEquals("finish listener broke", uncaught.get(0).getMessage());
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @Test
    void aChangeListenerThatThrowsDoesNotFailTheChangeWhichIsLogged(@TempDir Path dir) throws Exception {
        ManualRunClock clock = new ManualRunClock();
        Path hlog = dir.resolve("run.hlog");
        LoadTest.Running running = PoissonRunTest.quiet(LoadTest.rate(100).op(cycle -> null)
                .duration(Duration.ofSeconds(3)).hlog(hlog).onChange(c -> {
                    throw new IllegalStateException("listener broke");
                })).clock(clock).start();
        clock.advanceTo(clock.nanoTime() + 1_500_000_000L);
        assertEquals(ChangeKind.RATE, assertDoesNotThrow(() -> running.rate("200")).kind());
        Summary s = ManualClock.finish(clock, running).summary();
        assertTrue(s.ops() > 400, "1.5 s at 100/s, then 1.5 s at 200/s: " + s.ops());
        HlogFile log = HlogReader.read(hlog);
        assertTrue(log.markers().stream().anyMatch(m -> m.kind() == ChangeKind.RATE && m.value().startsWith("200")),
                "the change is in the log: " + log.markers());
    }

    @Test
    void aSecondCompletionOfOneOpIsIgnored() throws Exception {
        AsyncOp twice = (cycle, completion) -> {
            completion.complete(Outcome.OK);
            completion.complete(Outcome.OK);
        };
        CompletableFuture<Summary> s = CompletableFuture.supplyAsync(() -> {
            try {
                return LoadTest.unpaced().op(twice).maxInFlight(4).cycles(1_000).run().summary();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Summary summary = s.get();
        assertEquals(1_000, summary.ops(), "each op counted once");
        assertEquals(0, summary.errors());
    }
}
