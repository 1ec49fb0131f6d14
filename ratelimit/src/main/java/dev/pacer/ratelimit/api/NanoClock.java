package dev.pacer.ratelimit.api;

/**
 * A source of monotonic nanosecond time, on the same scale as {@link System#nanoTime()}.
 *
 * <p>The limiter reads its clock only on its slow path (when a caller may be early); injecting a
 * {@link ManualNanoClock} makes every limiter decision deterministic in tests.
 */
@FunctionalInterface
public interface NanoClock {

    /** The current time in nanoseconds; only differences between two readings are meaningful. */
    long nanoTime();

    /** The JVM's monotonic clock, {@link System#nanoTime()}. */
    static NanoClock system() {
        return SystemNanoClock.INSTANCE;
    }
}
