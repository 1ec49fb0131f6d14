package dev.pacer.engine.run;

import dev.pacer.engine.metrics.InFlightOp;
import dev.pacer.engine.metrics.WorkerMetrics;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.RateLimiter;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One worker thread of an {@link Activity}: take a slot from the limiter, start the op, record.
 *
 * <p>A synchronous op runs on the worker: per op the worker reads the clock once (the op's end) and
 * hands that reading to its grant ({@link Grant#sawClock}); the start is the limiter's reading
 * ({@link Grant#startNanos()}), never older than the previous op's end. An asynchronous op
 * ({@link AsyncOp}) is started with a slot of the activity's {@link InFlightPool} and completes on
 * another thread; when no slot is free the worker waits, and the op's start (so its wait) is when it
 * got one. An op of a mix ({@link OpMix}) is recorded under the named op its cycle runs as well as in the totals.
 * Nothing on either path allocates or locks, but for the pool's queue.
 *
 * <h2>Shared fields</h2>
 * {@code state}: {@code ACTIVE} → {@code RETIRING} (the {@link WorkerPool}, CAS, when threads are lowered) →
 * {@code ACTIVE} again (CAS, when they are raised before it left) or {@code EXITED} (the worker, CAS, at
 * its next op; or a plain store when it stops for another reason). The worker reads it once per op. A
 * retiring worker keeps the slot it holds and runs its op: slots handed out keep their times.
 * {@code acquiring}: the worker's opaque stores around each wait for a slot (limiter or pool), read by
 * the stop ({@link WorkerPool#interruptAcquiring}) to interrupt only waiting workers; a stale read only interrupts
 * an op in flight.
 */
final class Worker implements Runnable {
    // Whatever an op throws, an Error included (a StackOverflowError has unwound by the time it is caught; an
    // OutOfMemoryError may pass), is that call's outcome, named after its class, and the worker goes on: every
    // call is recorded, and the error ratio judges the run. A worker that fails outside the op (the engine's own
    // fault) stops the run as failed, with the reason in its summary (Activity#failure).

    private static final int ACTIVE = 0;
    private static final int RETIRING = 1;
    private static final int EXITED = 2;

    private final Activity activity;
    /** The activity's controls: whether the run goes on, is paused, and its limiter. */
    private final RunControl control;
    /** The activity's deadline. */
    private final RunTimeline timeline;
    final int id;
    final WorkerMetrics metrics;
    /** The synchronous op this worker has in flight (reused). */
    final InFlightOp inFlight = new InFlightOp();
    /** What a synchronous op of several steps calls as each step but its last ends: marks it on the run's clock. */
    private final Runnable stepEnded;
    private final AtomicInteger state = new AtomicInteger(ACTIVE);
    private final AtomicBoolean acquiring = new AtomicBoolean();
    volatile Thread thread;

    Worker(Activity activity, int id, WorkerMetrics metrics) {
        this.activity = activity;
        this.stepEnded = () -> inFlight.stepEnded(activity.clock.nanoTime());
        this.control = activity.control;
        this.timeline = activity.timeline;
        this.id = id;
        this.metrics = metrics;
    }

    /** Asks the worker to leave after the op it is on; false if it had left already. */
    boolean retire() {
        return state.compareAndSet(ACTIVE, RETIRING);
    }

    /** Keeps a retiring worker after all; false if it has left (or is leaving). */
    boolean revive() {
        return state.compareAndSet(RETIRING, ACTIVE);
    }

    boolean isAcquiring() {
        return acquiring.getOpaque();
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        Loop loop = new Loop();
        try {
            activity.workers.awaitGo();
            if (activity.op instanceof AsyncOp async) {
                loop.runAsync(async);
            } else {
                loop.runSync(activity.op);
            }
        } catch (InterruptedException e) {
            // stopped while waiting
        } catch (Throwable t) { // not the op's (its throwables are outcomes): the engine's own failure
            control.workerFailed(this, t);
        } finally {
            acquiring.setOpaque(false);
            if (loop.grant != null) {
                loop.grant.close();
            }
            state.set(EXITED);
            activity.workerExited(this);
        }
    }

    /** Whether to take another op: the run goes on and this worker was not retired. */
    private boolean goOn() {
        if (!control.running) {
            return false;
        }
        // retiring: leave, unless revived between the read and the CAS (then the CAS fails)
        return state.get() == ACTIVE || !state.compareAndSet(RETIRING, EXITED);
    }

    /** One worker's loop state: its grant (per limiter) and cycle batch. */
    private final class Loop {
        Grant grant;
        private RateLimiter grantLimiter;
        /** Whether {@link #grantLimiter} meters bytes (fixed when it was built): then each op's size is asked. */
        private boolean metersBytes;
        private final CycleSource.Batch batch = new CycleSource.Batch();
        /** Unpaced: the previous op's end, the next op's start. */
        private long previousEnd = activity.clock.nanoTime();
        /** The slot the last {@link #nextSlot} took: its scheduled and start time. */
        private long scheduled;
        private long start;

        /** Takes the next cycle and its slot; -1 when the run ends for this worker. */
        private long nextSlot() throws InterruptedException {
            if (!goOn()) {
                return -1;
            }
            // a paused run's workers wait here, on the run's clock, not in the limiter (whose pause blocks
            // callers on a latch no clock can see); the limiter's pause still gives the paused time away
            boolean waited = control.awaitUnpaused();
            if (waited && !control.running) {
                return -1;
            }
            RateLimiter limiter = control.limiter;
            long cycle = activity.cycles.next(batch, limiter == null || limiter.spec().opsPerSecond() > 100_000 ? 64
                    : 1);
            if (cycle < 0) {
                return -1;
            }
            if (limiter != null) {
                if (limiter != grantLimiter) {
                    if (grant != null) {
                        grant.close();
                    }
                    grant = limiter.newGrant();
                    grantLimiter = limiter;
                    metersBytes = limiter.metersBytes();
                }
                acquiring.setOpaque(true);
                if (metersBytes) {
                    limiter.acquireInterruptibly(grant, activity.op.bytes(activity.cycleOf(cycle)));
                } else {
                    limiter.acquireInterruptibly(grant);
                }
                acquiring.setOpaque(false);
                scheduled = grant.scheduledNanos();
                start = grant.startNanos();
            } else {
                if (waited) {
                    previousEnd = activity.clock.nanoTime();
                }
                scheduled = previousEnd;
                start = previousEnd;
            }
            if (scheduled - timeline.deadlineNanos() >= 0) {
                timeline.deadlineReached = true;
                return -1; // scheduled at or after the end of the run
            }
            return activity.cycleOf(cycle);
        }

        /**
         * The run stopped while this worker's op waited for a free in-flight slot: that op, and the slots the
         * schedule owed before the end that no worker took (all of them waiting), were never sent. Each is recorded
         * as {@link Outcome#NOT_SENT} with the wait it had reached at the end and no service time, so the tail shows
         * them instead of leaving them out. The owed slots are taken from the limiter through this worker's grant
         * ({@link RateLimiter#tryAcquire(Grant)}: the slots the grant holds first, then the schedule's), each with
         * its own scheduled time, until one is due at or after the end: every waiting worker does so, and each slot
         * goes to one of them, so each is recorded once. The op that waited is recorded under its named op
         * ({@code opIndex}); the owed slots, which no cycle was drawn for, in the totals only.
         */
        private void recordNotSent(int opIndex) {
            long stop = control.stopNanos();
            if (control.running || stop == 0) {
                return; // not stopped: interrupted for another reason
            }
            long end = Math.min(stop, timeline.deadlineNanos());
            metrics.record(Math.max(0, end - scheduled), 0, Outcome.NOT_SENT, opIndex);
            RateLimiter limiter = control.limiter;
            if (limiter == null || limiter != grantLimiter) {
                return; // unpaced, or the limiter was replaced: no schedule of this worker's to account for
            }
            while (limiter.tryAcquire(grant)) {
                long due = grant.scheduledNanos();
                if (due - end >= 0) {
                    break; // at or after the end: not owed (a slot the run is over for, taken and dropped)
                }
                metrics.record(end - due, 0, Outcome.NOT_SENT, OpMix.NO_OP);
            }
        }

        void runSync(Op op) throws InterruptedException {
            while (syncStep(op)) {
                // each op in its own call: see runAsync
            }
        }

        /** One op of {@link #runSync}: false when the run ends for this worker. */
        private boolean syncStep(Op op) throws InterruptedException {
            long cycle = nextSlot();
            if (cycle < 0) {
                return false;
            }
            inFlight.begin(scheduled, start, opOf(cycle));
            Outcome outcome;
            try {
                outcome = op.run(cycle, stepEnded);
                if (outcome == null) {
                    outcome = Outcome.OK;
                }
            } catch (Throwable t) { // an Error too (StackOverflowError, OutOfMemoryError): see the class doc
                outcome = !control.running && isInterruption(t) ? Outcome.CANCELLED : Outcome.forThrowable(t);
            }
            long end = activity.clock.nanoTime();
            metrics.complete(inFlight, end, outcome);
            previousEnd = end;
            if (grant != null) {
                grant.sawClock(end); // the next acquire's start and wait are exact without another clock read
            }
            return true;
        }

        void runAsync(AsyncOp op) throws InterruptedException {
            InFlightPool pool = activity.inFlightPool();
            while (asyncStep(op, pool)) {
                // each op in its own call, so the JIT compiles the step by its calls: a loop's body is compiled
                // only after some 60 000 rounds in one call (on-stack replacement), which the engine's warm-up,
                // whose workers are fresh every 100 ms, never reaches; measured at 60 000 req/s, the loop ran
                // interpreted for the run's first 0.7 s and was compiled (45 ms of C2) 1.4 s in
            }
        }

        /** One op of {@link #runAsync}: false when the run ends for this worker. */
        private boolean asyncStep(AsyncOp op, InFlightPool pool) throws InterruptedException {
            long cycle = nextSlot();
            if (cycle < 0) {
                return false;
            }
            int opIndex = opOf(cycle);
            InFlightPool.Slot slot = pool.poll();
            if (slot == null) {
                acquiring.setOpaque(true);
                try {
                    slot = pool.take(); // none free at the scheduled time: the op waits, and it is wait time
                } catch (InterruptedException stopped) {
                    recordNotSent(opIndex);
                    throw stopped;
                }
                acquiring.setOpaque(false);
                start = activity.clock.nanoTime();
            }
            slot.begin(scheduled, start, opIndex);
            try {
                op.start(cycle, slot);
            } catch (Throwable t) { // an Error too: see the class doc
                slot.fail(t);
            }
            long now = activity.clock.nanoTime();
            previousEnd = now;
            if (grant != null) {
                grant.sawClock(now);
            }
            return true;
        }
    }

    /** Which of the run's named ops {@code cycle} runs ({@link OpMix#opOf}), or {@link OpMix#NO_OP} for a plain op. */
    private int opOf(long cycle) {
        OpMix mix = activity.mix;
        return mix == null ? OpMix.NO_OP : mix.opOf(cycle);
    }

    private static boolean isInterruption(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof InterruptedException || c instanceof InterruptedIOException
                    || c instanceof ClosedByInterruptException) {
                return true;
            }
        }
        return Thread.currentThread().isInterrupted();
    }
}
