package dev.pacer.engine.metrics;

import dev.pacer.engine.op.OpMix;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One op that has started and is not yet recorded: its scheduled and start times, which of the run's named ops it
 * is (an index into the op mix's names, or {@link OpMix#NO_OP}), and whether it still runs. A synchronous worker
 * owns one and reuses it for every op; an asynchronous op takes one from a pool. Its record is made exactly once, by
 * whichever comes first of its completion and, after a run's grace period, its cancellation (see
 * {@link WorkerMetrics#complete}).
 *
 * <h2>Shared fields</h2>
 * {@code scheduledNanos}, {@code startNanos}, {@code opIndex}: plain; written by the thread that starts the op before
 * {@link #begin} publishes it (release store of the state), read by the thread that completes it and by
 * a canceller that claimed it (CAS, acquire). {@code state}: {@code RUNNING} after a begin (release
 * store by the starter); back to {@code IDLE} by the completer, with a plain store while the run goes
 * (no canceller can act yet) and with a CAS once it is closing, which is also what a canceller uses:
 * whoever moves it from {@code RUNNING} records the op.
 * {@code stepEnds}, {@code stepsEnded}: plain; reset by {@link #begin}, written by the op's thread as each step of a
 * multi-step op ends ({@link #stepEnded(long)}), read by the completer, which that thread is or is ordered after;
 * a canceller does not read them.
 */
public class InFlightOp {

    private static final int IDLE = 0;
    private static final int RUNNING = 1;

    private final AtomicInteger state = new AtomicInteger(IDLE);
    private long scheduledNanos;
    private long startNanos;
    private int opIndex = OpMix.NO_OP;
    /** The ends of the steps that ended before the last, in order (grown on first use, then reused). */
    private long[] stepEnds = NO_STEPS;
    private int stepsEnded;

    private static final long[] NO_STEPS = new long[0];

    /** Publishes an op of no named op as started, scheduled at {@code scheduledNanos}, at {@code startNanos}. */
    public final void begin(long scheduledNanos, long startNanos) {
        begin(scheduledNanos, startNanos, OpMix.NO_OP);
    }

    /**
     * Publishes an op as started: scheduled at {@code scheduledNanos}, started at {@code startNanos}, recorded under
     * the run's named op {@code opIndex} as well as in the totals ({@link OpMix#NO_OP}: in the totals only).
     */
    public final void begin(long scheduledNanos, long startNanos, int opIndex) {
        this.scheduledNanos = scheduledNanos;
        this.startNanos = startNanos;
        this.opIndex = opIndex;
        this.stepsEnded = 0;
        state.setRelease(RUNNING);
    }

    /**
     * On the op's thread: a step of the op in flight ended at {@code nanos} (not its last: that ends at the
     * completion). Steps past {@link OpMix#MAX_STEPS} are counted, not kept.
     */
    public final void stepEnded(long nanos) {
        if (stepsEnded < OpMix.MAX_STEPS) {
            if (stepsEnded == stepEnds.length) {
                stepEnds = java.util.Arrays.copyOf(stepEnds, Math.min(OpMix.MAX_STEPS, Math.max(4, stepsEnded * 2)));
            }
            stepEnds[stepsEnded] = nanos;
        }
        stepsEnded++;
    }

    /** How many of the op's steps ended before the one that ended it (after {@link #begin}). */
    final int stepsEnded() {
        return stepsEnded;
    }

    /** When step {@code i} (below {@link #stepsEnded()} and {@link OpMix#MAX_STEPS}) ended. */
    final long stepEnd(int i) {
        return stepEnds[i];
    }

    /** Scheduled time of the op in flight (after {@link #begin}). */
    public final long scheduledNanos() {
        return scheduledNanos;
    }

    /** Start time of the op in flight (after {@link #begin}). */
    public final long startNanos() {
        return startNanos;
    }

    /** Its named op (after {@link #begin}): an index into the mix's names, or {@link OpMix#NO_OP}. */
    public final int opIndex() {
        return opIndex;
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
