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
