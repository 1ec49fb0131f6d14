package dev.pacer.engine.metrics;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One op that has started and is not yet recorded: its scheduled and start times, and whether it still
 * runs. A synchronous worker owns one and reuses it for every op; an asynchronous op takes one from a
 * pool. Its record is made exactly once, by whichever comes first of its completion and, after a run's
 * grace period, its cancellation (see {@link WorkerMetrics#complete}).
 *
 * <h2>Shared fields</h2>
 * {@code scheduledNanos}, {@code startNanos}: plain; written by the thread that starts the op before
 * {@link #begin} publishes it (release store of the state), read by the thread that completes it and by
 * a canceller that claimed it (CAS, acquire). {@code state}: {@code RUNNING} after a begin (release
 * store by the starter); back to {@code IDLE} by the completer, with a plain store while the run goes
 * (no canceller can act yet) and with a CAS once it is closing, which is also what a canceller uses:
 * whoever moves it from {@code RUNNING} records the op.
 */
public class InFlightOp {

    private static final int IDLE = 0;
    private static final int RUNNING = 1;

    private final AtomicInteger state = new AtomicInteger(IDLE);
    private long scheduledNanos;
    private long startNanos;

    /** Publishes an op as started: scheduled at {@code scheduledNanos}, started at {@code startNanos}. */
    public final void begin(long scheduledNanos, long startNanos) {
        this.scheduledNanos = scheduledNanos;
        this.startNanos = startNanos;
        state.setRelease(RUNNING);
    }

    /** Scheduled time of the op in flight (after {@link #begin}). */
    public final long scheduledNanos() {
        return scheduledNanos;
    }

    /** Start time of the op in flight (after {@link #begin}). */
    public final long startNanos() {
        return startNanos;
    }

    /** True while an op has begun and is not yet recorded (a racy read, for counting). */
    public final boolean running() {
        return state.getOpaque() == RUNNING;
    }

    /** While the run goes: the owner ends its own op; nobody else may. */
    final void endUncontended() {
        state.setOpaque(IDLE);
    }

    /** Once the run is closing: claims the op for recording; false when another claimed it first. */
    final boolean claim() {
        return state.compareAndSet(RUNNING, IDLE);
    }
}
