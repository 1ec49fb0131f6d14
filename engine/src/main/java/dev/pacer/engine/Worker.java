package dev.pacer.engine;

import dev.pacer.engine.metrics.WorkerMetrics;
import dev.pacer.engine.op.Op;
import dev.pacer.engine.op.Outcome;
import dev.pacer.ratelimit.Grant;
import dev.pacer.ratelimit.RateLimiter;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.ClosedByInterruptException;

/**
 * One worker thread of an {@link Activity}: {@code wait = limiter.acquire()}, run the op, record.
 *
 * <p>Per op the worker reads the clock once (the op's end) and hands that reading to its grant
 * ({@link Grant#sawClock}); the start is the limiter's reading ({@link Grant#startNanos()}), which is
 * then never older than the previous op's end, or the previous op's end itself when unpaced. Nothing
 * on this path allocates or locks.
 */
final class Worker implements Runnable {

    private static final VarHandle ACQUIRING;

    static {
        try {
            ACQUIRING = MethodHandles.lookup().findVarHandle(Worker.class, "acquiring", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Activity activity;
    final int id;
    final WorkerMetrics metrics;
    /** Set by the activity to retire this worker after its current op; read once per op. */
    private volatile boolean retired;
    /**
     * True while the worker waits in the limiter. Written by the worker with opaque stores (plain
     * moves), read by {@link Activity#stop} to interrupt only waiting workers; a stale read just means
     * an op in flight may be interrupted, and such an op is not recorded.
     */
    @SuppressWarnings("unused")
    private boolean acquiring;
    volatile Thread thread;

    Worker(Activity activity, int id, WorkerMetrics metrics) {
        this.activity = activity;
        this.id = id;
        this.metrics = metrics;
    }

    void retire() {
        retired = true;
    }

    boolean isAcquiring() {
        return (boolean) ACQUIRING.getOpaque(this);
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        Grant grant = null;
        RateLimiter grantLimiter = null;
        CycleSource.Batch batch = new CycleSource.Batch();
        final Op op = activity.op;
        try {
            activity.awaitGo();
            long previousEnd = System.nanoTime();
            while (!retired && activity.running) {
                RateLimiter limiter = activity.limiter;
                long cycle = activity.cycles.next(batch, limiter == null || limiter.spec().opsPerSecond() > 100_000 ? 64 : 1);
                if (cycle < 0) {
                    break;
                }
                long wait;
                long start;
                if (limiter != null) {
                    if (limiter != grantLimiter) {
                        if (grant != null) {
                            grant.close();
                        }
                        grant = limiter.newGrant();
                        grantLimiter = limiter;
                    }
                    ACQUIRING.setOpaque(this, true);
                    wait = limiter.acquireInterruptibly(grant);
                    ACQUIRING.setOpaque(this, false);
                    if (grant.scheduledNanos() - activity.deadlineNanos >= 0) {
                        activity.deadlineReached = true;
                        break; // scheduled at or after the end of the run
                    }
                    start = grant.startNanos();
                } else {
                    if (activity.awaitUnpaused()) {
                        previousEnd = System.nanoTime();
                    }
                    wait = 0;
                    start = previousEnd;
                    if (start - activity.deadlineNanos >= 0) {
                        activity.deadlineReached = true;
                        break;
                    }
                }
                Outcome outcome;
                try {
                    outcome = op.run(cycle);
                    if (outcome == null) {
                        outcome = Outcome.OK;
                    }
                } catch (VirtualMachineError e) {
                    throw e;
                } catch (Throwable t) {
                    if (!activity.running && isInterruption(t)) {
                        break; // cut short by the stop: not a measurement
                    }
                    outcome = Outcome.forThrowable(t);
                }
                long end = System.nanoTime();
                long service = end - start;
                metrics.record(wait, service > 0 ? service : 0, outcome);
                previousEnd = end;
                if (grant != null) {
                    grant.sawClock(end); // the next acquire's start and wait are exact without another clock read
                }
            }
        } catch (InterruptedException e) {
            // stopped while waiting for a slot
        } finally {
            ACQUIRING.setOpaque(this, false);
            if (grant != null) {
                grant.close();
            }
            activity.workerExited(this);
        }
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
