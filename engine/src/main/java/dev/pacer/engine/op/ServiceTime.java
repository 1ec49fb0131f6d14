package dev.pacer.engine.op;

import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.api.Durations;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A distribution of service times for the synthetic ops: {@code 2ms} (fixed),
 * {@code uniform(1ms,5ms)}, {@code exp(2ms)} (exponential with that mean). Thread-safe; draws use
 * {@link ThreadLocalRandom} and allocate nothing.
 */
public abstract sealed class ServiceTime {

    private static final Pattern CALL = Pattern.compile("(\\w+)\\((.*)\\)");

    private ServiceTime() {
    }

    /** Draws one service time in nanoseconds. */
    public abstract long nextNanos();

    /** The mean in nanoseconds. */
    public abstract double meanNanos();

    /**
     * Parses a distribution.
     *
     * @param op names the op in error messages, e.g. {@code sleep}
     */
    public static ServiceTime parse(String text, String op) {
        String t = text.trim();
        if (t.isEmpty()) {
            throw new SettingException("op", op, "needs a duration, e.g. " + op + ":2ms, " + op + ":uniform(1ms,5ms) "
                    + "or "
                    + op + ":exp(2ms)");
        }
        Matcher m = CALL.matcher(t);
        if (!m.matches()) {
            return new Fixed(duration(op, t, t));
        }
        String[] args = m.group(2).split(",", -1);
        return switch (m.group(1)) {
            case "uniform" -> {
                if (args.length != 2) {
                    throw new SettingException("op", op + ":" + t, "uniform takes two durations, e.g. "
                            + "uniform(1ms,5ms)");
                }
                long lo = duration(op, t, args[0]);
                long hi = duration(op, t, args[1]);
                if (hi < lo) {
                    throw new SettingException("op", op + ":" + t, "the upper bound is below the lower one");
                }
                yield new Uniform(lo, hi);
            }
            case "exp" -> {
                if (args.length != 1) {
                    throw new SettingException("op", op + ":" + t, "exp takes one mean duration, e.g. exp(2ms)");
                }
                yield new Exponential(duration(op, t, args[0]));
            }
            default -> throw new SettingException("op", op + ":" + t,
                    "unknown distribution '" + m.group(1) + "' (fixed duration, uniform(a,b) or exp(mean))");
        };
    }

    /** One duration of a distribution; a bad one is reported against the whole op spec. */
    private static long duration(String op, String spec, String text) {
        try {
            return Durations.parse(text, "op").toNanos();
        } catch (SettingException e) {
            throw new SettingException("op", op + ":" + spec, "'" + text.strip() + "': " + e.reason());
        }
    }

    static final class Fixed extends ServiceTime {
        private final long nanos;

        Fixed(long nanos) {
            this.nanos = nanos;
        }

        @Override
        public long nextNanos() {
            return nanos;
        }

        @Override
        public double meanNanos() {
            return nanos;
        }

        @Override
        public String toString() {
            return Durations.format(Duration.ofNanos(nanos));
        }
    }

    static final class Uniform extends ServiceTime {
        private final long lo;
        private final long hi;

        Uniform(long lo, long hi) {
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        public long nextNanos() {
            return lo == hi ? lo : ThreadLocalRandom.current().nextLong(lo, hi + 1);
        }

        @Override
        public double meanNanos() {
            return (lo + hi) / 2.0;
        }

        @Override
        public String toString() {
            return "uniform(" + Durations.format((double) lo) + "," + Durations.format((double) hi) + ")";
        }
    }

    static final class Exponential extends ServiceTime {
        private final long mean;

        Exponential(long mean) {
            this.mean = mean;
        }

        @Override
        public long nextNanos() {
            // inverse CDF; 1 - u is in (0, 1], so the log is finite
            return (long) (-mean * Math.log(1.0 - ThreadLocalRandom.current().nextDouble()));
        }

        @Override
        public double meanNanos() {
            return mean;
        }

        @Override
        public String toString() {
            return "exp(" + Durations.format((double) mean) + ")";
        }
    }
}
