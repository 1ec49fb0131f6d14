package dev.pacer.ratelimit.api;

import java.util.PriorityQueue;

/**
 * A {@link Sleeper} for deterministic tests: a park advances a {@link ManualNanoClock} by exactly the
 * requested time and returns. Meant for single-threaded tests; with several threads, parks from
 * different threads all move the one shared clock.
 */
public final class ManualSleeper implements Sleeper {

    private final ManualNanoClock clock;
    private final long thresholdNanos;
    private final long overshootNanos;

    /** A sleeper with no park threshold and no overshoot: every early caller sleeps exactly its delay. */
    public ManualSleeper(ManualNanoClock clock) {
        this(clock, 0, 0);
    }

    /**
     * A sleeper that pretends parks cost something: callers early by less than {@code thresholdNanos}
     * go at once, longer parks are shortened by {@code overshootNanos} (and last exactly what is asked).
     */
    public ManualSleeper(ManualNanoClock clock, long thresholdNanos, long overshootNanos) {
        this.clock = clock;
        this.thresholdNanos = thresholdNanos;
        this.overshootNanos = overshootNanos;
    }

    /** Actions to run when a park reaches their time, earliest first; guarded by this. */
    private final PriorityQueue<Timed> actions = new PriorityQueue<>();
    private long sequence;

    private record Timed(long at, long order, Runnable action) implements Comparable<Timed> {
        @Override
        public int compareTo(Timed o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(order, o.order);
        }
    }

    /**
     * Runs {@code action} when a park first reaches {@code nanoTime} on the clock: that park moves the clock to
     * exactly that time, runs it on the parked thread and returns early (as a real park may), so a test can
     * change a limiter while a caller waits in it.
     */
    public synchronized void at(long nanoTime, Runnable action) {
        actions.add(new Timed(nanoTime, sequence++, action));
    }

    @Override
    public void park(long nanos) {
        long target = clock.nanoTime() + Math.max(0, nanos);
        Timed due;
        synchronized (this) {
            due = actions.peek() != null && actions.peek().at() - target <= 0 ? actions.poll() : null;
        }
        if (due == null) {
            clock.advance(Math.max(0, nanos));
            return;
        }
        if (due.at() - clock.nanoTime() > 0) {
            clock.set(due.at());
        }
        due.action().run();
    }

    /** Nothing to wake: a park here never blocks. */
    @Override
    public void wake(Thread thread) {
    }

    @Override
    public long parkThresholdNanos() {
        return thresholdNanos;
    }

    @Override
    public long parkOvershootNanos() {
        return overshootNanos;
    }
}
