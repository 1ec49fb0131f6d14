package dev.pacer.engine.sink;

import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.api.Durations;
import dev.pacer.ratelimit.api.ParkingSleeper;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run says before it starts: one line for people, and its settings as a map for the log's header.
 * <pre>
 * pacer: sleep:1ms, 4 threads, rate 2000,0, park threshold 120us, for 10.0s
 * pacer: control endpoint http://127.0.0.1:7070 (GET /status; POST /rate ... /stop); console page
 *   http://127.0.0.1:7070/
 * </pre>
 */
public final class StartLines {

    private StartLines() {
    }

    /** The op, workers, rate and limits of a run. */
    public static String run(ActivityConfig a) {
        StringBuilder b = new StringBuilder("pacer: ").append(a.op()).append(", ").append(a.threads())
                .append(a.virtualThreads() ? " virtual" : "").append(a.threads() == 1 ? " thread" : " threads");
        if (a.rate() != null && !a.limiter().isAtomic()) {
            b.append(", rate ").append(java.math.BigDecimal.valueOf(a.rate().opsPerSecond()).stripTrailingZeros()
                    .toPlainString())
                    .append(", limiter ").append(a.limiter());
        } else if (a.rate() != null) {
            b.append(", rate ").append(a.rate()).append(", ").append(pacing(a));
        } else {
            b.append(", unpaced");
        }
        if (a.rate() != null && !a.limiter().isAtomic() && a.pacingTick() != null) {
            b.append(", ").append(pacing(a));
        }
        if (a.shard() != null) {
            b.append(", shard ").append(a.shard()).append(a.rate() == null ? ""
                    : String.format(java.util.Locale.ROOT, " (%.6g/s of it)",
                            a.shard().share(a.rate().opsPerSecond())));
        }
        if (a.startAt() != null) {
            b.append(", starting at ").append(a.startAt());
        }
        if (a.duration() != null) {
            b.append(", for ").append(Durations.format(a.duration()));
        }
        if (a.cycles() > 0) {
            b.append(", ").append(a.cycles()).append(" cycles");
        }
        if (a.duration() == null && a.cycles() == 0) {
            b.append(", until Ctrl-C");
        }
        return b.toString();
    }

    /** How finely workers wake for their slots: the pacing tick, or the calibrated park threshold. */
    private static String pacing(ActivityConfig a) {
        return a.pacingTick() != null ? "pacing tick " + Durations.format(a.pacingTick())
                : "park threshold " + Durations.format((double) ParkingSleeper.calibrated().parkThresholdNanos());
    }

    /** What the run's limiter does to its starting rate that its reader should know ("pacer: note: ..."), or null. */
    public static String caveat(ActivityConfig a) {
        if (a.rate() == null) {
            return null;
        }
        String c = a.limiter().rateCaveat(a.share(a.rate()));
        return c.isEmpty() ? null : "pacer: note: " + c;
    }

    /** Where the control endpoint listens, what it answers, and where its console page is. */
    public static String control(InetSocketAddress address) {
        String url = url(address);
        return "pacer: control endpoint " + url + " (GET /status; POST /rate /strictness /threads /pause /resume"
                + " /stop); console page " + url + "/";
    }

    /**
     * {@code http://HOST:PORT} for an address a server listens on: an IPv6 host in brackets, its wildcard as
     * {@code [::]} ({@code 0.0.0.0} stays as it is).
     */
    public static String url(InetSocketAddress address) {
        java.net.InetAddress ip = address.getAddress();
        String host = !(ip instanceof java.net.Inet6Address) ? address.getHostString()
                : "[" + (ip.isAnyLocalAddress() ? "::" : ip.isLoopbackAddress() ? "::1" : ip.getHostAddress()) + "]";
        return "http://" + host + ":" + address.getPort();
    }

    /** The run's settings by name, for the log's header (see {@code HlogComments}). */
    public static Map<String, Object> settings(ActivityConfig a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("op", a.op().toString());
        m.put("threads", a.threads());
        m.put("virtualThreads", a.virtualThreads());
        m.put("rate", a.rate() == null ? null : a.rate().toString());
        m.put("targetRate", a.rate() == null ? null : a.rate().opsPerSecond());
        m.put("strictness", a.rate() == null ? null : a.rate().strictness());
        m.put("limiter", a.rate() == null ? "unpaced" : (a.limiter().isAtomic()
                ? a.rate().mode().name().toLowerCase(java.util.Locale.ROOT) : a.limiter().toString())
                + ", " + pacing(a));
        m.put("limiterDesign", a.limiter().toString());
        m.put("maxInFlight", a.maxInFlight());
        m.put("duration", a.duration() == null ? null : Durations.format(a.duration()));
        m.put("cycles", a.cycles());
        m.put("arrivals", a.arrivals().toString());
        if (a.shard() != null) {
            m.put("shard", a.shard().toString()); // targetRate is the test's; this log's share is 1/count of it
        }
        if (a.startAt() != null) {
            m.put("startAt", a.startAt().toString());
        }
        return m;
    }
}
