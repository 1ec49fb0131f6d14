package dev.pacer.engine.run;

import dev.pacer.engine.metrics.InFlightOp;
import dev.pacer.engine.metrics.MetricsRegistry;
import dev.pacer.engine.api.RunClock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An activity's worker threads: those that count toward the thread setting, those retired and not yet left,
 * and the gate they wait at until the run starts.
 *
 * <p>Lowering the thread count retires the excess workers: each runs the op whose slot it already holds
 * (slots handed out keep their times) and leaves. Raising it keeps retiring workers that have not left
 * yet before it starts new ones, so lowering and raising again does not pile up threads. Waking,
 * interrupting and listing reach every worker still alive, retiring ones included.
 *
 * <h2>Threads</h2>
 * Control threads start, retire and revive workers, under the activity's lock ({@code lock}); each worker
 * waits at the gate, then takes itself out as it leaves; the reporter lists their ops in flight and interrupts
 * them at the end. A worker takes the lock here only to leave.
 *
 * <h2>Shared fields</h2>
 * {@code active}, {@code retiring}, {@code nextWorkerId} and {@code threadSetting}: read and written under the
 * lock only; a worker's state moves between the two sets by its own CAS ({@link Worker#retire},
 * {@link Worker#revive}), so a set may hold a worker that is leaving until it takes itself out. {@code live}:
 * incremented under the lock as a worker is made, decremented (atomically) by each worker as it leaves, after it
 * left the sets; the worker that takes it to 0 completes {@code gone}. A worker made after that (a thread count
 * raised once every worker has left: the cycles ran out, or a stop came first) raises it again but completes
 * nothing: it leaves at its first check of whether the run goes on.
 * {@code go}: counted down (once is enough) when the run starts or stops; what was written before is visible to
 * a worker its wait returns on.
 */
final class WorkerPool {

    /** The activity's lock: guards the sets and the counts. */
    private final Object lock;
    private final Activity activity;
    private final MetricsRegistry metrics;
    private final RunClock clock;
    private final boolean virtualThreads;
    /** Workers that count toward the thread setting, oldest first (O(1) to leave: 100 000 may). Under the lock. */
    private final LinkedHashSet<Worker> active = new LinkedHashSet<>();
    /** Workers retired and not yet left (they run the op whose slot they hold), oldest first. Under the lock. */
    private final LinkedHashSet<Worker> retiring = new LinkedHashSet<>();
    private final AtomicInteger live = new AtomicInteger();
    private final CompletableFuture<Void> gone = new CompletableFuture<>();
    private final CountDownLatch go = new CountDownLatch(1);
    /** Workers made so far, so the next one's id. Under the lock. */
    private int nextWorkerId;
    /** The thread setting (workers that leave at the end do not change it). Under the lock. */
    private int threadSetting;

    WorkerPool(Object lock, Activity activity, MetricsRegistry metrics, RunClock clock, boolean virtualThreads) {
        this.lock = lock;
        this.activity = activity;
        this.metrics = metrics;
        this.clock = clock;
        this.virtualThreads = virtualThreads;
    }

    /** Starts the first {@code threads} workers; they wait at the gate ({@link #open}). Under the lock. */
    void start(int threads) {
        threadSetting = threads;
        spawn(threads);
    }

    /**
     * Sets the number of workers. Lowering it retires the excess (each runs the op whose slot it holds,
     * then leaves); raising it keeps retiring workers first, then starts new ones. Under the lock.
     */
    void resize(int threads) {
        threadSetting = threads;
        while (active.size() > threads) {
            Worker w = active.removeLast();
            if (w.retire()) {
                retiring.add(w);
            }
        }
        while (active.size() < threads && !retiring.isEmpty()) {
            Worker w = retiring.removeLast();
            if (w.revive()) {
                active.add(w);
            }
        }
        if (active.size() < threads) {
            spawn(threads - active.size());
        }
    }

    private void spawn(int n) {
        boolean shared = virtualThreads || active.size() + n > 64;
        for (int i = 0; i < n; i++) {
            Worker w = new Worker(activity, nextWorkerId++, metrics.attach(shared));
            active.add(w);
            live.incrementAndGet();
            String name = "pacer-worker-" + w.id;
            w.thread = clock.start(virtualThreads ? Thread.ofVirtual().name(name)
                    : Thread.ofPlatform().name(name).daemon(true), w);
        }
    }

    /** Waits at the gate until the run starts or stops. On a worker. */
    void awaitGo() throws InterruptedException {
        go.await();
    }

    /** Opens the gate: the workers go on. */
    void open() {
        go.countDown();
    }

    /**
     * A worker left: its metrics are detached and it is taken out of the sets. True when it was the last
     * worker alive (then {@link #gone()} is true). On the worker; takes the lock.
     */
    boolean exited(Worker w) {
        metrics.detach(w.metrics);
        synchronized (lock) {
            active.remove(w);
            retiring.remove(w);
        }
        if (live.decrementAndGet() == 0) {
            gone.complete(null);
            return true;
        }
        return false;
    }

    /** Waits, on real time, until every worker has left ({@link #gone()}); false when {@code nanos} ran out first. */
    boolean awaitGone(long nanos) throws InterruptedException {
        try {
            gone.get(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** True once every worker has left. */
    boolean gone() {
        return gone.isDone();
    }

    /** The thread setting: the workers asked for (retiring ones do not count). Takes the lock. */
    int threads() {
        synchronized (lock) {
            return threadSetting;
        }
    }

    /** Worker threads started over the run. Takes the lock. */
    int started() {
        synchronized (lock) {
            return nextWorkerId;
        }
    }

    /** Workers retired that have not left yet. Takes the lock. */
    int retiring() {
        synchronized (lock) {
            return retiring.size();
        }
    }

    /** Unparks every worker: those waiting for an unpaced run's resume (or its stop) look again. */
    void unparkAll() {
        for (Worker w : alive()) {
            Thread t = w.thread;
            if (t != null) {
                clock.unpark(t);
            }
        }
    }

    /** Interrupts the workers waiting for a slot (limiter or in-flight pool), so that a stop ends their wait. */
    void interruptAcquiring() {
        for (Worker w : alive()) {
            Thread t = w.thread;
            if (t != null && w.isAcquiring()) {
                t.interrupt();
            }
        }
    }

    /** Interrupts every worker still alive, so that ops which honour interrupts return. */
    void interruptAll() {
        for (Worker w : alive()) {
            Thread t = w.thread;
            if (t != null) {
                t.interrupt();
            }
        }
    }

    /** Adds each worker's synchronous op in flight to {@code ops}. */
    void addOutstanding(List<InFlightOp> ops) {
        for (Worker w : alive()) {
            if (w.inFlight.running()) {
                ops.add(w.inFlight);
            }
        }
    }

    /** The workers not yet taken out, active then retiring. Takes the lock. */
    private List<Worker> alive() {
        synchronized (lock) {
            List<Worker> all = new ArrayList<>(active);
            all.addAll(retiring);
            return all;
        }
    }
}
