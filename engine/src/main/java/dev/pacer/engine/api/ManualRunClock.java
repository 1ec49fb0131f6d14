package dev.pacer.engine.api;

import dev.pacer.ratelimit.api.Sleeper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A {@link RunClock} whose time moves only when a test moves it, for runs that are exact and fast: a
 * 10-minute run with its deadline, pauses, phase cuts and grace period plays in milliseconds, and every
 * time it records is the one its schedule implies.
 *
 * <h2>How time moves (a discrete-event simulation)</h2>
 * The run's threads are those started with {@link #start} (the activity's workers, the reporter of a
 * {@code LoadTest}, a scenario) and any thread that has parked here. The driver (the test's thread, never
 * one of the run's) calls {@link #advanceTo}, {@link #advance} or {@link #runUntil}: each waits until
 * every thread of the run is <em>idle</em> (parked here with no {@link #unpark} or interrupt pending, or
 * ended), then moves the clock to the earliest time a parked thread asked to wake and wakes that one
 * thread, and repeats. Threads due at the same time wake one at a time, in the order they parked, each
 * once the run is idle again: what happens at one instant happens in an order that does not depend on
 * the machine (a scenario's rate change at a phase boundary and a worker's slot there, say). Threads
 * that run between two moves all see the same time, so a run's figures do not depend on how fast the
 * machine runs them.
 *
 * <p>Rules for what runs on this clock: a run's thread blocked anywhere but here (a latch, a lock, a
 * future, real I/O) holds time still until it moves on, so such waits must end without time moving
 * (the run core's do); an op that takes time sleeps it here ({@link #sleep}); nothing busy-waits on
 * {@link #nanoTime()}. A driver that waits longer than about {@link #IDLE_WAIT_MILLIS} for the run to
 * become idle gets an {@link IllegalStateException} naming the busy threads and where they are.
 *
 * <p>Thread-safety: any thread may read the time; the fields below are guarded by {@code lock};
 * {@code now} is also volatile so that reads take no lock. Time never goes backwards.
 */
public final class ManualRunClock implements RunClock {

    /** About how long (real time) a driver waits for the run's threads to become idle. */
    public static final long IDLE_WAIT_MILLIS = 10_000;

    private final Object lock = new Object();
    private final long originNanos;
    private final Instant originInstant;
    /** The time; written under {@code lock}, read by anyone. */
    private volatile long now;
    /** Threads parked here and not yet woken: when each asked to wake, in which order it parked. Under {@code lock}. */
    private final Map<Thread, WakeUp> parked = new HashMap<>();
    /** How many parks so far: the order of parks, which orders wake-ups at one time. Under {@code lock}. */
    private long parks;
    /** Threads unparked while not parked here: their next park returns at once. Under {@code lock}. */
    private final Set<Thread> permits = new HashSet<>();
    /** The run's threads (started here, or that parked here) that have not ended. Under {@code lock}. */
    private final Set<Thread> threads = new LinkedHashSet<>();
    private final Sleeper sleeper = new Sleeper() {
        @Override
        public void park(long nanos) {
            ManualRunClock.this.park(nanos);
        }

        @Override
        public long parkThresholdNanos() {
            return 0;
        }

        @Override
        public long parkOvershootNanos() {
            return 0;
        }
    };

    /** A clock at 1 s of monotonic time, 2026-01-01T00:00:00Z on the wall. */
    public ManualRunClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /** A clock at 1 s of monotonic time, {@code wall} on the wall. */
    public ManualRunClock(Instant wall) {
        this.originNanos = 1_000_000_000L;
        this.originInstant = wall;
        this.now = originNanos;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public Instant instant() {
        return originInstant.plusNanos(now - originNanos);
    }

    @Override
    public Sleeper sleeper() {
        return sleeper;
    }

    @Override
    public Thread start(Thread.Builder builder, Runnable task) {
        Thread t = builder.unstarted(task);
        synchronized (lock) {
            threads.add(t);
        }
        t.start();
        return t;
    }

    @Override
    public void park(long nanos) {
        Thread me = Thread.currentThread();
        synchronized (lock) {
            threads.add(me);
            if (permits.remove(me) || nanos <= 0 || me.isInterrupted()) {
                return;
            }
            long t = now;
            parked.put(me, new WakeUp(nanos >= Long.MAX_VALUE - t ? Long.MAX_VALUE : t + nanos, parks++));
        }
        try {
            while (true) {
                synchronized (lock) {
                    if (!parked.containsKey(me) || me.isInterrupted()) {
                        return;
                    }
                }
                LockSupport.park(this);
            }
        } finally {
            synchronized (lock) {
                parked.remove(me);
            }
        }
    }

    @Override
    public void unpark(Thread thread) {
        synchronized (lock) {
            if (parked.remove(thread) == null) {
                permits.add(thread);
            }
        }
        LockSupport.unpark(thread);
    }

    // --------------------------------------------------------------------------------------------
    // The driver

    /** Lets the run go on for {@code nanos} of its time (see {@link #advanceTo}). */
    public void advance(long nanos) {
        advanceTo(now + nanos);
    }

    /**
     * Lets the run go on until the clock reads {@code until}: moves time from one wake-up to the next
     * whenever the run is idle, and returns with the clock at {@code until} and the run idle there (no
     * thread due), so what the caller does next happens at exactly that time.
     */
    public void advanceTo(long until) {
        while (true) {
            awaitIdle();
            synchronized (lock) {
                if (idle()) {
                    Map.Entry<Thread, WakeUp> next = earliestWakeUp();
                    if (next == null || next.getValue().atNanos() > until) {
                        if (until > now) {
                            now = until;
                        }
                        return;
                    }
                    wake(next);
                }
            }
        }
    }

    /**
     * Lets the run go on, from wake-up to wake-up, until {@code done} is true when the run is idle.
     *
     * @throws IllegalStateException when the run is idle with nothing left to wake and {@code done} false
     */
    public void runUntil(BooleanSupplier done) {
        while (true) {
            awaitIdle();
            if (done.getAsBoolean()) {
                return;
            }
            synchronized (lock) {
                if (idle()) {
                    Map.Entry<Thread, WakeUp> next = earliestWakeUp();
                    if (next == null || next.getValue().atNanos() == Long.MAX_VALUE) {
                        throw new IllegalStateException("the run is idle, nothing will wake it, and the condition is"
                                + " false; parked: " + describe(parked.keySet()));
                    }
                    wake(next);
                }
            }
        }
    }

    /** Lets the run go on until {@code future} is done, and returns its value. */
    public <T> T await(Future<T> future) throws ExecutionException, InterruptedException {
        runUntil(future::isDone);
        return future.get();
    }

    /** Waits (real time) until every thread of the run is idle. */
    public void awaitIdle() {
        for (long i = 0; ; i++) {
            synchronized (lock) {
                if (idle()) {
                    return;
                }
                if (i > IDLE_WAIT_MILLIS * 10) {
                    List<Thread> busy = new ArrayList<>();
                    for (Thread t : threads) {
                        if (!isIdle(t)) {
                            busy.add(t);
                        }
                    }
                    throw new IllegalStateException("the run did not become idle at " + now + " ns: busy "
                            + describe(busy));
                }
            }
            if (i < 200) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(100_000); // real time: how long the driver waits between looks
            }
        }
    }

    /** Under the lock: true when every thread of the run is parked here (nothing pending) or has ended. */
    private boolean idle() {
        for (Iterator<Thread> it = threads.iterator(); it.hasNext(); ) {
            Thread t = it.next();
            if (t.getState() == Thread.State.TERMINATED) {
                it.remove();
                permits.remove(t);
            } else if (!isIdle(t)) {
                return false;
            }
        }
        return true;
    }

    private boolean isIdle(Thread t) {
        return t.getState() == Thread.State.TERMINATED || parked.containsKey(t) && !t.isInterrupted();
    }

    /** Under the lock: the parked thread to wake next (earliest time, then earliest park), or null. */
    private Map.Entry<Thread, WakeUp> earliestWakeUp() {
        Map.Entry<Thread, WakeUp> next = null;
        for (Map.Entry<Thread, WakeUp> e : parked.entrySet()) {
            if (next == null || e.getValue().before(next.getValue())) {
                next = e;
            }
        }
        return next;
    }

    /** Under the lock: sets the time to the wake-up's (never back) and wakes its thread. */
    private void wake(Map.Entry<Thread, WakeUp> next) {
        long at = next.getValue().atNanos();
        if (at > now) {
            now = at;
        }
        Thread t = next.getKey();
        parked.remove(t);
        LockSupport.unpark(t);
    }

    /** When a parked thread asked to wake, and the number of its park (earlier parks wake first at one time). */
    private record WakeUp(long atNanos, long order) {
        boolean before(WakeUp o) {
            return atNanos < o.atNanos || atNanos == o.atNanos && order < o.order;
        }
    }

    private static String describe(java.util.Collection<Thread> ts) {
        return ts.stream().map(t -> t.getName() + " (" + t.getState() + (t.isInterrupted() ? ", interrupted" : "")
                        + ") at " + Arrays.stream(t.getStackTrace()).limit(6).map(String::valueOf)
                        .collect(Collectors.joining(" < ")))
                .collect(Collectors.joining("; "));
    }
}
