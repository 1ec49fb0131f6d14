package dev.pacer.engine.api;


import java.util.concurrent.CompletableFuture;

/**
 * An op that starts its work and completes later, on another thread (an I/O event loop): the form for
 * ops whose service time is mostly waiting, such as a request to a server. A worker takes a slot from
 * the limiter at its scheduled time, calls {@link #start}, and goes on to the next slot at once.
 *
 * <h2>Callers' obligations (what pacer guarantees the op)</h2>
 * <ol>
 *   <li>{@link #start} is called by the run's workers, possibly concurrently: the op is thread-safe.</li>
 *   <li>At most the run's in-flight bound of ops are started and not yet completed at once (see
 *       {@link #capacity()}); a worker that finds none free waits, and that wait is the op's wait time,
 *       so coordinated omission stays corrected.</li>
 *   <li>The op's times: start is when {@code start} was called, end is when its completion arrived.</li>
 * </ol>
 *
 * <h2>What the op promises</h2>
 * <ol>
 *   <li>{@code start} does not wait for the system under test; it hands the work off and returns.</li>
 *   <li>Every start is completed exactly once, through the {@link Completion} it was given, with an
 *       outcome or a failure; a start that throws counts as that failure.</li>
 *   <li>No allocation on this path for bookkeeping: outcomes are created once.</li>
 * </ol>
 * Ops still in flight when a run ends get a grace period to complete; those that do not are recorded
 * as {@link Outcome#CANCELLED}. An {@code AsyncOp} is also an {@link Op}: {@link #run} starts one op
 * and waits for it, for callers that want one op at a time.
 */
public interface AsyncOp extends Op {

    /**
     * Starts one op.
     *
     * @param cycle      the run's sequence number for this op (0, 1, 2, ...)
     * @param completion to be completed exactly once, from any thread, when the op is done
     */
    void start(long cycle, Completion completion) throws Exception;

    /**
     * How many ops may be in flight at once by the op's own nature (e.g. HTTP/1.1 connections, each
     * carrying one request at a time), or 0 when it has no bound of its own. The run's in-flight bound
     * is this unless the user sets another.
     */
    default int capacity() {
        return 0;
    }

    /**
     * The run's grace is over: the ops this op holds and has not begun to send (queued in a client for a connection)
     * complete now as {@link Outcome#NOT_SENT}, their whole time a wait; those sent are then cancelled by the engine.
     * Called once per run, on the reporter's thread, before the cancellation. Default: nothing (an op with no queue
     * of its own).
     */
    default void abandonUnsent() {
    }

    /** One op, waited for: starts it and blocks until it completes. */
    @Override
    default Outcome run(long cycle) throws Exception {
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        start(cycle, outcome -> done.complete(outcome == null ? Outcome.OK : outcome));
        return done.get();
    }
}
