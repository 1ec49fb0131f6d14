package dev.pacer.engine.op.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The warm-up's private server answers the op's own request, whatever its size. */
@Timeout(120)
class HttpWarmUpTest {

    static long answered(boolean h2) throws Exception {
        // a 5 KB URL and a 9 KB header: over Netty's default 4 KB request line and 8 KB of headers (there every
        // request failed: 0 answered over h2c, 23 over HTTP/1.1; now hundreds even on a loaded 2-core machine)
        HttpRequestTemplate template = new HttpRequestTemplate("http://127.0.0.1:9/" + "p".repeat(5000) + "?c={cycle}",
                "GET", List.of("X-Big: " + "h".repeat(9000)), (byte[]) null);
        HttpOutcomes outcomes = new HttpOutcomes(Set.of());
        long timeout = Duration.ofSeconds(2).toNanos();
        HttpTransport transport = new HttpTransport(1, Duration.ofSeconds(2), dev.pacer.engine.api.RunClock.system());
        try {
            HttpWarmUp warmUp = new HttpWarmUp(transport, template, (t, a) -> h2
                    ? new H2Sender(transport, t, outcomes, a, null, 1, timeout)
                    : new H1Pool(transport, t, outcomes, a, null, 4, timeout), h2);
            warmUp.run();
            return warmUp.answered();
        } finally {
            transport.close();
        }
    }

    /** The closed loop's requests when the JIT's look says {@code settled} each time (a test's stand-in for it). */
    static long[] closedLoop(boolean settled) throws Exception {
        HttpRequestTemplate template = new HttpRequestTemplate("http://127.0.0.1:9/?c={cycle}", "GET", List.of(),
                (byte[]) null);
        HttpOutcomes outcomes = new HttpOutcomes(Set.of());
        long timeout = Duration.ofSeconds(2).toNanos();
        HttpTransport transport = new HttpTransport(1, Duration.ofSeconds(2), dev.pacer.engine.api.RunClock.system());
        try {
            HttpWarmUp warmUp = new HttpWarmUp(transport, template,
                    (t, a) -> new H1Pool(transport, t, outcomes, a, null, 4, timeout), false, () -> () -> settled);
            warmUp.run();
            return new long[] {warmUp.closedLoopRequests(), warmUp.closedLoopEndedNanos()};
        } finally {
            transport.close();
        }
    }

    /**
     * Once the JIT has settled the closed loop ends soon after its least (the requests in flight and those of one
     * look's 100 ms still go); while it has not, the loop runs on to its count or its longest, whichever comes first.
     */
    @Test
    void theClosedLoopEndsAfterItsLeastOnceTheJitHasSettledAndNotBefore() throws Exception {
        long settled = closedLoop(true)[0];
        assertTrue(settled >= HttpWarmUp.MIN_REQUESTS, "at least the least: " + settled);
        assertTrue(settled < (HttpWarmUp.MIN_REQUESTS + HttpWarmUp.REQUESTS) / 2, "ended by its quiet: " + settled);
        long[] busy = closedLoop(false);
        assertTrue(busy[0] > settled, "a busy JIT keeps it going: " + busy[0] + " against " + settled);
        assertTrue(busy[0] >= HttpWarmUp.REQUESTS || busy[1] >= HttpWarmUp.DURATION.toNanos(),
                "to its count or its longest: " + busy[0] + " requests, " + busy[1] / 1_000_000 + " ms");
    }

    @Test
    void aLongUrlAndALargeHeaderAreAnsweredInTheWarmUpOverHttp11() throws Exception {
        long n = answered(false);
        assertTrue(n > 100, "the private server answered the warm-up's requests: " + n);
    }

    @Test
    void aLongUrlAndALargeHeaderAreAnsweredInTheWarmUpOverH2() throws Exception {
        long n = answered(true);
        assertTrue(n > 100, "the private server answered the warm-up's requests: " + n);
    }
}
