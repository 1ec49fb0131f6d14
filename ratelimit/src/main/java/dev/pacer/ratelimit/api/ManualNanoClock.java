package dev.pacer.ratelimit.api;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link NanoClock} that moves only when told to: the synthetic clock of deterministic tests.
 *
 * <p>Thread-safe: any thread may read or advance it. Time never goes backwards.
 */
public final class ManualNanoClock implements NanoClock {

    private final AtomicLong now;

    public ManualNanoClock(long startNanos) {
        this.now = new AtomicLong(startNanos);
    }

    public ManualNanoClock() {
        this(1_000_000_000L);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    /** Moves the clock forward by {@code nanos} (≥ 0) and returns the new time. */
    public long advance(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a clock cannot go back: advance(" + nanos + ")");
        }
        return now.addAndGet(nanos);
    }

    /** Moves the clock to {@code nanos}, which must not be before the current time. */
    public void set(long nanos) {
        long current = now.get();
        if (nanos < current) {
            throw new IllegalArgumentException("a clock cannot go back: set(" + nanos + ") < " + current);
        }
        now.set(nanos);
    }
}
