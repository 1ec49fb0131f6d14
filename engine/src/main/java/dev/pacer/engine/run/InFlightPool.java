package dev.pacer.engine.run;

import dev.pacer.engine.metrics.InFlightOp;
import dev.pacer.engine.metrics.WorkerMetrics;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import dev.pacer.engine.api.RunClock;

/**
 * The bound on asynchronous ops in flight: a fixed set of reusable slots, each one op started and not
 * yet completed. Workers take a free slot for each op they start (waiting when there is none: that wait
 * is the op's wait time); the op's completion, on whatever thread it arrives, records the op and puts
 * the slot back. Nothing is allocated per op.
 *
 * <p>Threads: workers take; completions (I/O threads) give back; the reporter reads {@link #inFlight()}
 * and, at the end of a run, the slots to cancel. The queue's lock orders a slot's reuse after its
 * completion.
 */
final class InFlightPool {

    /** One in-flight op: what the engine hands an {@link dev.pacer.engine.api.AsyncOp} to complete. */
    final class Slot extends InFlightOp implements Completion {
        /**
         * True from when a worker takes the slot until its op's first completion: a second completion of the
         * same op finds it false and is ignored (counted once). Set by the taker, cleared by CAS.
         */
        private final AtomicBoolean owed = new AtomicBoolean();

        @Override
        public void complete(Outcome outcome) {
            if (owed.compareAndSet(true, false)) {
                completed(this, clock.nanoTime(), outcome == null ? Outcome.OK : outcome);
            }
        }

        @Override
        public void stepEnded() {
            stepEnded(clock.nanoTime());
        }
    }

    private final List<Slot> slots;
    private final ArrayBlockingQueue<Slot> free;
    private final RunClock clock;
    /**
     * Workers waiting in {@link #take} for a free slot: each adds itself before its last look and parks on the
     * run's clock; a completion unparks one after it gave its slot back, so no wake-up is lost.
     */
    private final ConcurrentLinkedQueue<Thread> waiting = new ConcurrentLinkedQueue<>();
    private final WorkerMetrics metrics;
    private final Runnable onCompletion;
    /** A completion wakes a waiting worker once this many slots are free (1, or a batch with a pacing tick). */
    private final int wakeAt;
    /** The longest a waiting worker parks before it looks again (forever, or a pacing tick). */
    private final long maxParkNanos;

    /**
     * @param capacity     the most ops in flight at once
     * @param metrics      where completions record (written by many threads)
     * @param onCompletion called after each completion (the activity uses it to notice the last one)
     * @param clock        the run's clock: completions read it, waiting workers park on it
     */
    InFlightPool(int capacity, WorkerMetrics metrics, Runnable onCompletion, RunClock clock) {
        this(capacity, metrics, onCompletion, clock, 0);
    }

    /**
     * A pool whose waiting workers, with a pacing tick ({@code tickNanos} above 0), are woken once an eighth of the
     * slots are free (or the tick has passed) rather than by every completion: while every slot is taken at a high
     * rate a worker then wakes once per batch of completions, not once per completion, and waits at most a tick
     * longer than it must.
     */
    InFlightPool(int capacity, WorkerMetrics metrics, Runnable onCompletion, RunClock clock, long tickNanos) {
        this.clock = clock;
        this.wakeAt = tickNanos > 0 ? Math.max(1, capacity / 8) : 1;
        this.maxParkNanos = tickNanos > 0 ? tickNanos : Long.MAX_VALUE;
        this.slots = IntStream.range(0, capacity).mapToObj(i -> new Slot()).toList();
        this.free = new ArrayBlockingQueue<>(capacity, false, slots);
        this.metrics = metrics;
        this.onCompletion = onCompletion;
    }

    /** A free slot now, or null when every slot is in flight. */
    Slot poll() {
        return owe(free.poll());
    }

    private static Slot owe(Slot s) {
        if (s != null) {
            s.owed.set(true);
        }
        return s;
    }

    /** Waits for a free slot. */
    Slot take() throws InterruptedException {
        Thread me = Thread.currentThread();
        while (true) {
            Slot s = poll();
            if (s != null) {
                return s;
            }
            waiting.add(me);
            try {
                s = poll(); // a completion between the first look and joining the waiters
                if (s != null) {
                    return s;
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                clock.park(maxParkNanos);
            } finally {
                waiting.remove(me);
            }
        }
    }

    /** Gives back a slot that was taken but not begun (the worker stopped before starting the op). */
    void giveBack(Slot slot) {
        slot.owed.set(false);
        free.add(slot);
    }

    /** Ops started and not yet completed. */
    int inFlight() {
        return slots.size() - free.size();
    }

    /** Every slot, for cancelling what is still in flight at the end of a run. */
    List<Slot> slots() {
        return slots;
    }

    int capacity() {
        return slots.size();
    }

    private void completed(Slot slot, long endNanos, Outcome outcome) {
        metrics.complete(slot, endNanos, outcome);
        free.add(slot);
        // a batch is counted only while a worker waits: the queue's size takes its lock
        if (wakeAt == 1 || (!waiting.isEmpty() && free.size() >= wakeAt)) {
            Thread w = waiting.poll();
            if (w != null) {
                clock.unpark(w);
            }
        }
        onCompletion.run();
    }
}
