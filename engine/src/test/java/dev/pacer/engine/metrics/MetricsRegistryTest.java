package dev.pacer.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.op.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Recording races draining: every op lands whole in exactly one interval. */
class MetricsRegistryTest {

    static final Outcome OK = Outcome.OK;
    static final Outcome FAILED = Outcome.of("test-failure", true);
    static final int DRAINS = 50;

    /**
     * Writers record until the reporter has drained {@value #DRAINS} times; each drained interval must
     * agree with itself (as many waits, services and responses as outcomes) and the intervals must add
     * up to what was written.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void eachOpLandsWholeInOneIntervalWhileDrainsRace(boolean shared) throws Exception {
        MetricsRegistry registry = new MetricsRegistry();
        int writers = 3;
        AtomicInteger drains = new AtomicInteger();
        AtomicLong written = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < writers; t++) {
            WorkerMetrics m = registry.attach(shared);
            threads.add(Thread.ofPlatform().start(() -> {
                long n = 0;
                long f = 0;
                while (drains.get() < DRAINS) {
                    boolean fail = n % 7 == 0;
                    m.record(n & 1023, 10, fail ? FAILED : OK);
                    n++;
                    f += fail ? 1 : 0;
                }
                written.addAndGet(n);
                failed.addAndGet(f);
                registry.detach(m);
            }));
        }
        long ops = 0;
        long errors = 0;
        while (drains.get() < DRAINS) {
            IntervalStats s = registry.drain(0, 1, 0, 1);
            long outcomes = s.outcomes().values().stream().mapToLong(Long::longValue).sum();
            assertEquals(s.ops(), s.histogram(Metric.WAIT).getTotalCount(), "waits = ops in drain " + drains);
            assertEquals(s.ops(), s.histogram(Metric.SERVICE).getTotalCount(), "services = ops in drain " + drains);
            assertEquals(s.ops(), outcomes, "outcomes = ops in drain " + drains);
            ops += s.ops();
            errors += s.errors();
            drains.incrementAndGet();
        }
        for (Thread t : threads) {
            t.join();
        }
        IntervalStats last = registry.drain(0, 1, 0, 1);
        ops += last.ops();
        errors += last.errors();
        assertEquals(written.get(), ops, "every op counted once over " + DRAINS + " drains");
        assertEquals(failed.get(), errors);
    }

    @Test
    void completionsRacingCancellationsRecordEachOpOnce() throws Exception {
        MetricsRegistry registry = new MetricsRegistry();
        WorkerMetrics m = registry.attach(true);
        int n = 200_000;
        InFlightOp[] ops = new InFlightOp[n];
        for (int i = 0; i < n; i++) {
            ops[i] = new InFlightOp();
            ops[i].begin(i, i + 10);
        }
        registry.close();
        registry.drain(0, 1, 0, 1); // the flip after close: from here completions claim their op
        CyclicBarrier go = new CyclicBarrier(2);
        Thread completer = Thread.ofPlatform().start(() -> {
            await(go);
            for (int i = 0; i < n; i++) {
                m.complete(ops[i], i + 20, OK);
            }
        });
        await(go);
        long cancelled = 0;
        for (int i = n - 1; i >= 0; i--) { // from the other end: the two meet somewhere in the middle
            cancelled += registry.cancel(ops[i], i + 30) ? 1 : 0;
        }
        completer.join();
        IntervalStats s = registry.drain(1, 2, 1, 2);
        assertEquals(n, s.ops(), "every op recorded exactly once");
        assertEquals(cancelled, s.outcomes().getOrDefault(Outcome.CANCELLED, 0L));
        assertEquals(n - cancelled, s.outcomes().getOrDefault(OK, 0L));
        for (InFlightOp op : ops) {
            assertTrue(!op.running());
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anIntervalKeepsTheTimesOfItsOps() {
        MetricsRegistry registry = new MetricsRegistry();
        WorkerMetrics m = registry.attach(false);
        m.record(1_000, 2_000, OK);
        m.record(-5, 7, OK); // a clock that went backwards is clamped, never an exception
        IntervalStats s = registry.drain(0, 1, 0, 1);
        assertEquals(2, s.ops());
        assertEquals(3_000, s.histogram(Metric.RESPONSE).getMaxValue(), 3_000 / 1000);
        assertEquals(0, s.histogram(Metric.WAIT).getMinValue());
        assertEquals(0, registry.drain(1, 2, 1, 2).ops(), "drained once");
    }

}
