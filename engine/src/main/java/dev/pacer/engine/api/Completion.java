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

    /** The op failed: counted as an error outcome named after the throwable's class. */
    default void fail(Throwable t) {
        complete(Outcome.forThrowable(t));
    }
}
