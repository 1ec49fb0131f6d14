package dev.pacer.engine.api;

/**
 * One kind of operation the workers run at the target rate: the SPI's unit of work.
 *
 * <h2>Callers' obligations (what pacer guarantees the op)</h2>
 * <ol>
 *   <li>{@link #run(long)} is called by every worker thread of the run, concurrently: an op is
 *       thread-safe or keeps its state per thread.</li>
 *   <li>Each call is timed by the worker: service time = end − start of the call.</li>
 *   <li>{@link #warmUp(java.time.Duration)} is called once, before the schedule starts; {@link #close()} once,
 *       after every worker has stopped.</li>
 * </ol>
 *
 * <h2>What the op promises</h2>
 * <ol>
 *   <li>{@code run} returns the {@link Outcome} of this call ({@code null} means {@link Outcome#OK}),
 *       or throws: whatever it throws (an exception, or an error such as {@code StackOverflowError}) is
 *       counted as an error outcome named after its class, and the worker carries on.</li>
 *   <li>On the hot path {@code run} should not allocate for bookkeeping: return outcomes created once.</li>
 *   <li>When the run stops, waiting workers are interrupted; an op may return early or throw then,
 *       and such a call is not recorded.</li>
 * </ol>
 */
public interface Op extends AutoCloseable {

    /**
     * Runs the op once.
     *
     * @param cycle the run's sequence number for this call (0, 1, 2, ...), e.g. to vary a request
     * @return the outcome, or {@code null} for {@link Outcome#OK}
     */
    Outcome run(long cycle) throws Exception;

    /**
     * Runs the op once, as {@link #run(long)}, for an op of several steps (a workload op's statements, one after
     * another) that marks each step's end but the last by calling {@code stepEnded} (the engine reads the clock; see
     * {@link Completion#stepEnded}). What the engine calls; by default {@link #run(long)}.
     */
    default Outcome run(long cycle, Runnable stepEnded) throws Exception {
        return run(cycle);
    }

    /**
     * Called once before the run's schedule starts, so the first measured ops do not pay for class
     * loading and first-use setup. Must not touch the system under test (its counts would be off).
     * Default: nothing.
     */
    default void warmUp() throws Exception {
    }

    /**
     * What the run calls, once, before its schedule starts: {@link #warmUp()} unless the op overrides it. A run
     * whose schedule starts at an instant (shards starting together) gives its op what is left before that instant,
     * less the engine's own start; an op that warms up for long should end by then, since a run ready after its
     * instant owes its first ops at once (and one ready after its test's end is refused): the first ops on time beat
     * a warmer JIT. An op that connects ahead waits for its connections within it too.
     *
     * @param atMost how long the warm-up may take, or null when the run starts once the warm-up is done
     */
    default void warmUp(java.time.Duration atMost) throws Exception {
        warmUp();
    }

    /**
     * What the last {@link #warmUp()} did, as the run's start line prints it (e.g. {@code pacer: http client warm-up
     * 6.21s against a private server (121,442 requests; the closed loop stopped at its 5.00s bound)}), or null to
     * print nothing.
     * Called after the warm-up. Default: null.
     */
    default String warmUpLine() {
        return null;
    }

    /**
     * What the op did that the run's figures do not show, as one line the run prints after its summary (e.g. {@code
     * pacer: http client resent 480 requests ...}), or null to print nothing. Called once the ops have ended, before
     * {@link #close()}. Default: null.
     */
    default String endLine() {
        return null;
    }

    /**
     * The workers this op is made for, when the run sets no thread count: e.g. one per connection it holds, each
     * worker running its cycles on a connection of its own. 0 (the default): no preference, and the run has one
     * worker. A thread count the run sets (a flag, a scenario, the API) wins. Read before the run starts; fixed
     * for the op's life.
     */
    default int threads() {
        return 0;
    }

    /**
     * The size in bytes of what this cycle's call sends, for a limiter that meters bytes as well as ops
     * ({@code --bytes-rate}): it is charged before the call starts. Called on the worker's thread just
     * before {@link #run}; must be cheap. Default 0: the op has no size.
     */
    default long bytes(long cycle) {
        return 0;
    }

    @Override
    default void close() throws Exception {
    }
}
