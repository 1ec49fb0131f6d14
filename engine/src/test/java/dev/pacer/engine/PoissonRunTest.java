package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.ratelimit.api.Arrivals;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Poisson arrivals in real runs: the rate holds, and the queueing they cause shows. */
class PoissonRunTest {

    static LoadTest quiet(LoadTest t) {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        return t.output(sink, sink).progress(false).announce(false);
    }

    @Test
    void aPoissonRunAt1000PerSecondFor20SecondsHoldsItsRate() throws Exception {
        // on the manual clock: the arrivals' own noise is what is measured, not the machine's stalls
        LoadTest.Result r = ManualClock.play(new ManualRunClock(), LoadTest.rate("1000").arrivals(Arrivals.POISSON)
                .seed(20261123).threads(2).op("noop").duration(Duration.ofSeconds(20)));
        assertEquals(20_000, r.summary().ops(), 400, "within 2 % of 1 000/s for 20 s");
    }

    /**
     * Against a server of 4 workers × 10 ms (400 req/s) at 300 req/s: a metronome never finds all four
     * busy, so its response p99 is about the service time; Poisson arrivals bunch up and queue.
     */
    @Test
    void poissonArrivalsShowTheQueueingThatAMetronomeHides() throws Exception {
        CapacityServer.assumeQuietMachine();
        try (CapacityServer server = new CapacityServer(4, 10)) {
            // a first run, thrown away: the engine's and the server's code compile during it (the first
            // ~100 ms of a cold JVM start tens of ms late, enough to decide a p99 of 2 400 requests)
            response(server, Arrivals.UNIFORM, Duration.ofSeconds(3));
            Histogram uniform = response(server, Arrivals.UNIFORM);
            Histogram poisson = response(server, Arrivals.POISSON);
            System.out.printf("response p90/p99 at 300 req/s against 400 req/s of capacity: uniform %.2f/%.2f ms,"
                            + " poisson %.2f/%.2f ms%n", uniform.getValueAtPercentile(90) / 1e6,
                    uniform.getValueAtPercentile(99) / 1e6, poisson.getValueAtPercentile(90) / 1e6,
                    poisson.getValueAtPercentile(99) / 1e6);
            // p90, not p99: a stall of the loaded test machine (hundreds of ms) reaches a few % of either run
            // and would decide a p99, while the queueing Poisson arrivals cause moves the p90 already
            long u = uniform.getValueAtPercentile(90);
            long p = poisson.getValueAtPercentile(90);
            assertTrue(p > u * 1.2, "Poisson p90 " + p + " ns vs uniform " + u + " ns");
        }
    }

    static Histogram response(CapacityServer server, Arrivals arrivals) throws Exception {
        return response(server, arrivals, Duration.ofSeconds(8));
    }

    static Histogram response(CapacityServer server, Arrivals arrivals, Duration duration) throws Exception {
        LoadTest.Result r = quiet(LoadTest.rate("300").arrivals(arrivals).seed(7).threads(32)
                .op(dev.pacer.engine.api.OpSpec.parse("http", Map.of("url", List.of(server.url()))))
                .duration(duration)).run();
        assertEquals(0, r.summary().errors(), "no errors");
        return r.histogram(Metric.RESPONSE);
    }
}
