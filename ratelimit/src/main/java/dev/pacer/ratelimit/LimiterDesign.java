package dev.pacer.ratelimit;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateOutOfReachException;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import dev.pacer.ratelimit.family.DesignOptions;
import dev.pacer.ratelimit.family.Designs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which limiter design paces a run, and its settings: {@code NAME} or {@code NAME:key=value,key=value},
 * as {@code pacer run --limiter} and a scenario's {@code limiter:} take it. The rate always comes from
 * the run's rate spec; the options shape how the design lets it through (a bucket's size, a warm-up
 * period...). See {@link #NAMES} for the designs and each class for its options.
 *
 * <pre>{@code
 * RateLimiter l = RateLimiters.builder(RateSpec.of(1000))
 *         .design(LimiterDesign.parse("leaky:queue=50"))
 *         .clock(clock).sleeper(new ManualSleeper(clock)).build();
 * }</pre>
 *
 * @param name    the design, one of {@link #NAMES}
 * @param options its settings as written, in order; checked by the design when it is built
 */
public record LimiterDesign(String name, Map<String, String> options) {

    /** Every design {@link #build} knows, in the order docs/limiters.md and the comparison list them. */
    public static final List<String> NAMES = List.of("atomic", "tokenpool", "bucket", "warmup", "bursty", "bandwidths",
            "leaky", "fixed-window", "sliding-log", "sliding-window");

    /** The default: the lock-free atomic-nanos limiter. */
    public static final LimiterDesign ATOMIC = new LimiterDesign("atomic", Map.of());

    private static final Pattern OPTION = Pattern.compile("([a-z][a-z0-9-]*)=([^,=]+)");

    /** One option of each design that has any, for messages. */
    private static final Map<String, String> EXAMPLES = Map.of("tokenpool", "tokenpool:pool=10ms",
            "bucket", "bucket:size=100", "warmup", "warmup:period=10s", "bursty", "bursty:max-burst=1s",
            "bandwidths", "bandwidths:capacity=100", "leaky", "leaky:queue=100",
            "fixed-window", "fixed-window:window=1s", "sliding-log", "sliding-log:window=1s",
            "sliding-window", "sliding-window:window=1s");

    public LimiterDesign {
        checkName(name);
        options = Map.copyOf(new LinkedHashMap<>(options));
    }

    /**
     * Parses {@code NAME} or {@code NAME:key=value,...} and checks the options (by building the design once at
     * 1 op/s); a bad name or option gives a message naming it. Options that are bad only at some rates
     * ({@link RateOutOfReachException}) pass here and are refused by {@link #check} at the run's rate.
     */
    public static LimiterDesign parse(String text) {
        String t = text.strip();
        int colon = t.indexOf(':');
        String name = (colon < 0 ? t : t.substring(0, colon)).strip().toLowerCase(Locale.ROOT);
        checkName(name); // before the options, whose messages give an example of the design's own
        Map<String, String> options = new LinkedHashMap<>();
        if (colon >= 0) {
            for (String part : t.substring(colon + 1).split(",", -1)) {
                Matcher m = OPTION.matcher(part.strip());
                if (!m.matches()) {
                    String p = part.strip();
                    String why = p.endsWith("=") ? "has no value"
                            : OPTION.matcher(p.toLowerCase(Locale.ROOT)).matches() ? "keys are lower case"
                            : "expected key=value";
                    throw new IllegalArgumentException("limiter option '" + p + "' in '" + text + "': " + why
                            + (EXAMPLES.containsKey(name) ? ", e.g. " + EXAMPLES.get(name)
                                    : "; the atomic limiter takes none"));
                }
                if (options.put(m.group(1), m.group(2).strip()) != null) {
                    throw new IllegalArgumentException("limiter option '" + m.group(1) + "' given twice in '" + text
                            + "'");
                }
            }
        }
        LimiterDesign design = new LimiterDesign(name, options);
        try {
            design.check(RateSpec.of(1));
        } catch (RateOutOfReachException e) {
            // fine at some rates: judged at the run's own (check), before anything runs
        }
        return design;
    }

    private static void checkName(String name) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("unknown limiter '" + name + "': one of " + String.join(", ", NAMES));
        }
    }

    /**
     * Checks this design's options at {@code spec} by building it once on the system clock (nothing waits):
     * a bad option, or one that is bad only at this rate (a bucket that would take a century to refill, a
     * window too short for one op), gives the message naming it. The atomic limiter takes no options.
     */
    public void check(RateSpec spec) {
        if (isAtomic()) {
            typed().only(Set.of());
        } else {
            build(spec, NanoClock.system(), CHECK_ONLY, null);
        }
    }

    /**
     * What this design does to {@code spec}'s rate that the run's reader should know, or "": a window design lets a
     * whole number of permits through per window (rate × window rounded, at least 1), so at 0.1 ops/s over 1 s it
     * lets 1 per second. Says by how much, and a window that holds the rate.
     */
    public String rateCaveat(RateSpec spec) {
        return Designs.rateCaveat(typed(), spec, toString());
    }

    /** Waits for nothing: for the throwaway limiter {@link #parse} builds to check options. */
    private static final Sleeper CHECK_ONLY = new Sleeper() {
        @Override
        public void park(long nanos) {
        }

        @Override
        public long parkThresholdNanos() {
            return 0;
        }

        @Override
        public long parkOvershootNanos() {
            return 0;
        }
    };

    /** Whether this is the default atomic limiter. */
    public boolean isAtomic() {
        return name.equals("atomic");
    }

    /**
     * Builds this design at {@code spec} on {@code clock}, waiting with {@code sleeper}, opening at {@code origin}
     * (null: now).
     */
    RateLimiter build(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin) {
        if (isAtomic()) {
            throw new IllegalStateException(name + " is built by RateLimiters.Builder");
        }
        return Designs.build(typed(), spec, clock, sleeper, origin);
    }

    @Override
    public String toString() {
        if (options.isEmpty()) {
            return name;
        }
        List<String> parts = new ArrayList<>();
        options.forEach((k, v) -> parts.add(k + "=" + v));
        return name + ":" + String.join(",", parts);
    }

    /** This design's options, typed; each getter names the design, the key and the value it cannot read. */
    DesignOptions typed() {
        return new DesignOptions(name, options);
    }
}
