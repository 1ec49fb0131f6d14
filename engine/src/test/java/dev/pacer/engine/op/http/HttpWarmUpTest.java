package dev.pacer.engine.op.http;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.op.WarmUpDeadline;
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
    static long[] closedLoop(boolean settled, List<String> lines) throws Exception {
        return closedLoop(settled, lines, WarmUpDeadline.NONE);
    }

    /** As above, within {@code end}; also returns how long the whole warm-up took, ns, and the requests answered. */
    static long[] closedLoop(boolean settled, List<String> lines, WarmUpDeadline end) throws Exception {
        HttpRequestTemplate template = new HttpRequestTemplate("http://127.0.0.1:9/?c={cycle}", "GET", List.of(),
                (byte[]) null);
        HttpOutcomes outcomes = new HttpOutcomes(Set.of());
        long timeout = Duration.ofSeconds(2).toNanos();
        HttpTransport transport = new HttpTransport(1, Duration.ofSeconds(2), dev.pacer.engine.api.RunClock.system());
        try {
            HttpWarmUp warmUp = new HttpWarmUp(transport, template,
                    (t, a) -> new H1Pool(transport, t, outcomes, a, null, 4, timeout), false, () -> () -> settled);
            assertNull(warmUp.startLine(), "no line before it ran");
            long began = System.nanoTime();
            warmUp.run(end);
            long took = System.nanoTime() - began;
            lines.add(warmUp.startLine());
            return new long[] {warmUp.closedLoopRequests(), warmUp.closedLoopEndedNanos(), took, warmUp.answered()};
        } finally {
            transport.close();
        }
    }

    /**
     * Once the JIT has settled the closed loop ends soon after its least (the requests in flight and those of one
     * look's 100 ms still go); while it has not, the loop runs on to its count or its longest, whichever comes first.
     * The start line says which.
     */
    @Test
    void theClosedLoopEndsAfterItsLeastOnceTheJitHasSettledAndNotBefore() throws Exception {
        List<String> lines = new java.util.ArrayList<>();
        String line = "pacer: http client warm-up \\S+ against a private server \\([0-9,]+ requests; the closed loop ";
        long[] settled = closedLoop(true, lines);
        if (settled[1] < HttpWarmUp.DURATION.toNanos()) {
            assertTrue(settled[0] >= HttpWarmUp.MIN_REQUESTS, "at least the least: " + settled[0]);
            assertTrue(settled[0] < (HttpWarmUp.MIN_REQUESTS + HttpWarmUp.REQUESTS) / 2, "by its quiet: " + settled[0]);
            assertTrue(lines.get(0).matches(line + "ended once the JIT had settled\\)"), lines.get(0));
        } else { // a machine too loaded to send the least within the longest: that ends it
            assertTrue(lines.get(0).matches(line + "stopped at its \\S+ bound\\)"), lines.get(0));
        }
        long[] busy = closedLoop(false, lines);
        assertTrue(busy[0] >= HttpWarmUp.REQUESTS || busy[1] >= HttpWarmUp.DURATION.toNanos(),
                "to its count or its longest: " + busy[0] + " requests, " + busy[1] / 1_000_000 + " ms");
        assertTrue(lines.get(1).matches(line + "stopped at its (150,000 requests|\\S+ bound)\\)"), lines.get(1));
    }

    /**
     * A run that starts at an instant bounds its op's warm-up: with a JIT that never settles the closed loop would
     * run its 5 s; given 1.5 s it ends a paced round's second before it, the paced round and the JIT's wait end by
     * it, and the start line says so. Given nothing (the instant is near), only the connections' set-up is left.
     */
    @Test
    void aDeadlineEndsEveryRoundByItAndTheLineSaysSo() throws Exception {
        List<String> lines = new java.util.ArrayList<>();
        long[] bounded = closedLoop(false, lines, WarmUpDeadline.in(Duration.ofMillis(1500)));
        // the rounds end by the deadline; closing their connections and the server comes after. Unbounded, the closed
        // loop alone runs its 5 s: 4 s tells them apart with room for a loaded 2-core machine
        assertTrue(bounded[2] < Duration.ofMillis(4000).toNanos(), "the warm-up took " + bounded[2] / 1_000_000
                + " ms, given 1500");
        assertTrue(bounded[1] < Duration.ofMillis(1500).toNanos(), "the closed loop ended by the deadline less the "
                + "paced round's second: " + bounded[1] / 1_000_000 + " ms");
        assertTrue(bounded[3] > 0, "it warmed for what it had: " + bounded[3] + " answered");
        assertTrue(lines.get(0).endsWith("requests; " + HttpWarmUp.CUT + ")"), lines.get(0));
        long[] none = closedLoop(false, lines, WarmUpDeadline.in(Duration.ZERO));
        assertTrue(none[2] < Duration.ofMillis(3000).toNanos(), "took " + none[2] / 1_000_000 + " ms, given none");
        assertTrue(none[0] == 0 && none[3] == 0, "nothing sent: " + none[0] + ", " + none[3]);
        assertTrue(lines.get(1).endsWith("(0 requests; " + HttpWarmUp.CUT + ")"), lines.get(1));
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
