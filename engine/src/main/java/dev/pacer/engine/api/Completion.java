package dev.pacer.engine.api;

/**
 * How an {@link AsyncOp} reports that an op it started has finished. The engine hands one to each
 * {@link AsyncOp#start} and reads the clock when it is completed: that is the op's end.
 *
 * <p>Call {@link #complete} (or {@link #fail}) exactly once per start, from any thread. A second call before
 * the object is reused is ignored (the op is counted once); the object is the engine's and is reused for a
 * later op once completed: keep no reference to it afterwards (a late call would complete that later op).
 */
public interface Completion {

    /** The op finished with this outcome ({@code null} means {@link Outcome#OK}). */
    void complete(Outcome outcome);

    /**
     * An op of several steps (a workload op's requests, one after another) calls this as each step but its last
     * ends, before the next begins; the engine reads the clock. A step's service time runs from the previous step's
     * end (the op's start, for its first) to its own; the step that ends the op ends at {@link #complete}. Figures
     * are kept for the steps of the named ops an {@link dev.pacer.engine.op.OpMix} says have several
     * ({@code stepsOf}); call it between the start and the completion, on the thread that then completes (or one
     * ordered before it). By default it does nothing.
     */
    default void stepEnded() {
    }

    /** The op failed: counted as an error outcome named after the throwable's class. */
    default void fail(Throwable t) {
        complete(Outcome.forThrowable(t));
    }
}
