package dev.pacer.engine.api;

import dev.pacer.engine.sink.ProgressLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.metrics.MetricsRegistry;
import dev.pacer.engine.metrics.WorkerMetrics;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live status block and the progress line, from intervals made the way the reporter makes them. */
class StatusBlockTest {

    /** A one-second interval of {@code ops} ops, each waiting {@code waitNanos} and taking {@code serviceNanos}. */
    static IntervalReport interval(double elapsed, long ops, long waitNanos, long serviceNanos, double target,
                                   String phase, Outcome outcome) {
        MetricsRegistry registry = new MetricsRegistry();
        WorkerMetrics m = registry.attach(false);
        for (long i = 0; i < ops; i++) {
            m.record(waitNanos, serviceNanos, outcome);
        }
        long end = (long) (elapsed * 1e9);
        IntervalStats stats = registry.drain(end - 1_000_000_000L, end, 0, 1000);
        return new IntervalReport(stats, elapsed, target > 0 ? RateSpec.of(target) : null, target > 0 ? target
                : Double.NaN,
                2, phase, false, false, 0, ops, elapsed, stats.errors());
    }

    static StatusBlock.Facts facts(int threads, int inFlight, int capacity, double cpu) {
        return new StatusBlock.Facts("sleep:1ms", threads, inFlight, capacity, RateSpec.of(2000), false,
                Duration.ofSeconds(30), 0, cpu, 2);
    }

    @Test
    void fallingBehindWithTooFewThreadsSaysHowManyAreNeeded() {
        StatusBlock b = new StatusBlock();
        b.update(interval(1, 1800, 50_000_000, 1_100_000, 2000, null, Outcome.OK), facts(2, 0, 0, 0.5));
        b.update(interval(2, 1800, 150_000_000, 1_100_000, 2000, null, Outcome.OK), facts(2, 0, 0, 0.5));
        List<String> lines = b.render(100);
        String warning = lines.get(lines.size() - 1);
        assertTrue(warning.startsWith("! behind: wait is growing. Too few threads"), warning);
        assertTrue(warning.contains("needs about 3 (have 2)"), warning);
    }

    @Test
    void theCauseIsTheInFlightBoundOrTheCpuWhenThreadsAreNotShort() {
        IntervalReport first = interval(1, 1500, 50_000_000, 10_000, 2000, null, Outcome.OK);
        IntervalReport second = interval(2, 1500, 90_000_000, 10_000, 2000, null, Outcome.OK);
        assertTrue(StatusBlock.behind(second, facts(1, 64, 64, 0.2), 90_000_000, 50_000_000).contains("in-flight bound "
                + "(64)"));
        assertTrue(StatusBlock.behind(second, facts(8, 0, 0, 1.9), 90_000_000, 50_000_000).contains("1.9 of 2 cores"));
        assertNull(StatusBlock.behind(second, facts(8, 0, 0, 1.9), 90_000_000, 120_000_000), "wait not growing: no "
                + "warning");
        assertNull(StatusBlock.behind(interval(1, 1990, 50_000_000, 10_000, 2000, null, Outcome.OK), facts(8, 0, 0,
                1.9),
                90_000_000, 50_000_000), "99.5 % of target: keeping up");
        assertTrue(first.rate() > 0);
    }

    @Test
    void everyLineFitsTheTerminal() {
        StatusBlock b = new StatusBlock();
        b.update(interval(5, 2000, 12_000, 1_000_000, 2000, "a-phase-with-a-rather-long-name", Outcome.OK),
                facts(2, 0, 0, 0.5));
        for (int width : new int[] {40, 80, 100, 200}) {
            for (String line : b.render(width)) {
                assertTrue(line.length() <= width, width + ": " + line);
            }
        }
        assertTrue(b.render(100).get(1).contains("5.00s of 30.0s  25.0s left"), b.render(100).get(1));
    }

    @Test
    void aProgressLineStaysUnder120CharactersWhateverItCarries() {
        Outcome[] outcomes = {Outcome.of("unexpected-5xx", true), Outcome.of("timeout", true), Outcome.of("refused",
                true)};
        for (Outcome o : outcomes) {
            String line = ProgressLine.format(interval(123456, 99_999, 1_234_567_890, 987_654_321, 1_500_000,
                    "a-phase-with-a-rather-long-name", o));
            assertTrue(line.length() < ProgressLine.MAX_WIDTH, line.length() + ": " + line);
        }
        String plain = ProgressLine.format(interval(5, 2000, 12_000, 1_000_000, 2000, null, Outcome.OK));
        assertEquals("[    5.0s] 2000 ops  2000/s of 2000  wait 12.0us/12.0us/12.0us  resp 1.01ms/1.01ms/1.01ms  err 0",
                plain);
        // an http op's 2xx is no error: it comes before them, where it cannot read as an error type
        String http = ProgressLine.format(interval(5, 2000, 12_000, 1_000_000, 2000, null, Outcome.of("2xx", false)));
        assertTrue(http.endsWith("resp 1.01ms/1.01ms/1.01ms  2xx 2000  err 0"), http);
        // ops that finished after the end: a rate of them would mean nothing
        IntervalReport r = interval(4, 1, 0, 3_970_000, 10, null, Outcome.OK);
        IntervalReport drain = new IntervalReport(r.stats(), 4, null, Double.NaN, 2, null, false, true, 0, 1, 3, 0);
        assertEquals("[    4.0s after end] 1 ops finished  wait 0ns/0ns/0ns  resp 3.97ms/3.97ms/3.97ms  err 0",
                ProgressLine.format(drain));
    }
}
