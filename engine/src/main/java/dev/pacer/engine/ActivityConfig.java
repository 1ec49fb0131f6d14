package dev.pacer.engine;

import dev.pacer.engine.op.OpSpec;
import dev.pacer.ratelimit.RateSpec;
import java.time.Duration;
import java.util.Objects;

/**
 * What an activity runs: the op, how many workers, at what rate, for how long.
 *
 * @param op             the op to run
 * @param threads        workers at start, 1 .. {@link #maxThreads(boolean)}
 * @param virtualThreads run workers as virtual threads
 * @param rate           the target rate, or null for unpaced (as fast as the workers go)
 * @param duration       stop after this long, or null
 * @param cycles         stop after this many ops, or 0 for no limit
 */
public record ActivityConfig(OpSpec op, int threads, boolean virtualThreads, RateSpec rate, Duration duration,
                             long cycles) {

    /** Platform threads are real OS threads: more than this is a mistake on any machine. */
    public static final int MAX_PLATFORM_THREADS = 4_096;
    /** Virtual threads are cheap, but each holds a grant and a stack: bounded all the same. */
    public static final int MAX_VIRTUAL_THREADS = 100_000;

    public ActivityConfig {
        Objects.requireNonNull(op, "op");
        checkThreads(threads, virtualThreads, "--threads");
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new IllegalArgumentException("invalid --duration '" + Durations.format(duration) + "': must be greater than 0");
        }
        if (cycles < 0) {
            throw new IllegalArgumentException("invalid --cycles '" + cycles + "': must not be negative");
        }
    }

    public static int maxThreads(boolean virtualThreads) {
        return virtualThreads ? MAX_VIRTUAL_THREADS : MAX_PLATFORM_THREADS;
    }

    /** Rejects a thread count with one line naming it. */
    public static void checkThreads(int threads, boolean virtualThreads, String what) {
        int max = maxThreads(virtualThreads);
        if (threads < 1 || threads > max) {
            throw new IllegalArgumentException("invalid " + what + " '" + threads + "': must be between 1 and " + max
                    + (virtualThreads ? " (virtual threads)" : " (platform threads; --virtual allows more)"));
        }
    }

    public ActivityConfig withRate(RateSpec newRate) {
        return new ActivityConfig(op, threads, virtualThreads, newRate, duration, cycles);
    }
}
