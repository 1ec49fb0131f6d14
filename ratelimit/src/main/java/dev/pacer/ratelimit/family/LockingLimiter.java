package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The base of the limiter family: every design but the atomic default ({@code LockFreeRateLimiter}, in the atomic
 * package).
 * Each models a limiter from the field (a token bucket, Guava's warm-up, a sliding window...) so a test
 * can reproduce the load that limiter lets through; they are built for fidelity, not for speed.
 *
 * <h2>How a design plugs in</h2>
 * A design answers one question, under this class's lock: <em>when may these permits start?</em>
 * {@link #reserve} answers it and commits the permits to that time (the caller will start then:
 * Guava's "the next caller pays" model); {@link #earliest} answers it without committing, for
 * {@code tryAcquire}. This class does the rest the same way for every design: waiting (parking on the
 * {@link Sleeper}, never spinning), grants and tallies, pause and resume, and reconfiguration.
 *
 * <h2>Wait time</h2>
 * These designs have no schedule of slots, so an op's <b>scheduled time is when its caller asked</b>
 * (the clock when {@code acquire} was called, or when a pause it waited out ended) and its wait is how
 * long the limiter held it: start − asked. That is what a client behind such a limiter sees. Unlike the
 * atomic limiter's, it is not corrected for coordinated omission: a caller that came late because its
 * previous op was slow is not charged for it.
 *
 * <h2>Rate increases</h2>
 * A design that prices waits at the rate ({@link #reschedulesWaiters}) moves its future times nearer by the ratio
 * of the rates on an increase ({@link #rescheduled}), and its waiters, woken, move their starts by the same map:
 * a caller priced at 0.01 ops/s (100 s out) starts where the new rate puts it, its place in the queue kept. A
 * caller refused and waiting to ask again (a full window, a full queue) is woken by any increase and asks again.
 *
 * <h2>Threads</h2>
 * All methods are thread-safe. Shared state is guarded by {@link #lock}: a design's own fields are
 * read and written only inside {@link #reserve}, {@link #earliest}, {@link #retune} and
 * {@link #resumed}, which this class calls with the lock held. {@link #spec} is also volatile so
 * {@link #spec()} reads it without the lock. The tallies are {@link LongAdder}s, added after the wait
 * by each acquiring thread; {@link #snapshot()} sums them (each sum exact as of some instant).
 * Strictness does not apply: a spec with a strictness other than 0 is refused.
 */
public abstract class LockingLimiter implements RateLimiter {

    /**
     * The clock every decision reads; {@code now} arguments are its readings, never before
     * {@link #originNanos()} (a caller before the origin is handled as if it asked at the origin).
     */
    protected final NanoClock clock;
    private final Sleeper sleeper;
    private final long origin;
    private final String name;

    /** Guards the design's state, {@link #paused} and {@link #pausedAt}. */
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition resumed = lock.newCondition();
    /** Written under the lock; volatile for {@link #spec()}. */
    private volatile RateSpec spec;
    /** Under the lock; volatile for {@link #isPaused()}. */
    private volatile boolean paused;
    /**
     * What the latest rate change reset: written by {@link #reconfigure} under the lock; volatile for {@link
     * #rateChangeNote()}.
     */
    private volatile String changeNote = "";
    /** Under the lock: the clock when the current pause began. */
    private long pausedAt;

    /** Rate increases remembered for waiters that slept through several (one further behind goes at once). */
    private static final int RESCHEDULE_RING = 64;
    /**
     * How many rate increases have moved waiters earlier (the reschedule generation): written under the lock,
     * volatile for waiters, which read it outside the lock. Reschedule {@code g} maps a start {@code t} after
     * {@code rescheduleAt[g % RING]} to {@code at + (t − at) × rescheduleFactor[g % RING]}; both arrays are written
     * under the lock before the generation is, so a waiter that read the generation sees them.
     */
    private volatile int reschedules;
    private final long[] rescheduleAt = new long[RESCHEDULE_RING];
    private final double[] rescheduleFactor = new double[RESCHEDULE_RING];
    /** Under the lock, during {@link #retune} only: the map of the change in progress (factor 1: none). */
    private long retuneAt;
    private double retuneFactor = 1;
    /** Threads parked waiting for their start: each adds and removes itself; reconfigure wakes them. */
    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();

    /** Permits granted and the sum of waits (ns); each acquirer adds after its wait. */
    private final LongAdder permits = new LongAdder();
    private final LongAdder waitSum = new LongAdder();
    /** Requests refused and asked again; each refused caller adds. */
    private final LongAdder refusals = new LongAdder();
    /** The grant behind {@link #acquire()} and {@link #tryAcquire}, one per thread. */
    private final ThreadLocal<LockingGrant> threadGrants = ThreadLocal.withInitial(() -> new LockingGrant(this));

    /**
     * @param origin when the limiter opens, on the clock's scale (null: now); nothing starts before it,
     *               and designs start their state there (a bucket is full then, a window opens then)
     */
    protected LockingLimiter(String name, RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin) {
        this.name = name;
        this.spec = checkSpec(name, spec);
        this.clock = clock;
        this.sleeper = sleeper;
        this.origin = origin != null ? origin : clock.nanoTime();
    }

    // ------------------------------------------------------------------------------------------------
    // What a design implements; all called with the lock held

    /**
     * Commits {@code permits} and returns when they may start: {@code now} or later; or {@link #REFUSED}
     * when the design turns the request away (a full queue, a full window): the caller then waits until
     * {@link #retryAt} and asks again, and the refusal is counted. Called with the lock held; the caller
     * waits until the returned time and starts.
     */
    protected abstract long reserve(long permits, long now);

    /**
     * As {@link #reserve(long, long)} for an op that also carries {@code bytes} (≥ 0), from
     * {@link #acquireInterruptibly(Grant, long)}: a design that meters bytes ({@link #metersBytes()}) charges
     * them in the same reservation. Called with the lock held. Default: the bytes are ignored.
     */
    protected long reserve(long permits, long bytes, long now) {
        return reserve(permits, now);
    }

    /** What {@link #reserve} returns for a refused request. */
    protected static final long REFUSED = Long.MIN_VALUE;

    /**
     * When a caller refused at {@code now} asks again: the first time the design would accept it, were
     * nobody else to ask first. Called with the lock held, right after {@link #reserve} refused. Default:
     * {@link #earliest}.
     */
    protected long retryAt(long permits, long now) {
        return earliest(permits, now);
    }

    /**
     * When {@code permits} could start if reserved now, without reserving them: what {@link #reserve}
     * would return. Called with the lock held. {@link Long#MAX_VALUE} if they never could.
     */
    protected abstract long earliest(long permits, long now);

    /**
     * Applies a new rate; the design keeps what state it can. Called with the lock held.
     *
     * @return what the change reset, for the change's log line (e.g. "the window's count"), or "" if nothing
     */
    protected abstract String retune(RateSpec old, RateSpec now, long nowNanos);

    /**
     * Whether this design's retune moves its future times with {@link #rescheduled} on a rate increase, so its
     * waiters may be moved the same way: a waiter whose start was priced at the old, slower rate then starts
     * where the new rate puts it (its place in the queue kept, the queue's length kept in ops), instead of
     * waiting out the old price. Default false: a design whose waits are bounded by its own period (the
     * windows) keeps its waiters' starts.
     */
    protected boolean reschedulesWaiters() {
        return false;
    }

    /**
     * During {@link #retune} of a rate increase in a design that {@link #reschedulesWaiters}: {@code t} (the
     * clock's scale) moved as the change moves its waiters: a time after the change's {@code now} comes nearer
     * by the ratio of the rates (new interval / old interval); a time not after it is kept. Otherwise {@code t}.
     */
    protected final long rescheduled(long t) {
        return remap(t, retuneAt, retuneFactor);
    }

    /** The ratio {@link #rescheduled} moves future times by during {@link #retune} (new interval / old); 1 if none. */
    protected final double rescheduleFactor() {
        return retuneFactor;
    }

    private static long remap(long t, long at, double factor) {
        return factor < 1 && t - at > 0 ? at + (long) ((t - at) * factor) : t;
    }

    /**
     * A pause of {@code pausedNanos} has just ended. Default: nothing, so the paused time counts as the
     * design would count any idle time (a bucket refills). Called with the lock held.
     */
    protected void resumed(long pausedNanos, long now) {
    }

    /** The design's name as {@code --limiter} takes it. */
    public final String name() {
        return name;
    }

    // ------------------------------------------------------------------------------------------------
    // Acquiring

    @Override
    public long acquire() {
        return acquire(1, threadGrants.get());
    }

    @Override
    public long acquire(long permits) {
        return acquire(permits, threadGrants.get());
    }

    @Override
    public long acquire(Grant grant) {
        return acquire(1, grant);
    }

    @Override
    public long acquire(long permits, Grant grant) {
        LockingGrant g = checkGrant(grant, permits);
        try {
            return take(g, permits, 0, false, NO_TIMEOUT);
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible acquire was interrupted", e);
        }
    }

    @Override
    public long acquireInterruptibly(Grant grant) throws InterruptedException {
        return acquireInterruptibly(grant, 0);
    }

    /** As {@link #acquireInterruptibly(Grant)}, reserving with {@link #reserve(long, long, long)}. */
    @Override
    public long acquireInterruptibly(Grant grant, long bytes) throws InterruptedException {
        LockingGrant g = checkGrant(grant, 1);
        if (bytes < 0 && metersBytes()) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        // interrupted while waiting for its start: the reserved permit is lost, as if given away
        return take(g, 1, bytes, true, NO_TIMEOUT);
    }

    @Override
    public boolean tryAcquire() {
        return tryAcquire(1, Duration.ZERO);
    }

    @Override
    public boolean tryAcquire(Grant grant) {
        try {
            return take(checkGrant(grant, 1), 1, 0, false, 0) >= 0;
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible tryAcquire was interrupted", e);
        }
    }

    @Override
    public boolean tryAcquire(long permits, Duration timeout) {
        LockingGrant grant = checkGrant(threadGrants.get(), permits);
        try {
            return take(grant, permits, 0, false, Math.max(0, Math.min(timeout.toNanos(), Long.MAX_VALUE / 4))) >= 0;
        } catch (InterruptedException e) {
            throw new AssertionError("an uninterruptible tryAcquire was interrupted", e);
        }
    }

    /** {@link #take}'s timeout for a caller that waits as long as it takes, pauses included. */
    private static final long NO_TIMEOUT = -1;

    /**
     * Every acquire: asks the design under the lock, waits for the start it gives (or, refused, for its retry
     * time and asks again), records the grant and returns the wait. With a timeout (≥ 0: tryAcquire) it gives up
     * and returns -1, reserving nothing, when paused or when the design's earliest start or retry lies past the
     * deadline. Uninterruptible unless {@code interruptible}: then the interrupt status is kept.
     */
    private long take(LockingGrant grant, long permits, long bytes, boolean interruptible,
            long timeout) throws InterruptedException {
        long asked = Math.max(clock.nanoTime(), origin);
        boolean trying = timeout >= 0;
        long deadline = asked + timeout;
        long now = asked;
        for (;;) {
            long start;
            long retry = 0;
            int generation;
            if (interruptible) {
                lock.lockInterruptibly();
            } else {
                lock.lock();
            }
            try {
                if (paused) {
                    if (trying) {
                        return -1;
                    }
                    while (paused) {
                        if (interruptible) {
                            resumed.await();
                        } else {
                            resumed.awaitUninterruptibly();
                        }
                    }
                    asked = now = clock.nanoTime();
                }
                if (trying) {
                    long e = earliest(permits, now);
                    if (e == Long.MAX_VALUE || e - deadline > 0) {
                        return -1;
                    }
                }
                start = reserve(permits, bytes, now);
                if (start == REFUSED) {
                    retry = retryAt(permits, now);
                }
                generation = reschedules;
            } finally {
                lock.unlock();
            }
            if (start != REFUSED) {
                return record(grant, asked, waitUntil(Math.max(now, start), interruptible, generation, false), permits);
            }
            refusals.increment();
            if (trying && retry - deadline > 0) {
                return -1;
            }
            now = waitUntil(Math.max(retry, now + 1), interruptible, generation, true);
        }
    }

    /**
     * Parks until the clock reaches {@code start}; returns the last reading (≥ start unless within the park
     * threshold). An interrupt throws when {@code interruptible}; otherwise it is kept and set again on return.
     * A rate increase after reschedule {@code generation} moves {@code start} nearer as it moved the design's
     * times; a {@code refused} caller, which holds nothing, returns at once to ask again.
     */
    private long waitUntil(long start, boolean interruptible, int generation, boolean refused)
            throws InterruptedException {
        long now = clock.nanoTime();
        long threshold = sleeper.parkThresholdNanos();
        long overshoot = sleeper.parkOvershootNanos();
        boolean interrupted = false;
        Thread me = null;
        try {
            while (start - now >= Math.max(1, threshold)) {
                if (me == null) {
                    me = Thread.currentThread();
                    waiting.add(me); // before the check below: a reschedule after it wakes this thread
                }
                int g = reschedules;
                if (g != generation) {
                    if (refused) {
                        start = now; // a refused caller holds nothing: it asks again under the new rate now
                        break;
                    }
                    start = moved(start, generation, g, now);
                    generation = g;
                    continue;
                }
                sleeper.park(Math.max(1, start - now - overshoot));
                if (Thread.interrupted()) {
                    if (interruptible) {
                        throw new InterruptedException();
                    }
                    interrupted = true; // a park returns at once while the status is set: cleared here, set again below
                }
                now = clock.nanoTime();
            }
        } finally {
            if (me != null) {
                waiting.remove(me);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return Math.max(now, start);
    }

    /**
     * A start priced at reschedule generation {@code from}, moved by every reschedule since, up to {@code to}; a
     * waiter that slept through more than are remembered goes {@code now}.
     */
    private long moved(long start, int from, int to, long now) {
        if (to - from >= RESCHEDULE_RING / 2) {
            return now;
        }
        for (int g = from + 1; g - to <= 0; g++) {
            start = remap(start, rescheduleAt[g & (RESCHEDULE_RING - 1)], rescheduleFactor[g & (RESCHEDULE_RING - 1)]);
        }
        return start;
    }

    private long record(LockingGrant grant, long asked, long started, long n) {
        long wait = grant.granted(ScheduleUnits.fromNanos(asked - origin), ScheduleUnits.fromNanos(started - origin),
                n);
        permits.add(n);
        waitSum.add(wait);
        return wait;
    }

    /** {@code grant} as this limiter's own kind, if it is one of its grants, open, and {@code n} is a count. */
    private LockingGrant checkGrant(Grant grant, long n) {
        if (!(grant instanceof LockingGrant g) || g.limiter != this) {
            throw grant == null ? new NullPointerException("grant")
                    : new IllegalArgumentException("this grant belongs to another limiter");
        }
        if (g.closed) {
            throw new IllegalStateException("this grant is closed: ask the limiter for a new one");
        }
        if (n < 1) {
            throw new IllegalArgumentException("permits must be >= 1, got " + n);
        }
        return g;
    }

    @Override
    public Grant newGrant() {
        return new LockingGrant(this);
    }

    // ------------------------------------------------------------------------------------------------
    // Control

    @Override
    public void reconfigure(RateSpec newSpec) {
        checkSpec(name, newSpec);
        lock.lock();
        try {
            RateSpec old = spec;
            long now = clock.nanoTime();
            double factor = old.opsPerSecond() / newSpec.opsPerSecond();
            retuneAt = now;
            retuneFactor = reschedulesWaiters() && factor < 1 ? factor : 1;
            try {
                changeNote = retune(old, newSpec, now);
                spec = newSpec;
                if (factor < 1) { // an increase: refused callers ask again, and priced waits move (factor < 1)
                    int g = reschedules + 1;
                    rescheduleAt[g & (RESCHEDULE_RING - 1)] = now;
                    rescheduleFactor[g & (RESCHEDULE_RING - 1)] = retuneFactor;
                    reschedules = g;
                    for (Thread t : waiting) { // after the generation: a waiter sees it or is woken
                        sleeper.wake(t);
                    }
                }
            } finally {
                retuneFactor = 1;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * What the latest rate change reset, as its design's {@link #retune} said ("" before any, or when it kept
     * everything).
     */
    @Override
    public final String rateChangeNote() {
        return changeNote;
    }

    @Override
    public RateSpec spec() {
        return spec;
    }

    @Override
    public long originNanos() {
        return origin;
    }

    @Override
    public void pause() {
        lock.lock();
        try {
            if (!paused) {
                paused = true;
                pausedAt = clock.nanoTime();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void resume() {
        lock.lock();
        try {
            if (paused) {
                paused = false;
                long now = clock.nanoTime();
                resumed(now - pausedAt, now);
                resumed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isPaused() {
        return paused;
    }

    /**
     * Permits, waits and refusals; the schedule accumulators (allocated, idle, reserved, lag) belong to the atomic
     * limiter and are 0 here.
     */
    @Override
    public LimiterSnapshot snapshot() {
        return new LimiterSnapshot(spec, paused, 0, 0, 0, permits.sum(), waitSum.sum(), 0, refusals.sum(), name);
    }

    @Override
    public String toString() {
        return name + " limiter at " + spec;
    }

    // ------------------------------------------------------------------------------------------------
    // Helpers for designs

    /** Nanoseconds per permit at {@code spec}'s rate (rounded to a whole nanosecond, at least 1). */
    protected static long intervalNanos(RateSpec spec) {
        return Math.max(1, Math.round(1e9 / spec.opsPerSecond()));
    }

    /** {@code a × b / c} without overflow for the magnitudes limiters use (clamped to Long.MAX_VALUE). */
    protected static long mulDiv(long a, long b, long c) {
        return Math.multiplyHigh(a, b) == 0 && a * b >= 0 ? a * b / c
                : java.math.BigInteger.valueOf(a).multiply(java.math.BigInteger.valueOf(b))
                        .divide(java.math.BigInteger.valueOf(c)).min(java.math.BigInteger.valueOf(Long.MAX_VALUE))
                                .longValue();
    }

    static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private static RateSpec checkSpec(String name, RateSpec spec) {
        if (spec.strictness() != RateSpec.DEFAULT_STRICTNESS) {
            throw new IllegalArgumentException("the " + name + " limiter has no strictness (only the atomic limiter "
                    + "has); got "
                    + spec.strictness());
        }
        return spec;
    }
}
