package dev.pacer.engine.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The line a run starts with names its limiter, and a note says what the design does to the rate. */
class StartLinesTest {

    static ActivityConfig config(String rate, String design) {
        return new ActivityConfig(OpSpec.parse("noop"), 1, false, RateSpec.parse(rate), Duration.ofSeconds(2), 0, 0,
                Arrivals.UNIFORM, null, null, null, LimiterDesign.parse(design));
    }

    @Test
    void aFamilyDesignIsNamedInsteadOfTheAtomicLimitersStrictnessAndParkThreshold() {
        assertEquals("pacer: noop, 1 thread, rate 100, limiter leaky:queue=5, for 2.00s", StartLines.run(config("100",
                "leaky:queue=5")));
        assertTrue(StartLines.run(config("100", "atomic")).startsWith("pacer: noop, 1 thread, rate 100,0, park "
                + "threshold "));
    }

    @Test
    void aWindowsRoundedQuotaIsSaid() {
        assertEquals("pacer: note: fixed-window lets 1 per 1s window where 0.1 ops/s is 0.1: 1000 % of the rate;"
                + " window=10s holds it (1 per window)", StartLines.caveat(config("0.1", "fixed-window")));
        assertNull(StartLines.caveat(config("1000", "fixed-window")));
        assertNull(StartLines.caveat(config("0.1", "atomic")));
    }

    @Test
    void aListeningAddressIsAUrlWithAnIpv6HostInBrackets() throws Exception {
        assertEquals("http://127.0.0.1:7070", StartLines.url(new java.net.InetSocketAddress("127.0.0.1", 7070)));
        assertEquals("http://0.0.0.0:7070", StartLines.url(new java.net.InetSocketAddress("0.0.0.0", 7070)));
        assertEquals("http://[::]:7070", StartLines.url(new java.net.InetSocketAddress("::", 7070)));
        assertEquals("http://[::1]:7070", StartLines.url(new java.net.InetSocketAddress("::1", 7070)));
        assertEquals("http://[fe80:0:0:0:0:0:0:1]:7070", StartLines.url(new java.net.InetSocketAddress(
                java.net.InetAddress.getByName("fe80::1"), 7070)));
        assertTrue(StartLines.control(new java.net.InetSocketAddress("::", 7070)).startsWith(
                "pacer: control endpoint http://[::]:7070 ("), "not http://0:0:0:0:0:0:0:0:7070");
    }
}
