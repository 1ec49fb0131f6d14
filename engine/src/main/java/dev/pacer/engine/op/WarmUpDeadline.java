package dev.pacer.engine.op;

import dev.pacer.engine.api.RunClock;
import java.time.Duration;

/**
 * When an op's warm-up must end ({@link dev.pacer.engine.api.Op#warmUp(Duration)}): before a run's start-at instant,
 * or never. Real time, whatever the run's clock, as the warm-ups are. Immutable.
 */
public final class WarmUpDeadline {

    private static final RunClock REAL = RunClock.system();
    /** No bound: the run starts once the warm-up is done. */
    public static final WarmUpDeadline NONE = new WarmUpDeadline(Long.MAX_VALUE);

    /** On {@link RunClock#system()}'s scale; {@link Long#MAX_VALUE} for none. */
    private final long at;

    private WarmUpDeadline(long at) {
        this.at = at;
    }

    /** The deadline {@code atMost} from now; {@link #NONE} for null. */
    public static WarmUpDeadline in(Duration atMost) {
        return atMost == null ? NONE : new WarmUpDeadline(REAL.nanoTime() + Math.max(0, atMost.toNanos()));
    }

    /** Whether there is one. */
    public boolean bounded() {
        return at != Long.MAX_VALUE;
    }

    /** Nanoseconds left before it (0 once passed; {@link Long#MAX_VALUE} without one). */
    public long nanosLeft() {
        return bounded() ? Math.max(0, at - REAL.nanoTime()) : Long.MAX_VALUE;
    }

    /** {@code nanos} from now, or this deadline less {@code keepNanos} when that comes first (real time). */
    public long within(long nanos, long keepNanos) {
        long own = REAL.nanoTime() + nanos;
        return bounded() ? Math.min(own, at - keepNanos) : own;
    }

    /** The shorter of {@code millis} and what is left, in milliseconds. */
    public long millisAtMost(long millis) {
        return Math.min(millis, nanosLeft() / 1_000_000);
    }

    /** The shorter of {@code d} and what is left. */
    public Duration atMost(Duration d) {
        return Duration.ofNanos(Math.min(d.toNanos(), nanosLeft()));
    }
}
