package dev.pacer.ratelimit.atomic;

import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import dev.pacer.ratelimit.api.Sleeper;
import dev.pacer.ratelimit.api.StrictnessMode;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The EngineBlock limiter: a schedule of nanosecond accumulators advanced with atomic adds.
 *
 * <h2>Algorithm</h2>
 * Time is kept in {@link ScheduleUnits} (2<sup>-8</sup> ns) counted from the limiter's creation.
 * <ol>
 *   <li><b>Grant.</b> {@code scheduled = allocated.getAndAdd(slice × permits)}: the caller owns that
 *       slot, whatever happens next.</li>
 *   <li><b>Fast path.</b> If {@code scheduled ≤} the grant's own clock the slot is known to be in the
 *       past: the caller goes at once, its start is that clock and its wait {@code start − scheduled}.
 *       The grant's clock is its latest reading of the clock (or one the caller handed over with
 *       {@link Grant#sawClock}, if later), refreshed every k of its acquires (below); so a fast pass reads
 *       no shared field but the settings, and the wait it reports is a lower bound, never an
 *       overstatement.</li>
 *   <li><b>Slow path.</b> Otherwise, if the slot is at or before the published {@code horizon} it is
 *       late too (start: the later of the two readings). Else the caller reads the clock. Early by less
 *       than the park threshold: it goes at once (wait 0). Early by more: it parks for the delay minus
 *       the typical overshoot, re-reads, and repeats until within the threshold. Late: it goes, with
 *       wait {@code now − scheduled}, after its strictness mode has had its say (below).</li>
 * </ol>
 *
 * <h3>How stale a start may be</h3>
 * A grant reads the clock every k of its acquires; k doubles (up to {@value #MAX_REFRESH}) while the
 * previous k acquires took at most the staleness target (1 µs by default), falls to 1 when they took more
 * than twice it, and stays otherwise. While a caller keeps its pace, a start served from its grant's
 * clock is therefore less than twice the target old; a caller whose ops take longer than the target
 * reads the clock on every acquire (a read costs ~20 ns and no shared write), and one that slows down is
 * served from its old reading for at most the rest of one period. At 100 M late acquires/s a thread
 * reads the clock once per 64 acquires.
 *
 * <h3>The published horizon</h3>
 * A caller that read the clock on the slow path publishes the reading as {@code horizon}, if the
 * published one is at least the staleness target old, with one CAS: one winner per reading and per
 * staleness period, a single field (no pair to tear), and never on the fast path, so the horizon's line is
 * written at most once per staleness target and in practice far less. It only ever holds real readings,
 * so a slot at or below it is truly late; a slot not covered by its grant's clock is checked against it
 * before the caller reads the clock itself.
 *
 * <h3>Strictness</h3>
 * <ul>
 *   <li>{@link StrictnessMode#AVERAGE} (0): nothing more; a backlog drains as fast as callers come.</li>
 *   <li>{@link StrictnessMode#COMPENSATING} (0..1): a late caller that read the clock forfeits that
 *       fraction of the open gap {@code now − allocated} to {@code idle} (a CAS; one that loses a race
 *       retries on the gap the winner left, its witness). Clock reads that count: its own reads (on the
 *       slow path, when it claims a run, and each refresh of its grant's clock, which in this mode
 *       happens at least every {@value #MAX_REFRESH_COMPENSATING} acquires), and a reading it handed
 *       over with {@link Grant#sawClock} (once per reading); passes on the cached clock do not. A gap of
 *       one slice or less is left alone. The fraction is applied exactly, not rounded to a power of two.</li>
 *   <li>{@link StrictnessMode#STRICT} (1): grants are made by CAS as {@code g = max(allocated, now)}
 *       (a loser retries from the witness the CAS returned),
 *       {@code allocated = g + cost}, so no two grants are scheduled closer than one slice; a late
 *       caller's lateness {@code now − scheduled} is its wait and is forfeited to {@code idle}. Every
 *       strict acquire reads the clock. Starts follow the schedule to within the park threshold: a
 *       caller early by less than it goes at once rather than spin, so above about
 *       1 / threshold ops/s (~7 k/s at a 150 µs threshold) two strict ops may start closer than a
 *       slice, while the rate over any longer span holds.</li>
 *   <li>{@link StrictnessMode#BURST} (&gt; 1): no time is forfeited, but a late caller is released on a
 *       second, strict line at {@code strictness × rate}: {@code r = max(burstNext, now)},
 *       {@code burstNext = r + slice/strictness} (CAS), so a backlog drains at most that fast. An early
 *       caller whose slot is behind the line is released on it (and advances it), so the first
 *       on-schedule ops after a catch-up keep their distance too; a slot ahead of the line leaves it
 *       alone, so far-future slots held by parked threads cannot push it out.</li>
 * </ul>
 *
 * <h3>Runs of slices</h3>
 * A caller whose last slot was far behind its grant's clock ({@code ≥ 4 × 64} slices) claims its next
 * slices as a run, with one add, and hands them out from its {@link Grant}, each with its exact
 * scheduled time. Runs double from 2 to {@value LimiterSettings#MAX_RUN} slices over consecutive claims
 * while the caller stays far behind, and start from 2 again once it is not: the length follows the
 * backlog, never the caller's pace (a thread with slow ops is exact through its grant's clock, not
 * through short runs), so a thread far behind makes one add per 64 acquires at any pace, and a thread
 * that falls behind once, by a stall, holds few slices when its grant closes. Each slot of a run goes on
 * the grant's clock like any other: one that the clock has not passed (other threads' runs moved the
 * schedule on since the claim) is settled on a fresh reading and waits for its time. Runs are only claimed in the
 * fast-path modes (not strict, burst, paused or Poisson) and only used under the settings they were
 * claimed with; slices left unused when settings change or the grant closes are given back to the
 * schedule if they are still its end (one CAS), else given away as idle time, so
 * {@code allocated = permits × slice + idle + reserved} holds at all times.
 *
 * <h2>Shared fields</h2>
 * The schedule pointer ({@code allocated}), the published clock ({@code horizon}) and {@code settings},
 * each on its own cache line, are inherited from {@link LimiterFields}, which documents them and their
 * accessors. This class holds ({@code idle} and {@code burstNext} each on its own line too,
 * {@link PaddedAtomicLong}):
 * <table>
 *   <caption>who writes what</caption>
 *   <tr><th>field</th><th>writers, operation</th><th>readers may assume</th></tr>
 *   <tr><td>{@code idle}</td><td>every give-away of schedule (forfeits, paused time, a backlog shortened
 *       on a rate increase, abandoned runs, interrupted waits, a retired grant's tally): {@code getAndAdd}; strict
 *       lateness goes to the grant's own tally first ({@link GrantState#idleUnits}), so a strict acquire writes
 *       one shared line</td>
 *       <td>only grows; with the live grants' tallies, what {@code snapshot()} reports as idle</td></tr>
 *   <tr><td>{@code burstNext}</td><td>late callers in BURST mode: CAS</td>
 *       <td>the earliest release of the next late caller</td></tr>
 *   <tr><td>{@code seeds}</td><td>grant creation: {@code getAndAdd}</td>
 *       <td>each grant's Poisson generator starts from its own seed</td></tr>
 *   <tr><td>{@code rewound}, {@code rewindPoints}</td><td>a rewinding reconfigure, under the control lock:
 *       plain array store, and a plain {@code +=} on the volatile (one writer: the control lock), before it
 *       publishes the settings of that rewind generation; {@code snapshot} reads the pointer and it under the
 *       same lock</td>
 *       <td>a reader that saw settings of generation g sees every rewind point up to g</td></tr>
 *   <tr><td>{@link GrantState#parked}</td><td>its owner, volatile, around a park</td>
 *       <td>a rewind publishes its settings, then reads it and wakes the waiter, which sees them or wakes</td></tr>
 * </table>
 *
 * <h3>Rate increases with waiters ahead</h3>
 * Callers parked on slots the old, longer slice put far out (at 0.01 ops/s, 100 s apart) would hold the run at
 * that spacing long after a change back to a high rate. So a rate increase while the schedule runs ahead of the
 * clock rewinds it ({@link #reconfigure}): the pointer moves back to about one new slice past now, the rewind
 * generation in the settings goes up, and parked waiters are woken. A waiter checks its claim against the
 * generation it claimed under ({@code isStale}, on the slow path and after every park, the last time once no
 * rewind is in progress); a stale one gives its slot back as idle and acquires again. The fast path does not
 * check: a stale slot could only pass there if its owner was descheduled from before the rewind until the clock
 * passed the slot (or the rewind's thread, between its clock reading and its move, for longer than the park
 * threshold), and then it starts once, late, and is counted once.
 * Per-thread tallies live in {@link GrantState}, written by their owner only; the live grants and
 * the tallies of those gone, which {@link #snapshot()} adds up, in {@link GrantRegistry}; the grants
 * behind {@link #acquire()} are found through {@link ThreadGrants}, whose cache documents its own races.
 * Each of these classes documents its own shared fields.
 */
public final class LockFreeRateLimiter extends LimiterFields implements RateLimiter {

    /** The longest wait tryAcquire considers; longer timeouts are treated as this one. */
    private static final Duration MAX_TIMEOUT = Duration.ofNanos(1L << 50);

    /** Most acquires a grant serves from one reading of the clock (see {@link #refreshClock}). */
    static final int MAX_REFRESH = 64;
    /**
     * The same in COMPENSATING mode, where each reading closes its fraction of a backlog: a caller far
     * behind counts a reading at least every 8 acquires (and at every run claim), so a backlog closes
     * within a few dozen ops rather than a few hundred; at most one CAS per 8 acquires while behind.
     */
    static final int MAX_REFRESH_COMPENSATING = 8;

    /** Clock value at creation; positions are counted from here. */
    final long origin;
    private final NanoClock clock;
    private final Sleeper sleeper;
    private final long thresholdUnits;
    private final long overshootNanos;

    /** Schedule given away (forfeited, paused, abandoned), in units. Writers: getAndAdd. Own line. */
    private final PaddedAtomicLong idle = new PaddedAtomicLong();
    /** BURST mode: earliest release of the next late caller, in units. Writers: CAS. Own line. */
    private final PaddedAtomicLong burstNext = new PaddedAtomicLong(Long.MIN_VALUE);

    /** What a reschedule inside another's returns to it (a wait is never negative): take the next slot. */
    private static final long RESCHEDULED = -1;
    /** Rewinds remembered for waiters that slept through several (a waiter further behind is rescheduled). */
    static final int REWIND_RING = 64;
    /**
     * The point each rewind moved the schedule back to (units), at index {@code generation % REWIND_RING}:
     * written under the control lock before the settings of that generation are published, so a reader that
     * read those settings (volatile) sees it.
     */
    private final long[] rewindPoints = new long[REWIND_RING];
    /** Schedule taken back by rewinds in all (units): written under the control lock, read by snapshots. */
    private volatile long rewound;
    /**
     * The rewinds begun: set to the next generation under the control lock before a rewind reads the
     * schedule pointer (back to the current one if nothing was rewound), so it runs ahead of the published
     * {@link LimiterSettings#rewinds} while a rewind is in progress. A run's give-back reads it before its
     * CAS and gives back only if it still equals the generation the run was claimed under; a waiter's last check
     * before its grant waits while it is ahead of the settings ({@link #settledRewinds}).
     */
    private volatile int rewindsBegun;

    /** Serializes reconfigure/pause/resume; never taken by acquirers. */
    private final Object controlLock = new Object();

    /** Live grants and the tallies of those closed or collected; never touched by an acquire. */
    final GrantRegistry registry = new GrantRegistry(this);
    /** The grants behind acquire() without one: one per thread. */
    private final ThreadGrants threadGrant = new ThreadGrants(this::newGrant);

    /** Seeds for the grants' Poisson generators: each new grant takes the next. Writers: getAndAdd. */
    private final AtomicLong seeds;

    /**
     * A limiter at {@code spec} on {@code clock}, waiting with {@code sleeper}. Public for
     * {@code RateLimiters.Builder}, the entry point, which documents each setting and its default: start there.
     *
     * @param spec           rate and strictness
     * @param clock          the clock every reading comes from
     * @param sleeper        how early callers wait
     * @param stalenessNanos the target staleness of each grant's cached clock (0: no fast path), at most 1 s
     * @param arrivals       how slots are spaced
     * @param seed           the seed of the {@link Arrivals#POISSON} generators
     * @param origin         the clock reading of slot 0 (null: now)
     */
    public LockFreeRateLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, long stalenessNanos,
                               Arrivals arrivals, long seed, Long origin) {
        if (stalenessNanos < 0 || stalenessNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("fast-path staleness must be within [0, 1 s], got " + stalenessNanos
                    + " ns");
        }
        long stalenessUnits = ScheduleUnits.fromNanos(stalenessNanos);
        this.seeds = new AtomicLong(seed);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        long now = clock.nanoTime();
        this.origin = origin != null ? origin : now;
        this.thresholdUnits = ScheduleUnits.fromNanos(sleeper.parkThresholdNanos());
        this.overshootNanos = sleeper.parkOvershootNanos();
        LimiterSettings initial = LimiterSettings.initial(Objects.requireNonNull(spec, "spec"), stalenessUnits,
                Objects.requireNonNull(arrivals, "arrivals"));
        svSettings(initial);
        // no caller passes on the fast path before one has read the clock: a fast-path start is the latest
        // published reading, and none is published yet (the origin may lie behind, a process that started after
        // its test's instant, or ahead, a shard's offset; the first op may come long after this)
        svHorizon(Long.MIN_VALUE);
    }

    // ------------------------------------------------------------------------------------------------
    // Acquire: the hot path

    @Override
    public long acquire() {
        return acquireOne(threadGrant.get());
    }

    @Override
    public long acquire(long permits) {
        return acquire(permits, threadGrant.get());
    }

    @Override
    public long acquire(Grant grant) {
        AtomicGrant g = atomic(grant);
        try {
            return acquireOne(g, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible acquire was interrupted", e);
        }
    }

    @Override
    public long acquire(long permits, Grant grant) {
        AtomicGrant g = atomic(grant);
        if (permits == 1) {
            return acquireOne(g);
        }
        checkOwner(g);
        try {
            return acquireShared(permits, g, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible acquire was interrupted", e);
        }
    }

    @Override
    public long acquireInterruptibly(Grant grant) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return acquireOne(atomic(grant), true);
    }

    /**
     * {@code grant} as this limiter's kind of grant: the one type check an acquire pays for taking a
     * {@link Grant} (AtomicGrant is final, so it is a compare of the object's class). Whether it is this
     * limiter's own and still open is checked off the fast path ({@link #checkOwner}).
     */
    private static AtomicGrant atomic(Grant grant) {
        if (grant instanceof AtomicGrant g) {
            return g;
        }
        throw foreign(grant);
    }

    private static RuntimeException foreign(Grant grant) {
        return grant == null ? new NullPointerException("grant")
                : new IllegalArgumentException("this grant belongs to another limiter");
    }

    /** One permit, uninterruptibly. */
    private long acquireOne(AtomicGrant grant) {
        try {
            return acquireOne(grant, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible acquire was interrupted", e);
        }
    }

    /**
     * One permit: from the caller's run if it has one under the current settings, else a new slot (or
     * run). A slot at or before the grant's own clock goes at once; nothing shared is read for it but
     * the settings. Kept under the JIT's inlining budget (325 bytecodes): the rest is split out.
     */
    private long acquireOne(AtomicGrant grant, boolean interruptible) throws InterruptedException {
        final LimiterSettings s = lvSettings();
        final GrantState st = grant.state;
        long sch = st.runNext;
        if (sch < st.runEnd && st.runSettings == s) {
            // runs are only claimed under fast-path settings, so s allows the fast path
            st.runNext = sch + s.sliceUnits;
        } else {
            if (s.paused || s.mode == StrictnessMode.STRICT || s.poisson) {
                checkOwner(grant);
                return acquireShared(1, grant, interruptible);
            }
            sch = claim(grant, st, s);
            if (!s.fastPath) {
                // burst mode, or no cached clock: no reading but a fresh one may release this slot
                st.wantRun = false;
                return settle(sch, s.sliceUnits, 1, s, grant, interruptible);
            }
        }
        long now = grantClock(st, s);
        if (sch <= now) {
            st.wantRun = now - sch >= s.runLagUnits;
            return grant.granted(sch, now, 1);
        }
        return notCovered(sch, now, s, grant, interruptible);
    }

    /**
     * The grant's clock: its latest reading (or one handed over with {@link Grant#sawClock}), read
     * afresh every {@code refreshEvery} acquires (see {@link #refreshClock}). Owner only; no shared field.
     */
    private long grantClock(GrantState st, LimiterSettings s) {
        long c = st.clockUnits;
        if (--st.refreshLeft < 0) {
            c = refreshClock(st, s);
        }
        return Math.max(c, st.hintUnits);
    }

    /**
     * Reads the clock for a grant and sets how many acquires the reading serves: the period doubles (up
     * to {@value #MAX_REFRESH}) while the previous period took at most the staleness target, falls to 1
     * when it took more than twice it, and stays otherwise. So while the caller keeps its pace a start
     * served from the grant's clock is less than twice the staleness target old (k acquires within the
     * target, then 2k), and a caller with slow ops reads the clock on every acquire; a caller that slows
     * down is served from the old reading for at most the rest of one period. A clock read costs no
     * shared write. In COMPENSATING mode it is a reading that counts: the gap is closed by its fraction.
     */
    private long refreshClock(GrantState st, LimiterSettings s) {
        // a reading the caller handed over since the last refresh serves as one (sawClock compensated for it)
        boolean handedOver = st.hintUnits > st.refreshedUnits;
        long now = handedOver ? st.hintUnits : nowUnits();
        int k = st.refreshEvery;
        if (st.refreshedUnits != Long.MIN_VALUE) {
            long took = now - st.refreshedUnits;
            if (took <= s.stalenessUnits) {
                k = Math.min(s.compensation > 0 ? MAX_REFRESH_COMPENSATING : MAX_REFRESH, k << 1);
            } else if (took > 2 * s.stalenessUnits) {
                k = 1;
            }
        }
        st.refreshEvery = k;
        st.refreshLeft = k - 1;
        st.refreshedUnits = now;
        if (now > st.clockUnits) {
            st.clockUnits = now;
        }
        if (s.compensation > 0 && !handedOver) {
            compensate(now, s);
        }
        return now;
    }

    /**
     * A slot after the grant's clock: known to be late if at or before the published horizon (a
     * reading no older than the grant's own, so its start is no staler), else settled on a fresh reading.
     */
    private long notCovered(long sch, long grantNow, LimiterSettings s, AtomicGrant grant, boolean interruptible)
            throws InterruptedException {
        grant.state.wantRun = false;
        long h = lvHorizon();
        if (sch <= h) {
            return grant.granted(sch, Math.max(h, grantNow), 1);
        }
        return settle(sch, s.sliceUnits, 1, s, grant, interruptible);
    }

    /**
     * A new slot, or a run of slots when the caller's last slot was far behind ({@code runLag}) its clock:
     * one atomic add either way. Runs double from 2 to {@link LimiterSettings#MAX_RUN} over consecutive
     * claims while the caller stays far behind and start from 2 again once it is not; the caller's pace
     * plays no part. Each slot of a run goes only once the grant's clock has passed it.
     */
    private long claim(AtomicGrant grant, GrantState st, LimiterSettings s) {
        checkOwner(grant);
        if (st.runNext < st.runEnd) {
            abandonRun(st);
        }
        long cost = s.sliceUnits;
        if (st.wantRun && s.runLagUnits != Long.MAX_VALUE) {
            if (s.compensation > 0) {
                refreshClock(st, s); // a late caller reads the clock: close that fraction of the gap first
            }
            int run = st.runLen;
            st.runLen = Math.min(LimiterSettings.MAX_RUN, run << 1);
            long runCost = run * cost;
            long sch = getAndAddAllocated(runCost);
            st.runNext = sch + cost;
            st.runEnd = sch + runCost;
            st.runSettings = s;
            return sch;
        }
        st.runLen = GrantState.FIRST_RUN; // no longer far behind: the next backlog starts from a short run
        return getAndAddAllocated(cost);
    }

    /** Any number of permits, no runs; also the path for paused, strict and Poisson limiters. */
    private long acquireShared(long permits, AtomicGrant grant, boolean interruptible) throws InterruptedException {
        GrantState st = grant.state;
        if (st.runNext < st.runEnd) {
            abandonRun(st); // claimed under other settings, or not usable for several permits
        }
        LimiterSettings s = lvSettings();
        while (s.paused) {
            awaitResume(s, interruptible);
            s = lvSettings();
        }
        long cost = s.poisson && permits == 1 ? st.drawGap(s.sliceUnits) : ScheduleUnits.cost(permits, s.sliceUnits);
        if (s.mode == StrictnessMode.STRICT) {
            return acquireStrict(cost, permits, grant, interruptible, s);
        }
        long sch = getAndAddAllocated(cost);
        if (s.fastPath) {
            long now = grantClock(st, s);
            if (sch <= now) {
                return grant.granted(sch, now, permits);
            }
            long h = lvHorizon();
            if (sch <= h) {
                return grant.granted(sch, Math.max(h, now), permits);
            }
        }
        return settle(sch, cost, permits, s, grant, interruptible);
    }

    // ------------------------------------------------------------------------------------------------
    // Slow paths

    /** The caller owns slot {@code sch} but may be early: read the clock and decide. */
    private long settle(long sch, long cost, long permits, LimiterSettings s, AtomicGrant grant, boolean interruptible)
            throws InterruptedException {
        if (LimiterCounters.ON) {
            LimiterCounters.SLOW.increment();
        }
        if (isStale(sch, s)) {
            return reschedule(cost, permits, grant, interruptible);
        }
        long now = readClock(s);
        if (now > grant.state.clockUnits) {
            grant.state.clockUnits = now; // the grant's clock: a fresher reading serves its next acquires
        }
        if (sch > now) {
            long target = s.mode == StrictnessMode.BURST
                    ? deferToBurstLine(sch, ScheduleUnits.cost(permits, s.burstSliceUnits))
                    : sch;
            return waitFor(target, sch, now, cost, permits, grant, interruptible, s);
        }
        // if, not a switch on the enum: javac compiles that to a synthetic class loaded on its first execution, which
        // was the first late slot's in a run, after the clock had started
        if (s.mode == StrictnessMode.COMPENSATING) {
            compensate(now, s);
        } else if (s.mode == StrictnessMode.BURST) {
            long release = claimBurstRelease(now, ScheduleUnits.cost(permits, s.burstSliceUnits));
            if (release > now) {
                return waitFor(release, sch, now, cost, permits, grant, interruptible, s);
            }
        }
        return grant.granted(sch, now, permits);
    }

    /** Strict: grant at max(schedule, now) by CAS; lateness is the wait and is forfeited. */
    private long acquireStrict(long cost, long permits, AtomicGrant grant, boolean interruptible, LimiterSettings s)
            throws InterruptedException {
        long now = readClock(s);
        long a = lvAllocated();
        long g;
        while (true) {
            g = Math.max(a, now);
            long witness = caeAllocated(a, g + cost);
            if (witness == a) {
                break;
            }
            a = witness; // lost to another grant: retry from the value it left, without another load
        }
        if (g > a) {
            grant.state.forfeit(g - a); // folded into idle when the grant retires; snapshots add it meanwhile
        }
        if (g > now) {
            return waitFor(g, a, now, cost, permits, grant, interruptible, s);
        }
        return grant.granted(a, now, permits);
    }

    /**
     * Waits until {@code target} (units) if it is at least the park threshold away, and records the
     * grant of slot {@code sch} starting at the last clock reading. The slot was claimed under settings
     * {@code claimed}; a rate increase that rewinds the schedule past {@code target} meanwhile wakes the
     * waiter, which gives the slot back and takes a new one ({@link #reschedule}).
     */
    private long waitFor(long target, long sch, long now, long cost, long permits, AtomicGrant grant,
                         boolean interruptible, LimiterSettings claimed) throws InterruptedException {
        boolean interrupted = false;
        GrantState st = grant.state;
        int since = claimed.rewinds; // the slot is judged against the rewinds after this one
        try {
            while (target - now >= thresholdUnits && target - now > 0) {
                if (st.parked == null) {
                    st.parked = Thread.currentThread(); // before the check below: a rewind after it wakes us
                }
                int seen = lvSettings().rewinds;
                if (isStale(target, since, seen)) {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                    return reschedule(cost, permits, grant, interruptible);
                }
                // no rewind up to the one seen took the slot back: the next check asks only the later ones, so a
                // waiter woken by each of many small rises keeps its slot, not only one that sees fewer than the
                // ring remembers
                since = seen;
                long delayNanos = ScheduleUnits.toNanos(target - now);
                sleeper.park(Math.max(1, delayNanos - overshootNanos));
                if (Thread.interrupted()) {
                    if (interruptible) {
                        idle.getAndAdd(cost); // the slot will not be used: give its time away
                        throw new InterruptedException();
                    }
                    interrupted = true;
                }
                now = readClock(lvSettings());
            }
        } finally {
            if (st.parked != null) {
                st.parked = null;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        // a rewind while the last park ended, or one in progress (begun, its point not yet published): another's now
        if (isStale(target, since, settledRewinds())) {
            return reschedule(cost, permits, grant, interruptible);
        }
        return grant.granted(sch, now, permits);
    }

    /**
     * The rewind generation once no rewind is in progress: a rewind begun ({@link #rewindsBegun} ahead of the
     * settings) is waited out, spinning then yielding, until its settings are published or it is called off. The
     * control lock's holder finishes it without waiting for anyone. Without this, an early grant (a slot less than
     * the park threshold ahead) whose clock reading came after a rewind's but whose check came before the rewind's
     * settings took a slot past the rewind's point: the schedule then gave the same time again, and the caller's
     * next slot came before the one it had just taken (ConcurrentAcquireTest, one run in five on a slow 2-core VM).
     */
    private int settledRewinds() {
        int seen = lvSettings().rewinds;
        for (int spins = 0; rewindsBegun != seen; spins++) {
            if (spins < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
            seen = lvSettings().rewinds;
        }
        return seen;
    }

    /**
     * Whether a slot (or release time) {@code at}, claimed under settings {@code claimed}, was taken back by a
     * rewind since: some rewind after the claim moved the schedule back to a point at or before it. A later rewind
     * may move it back further than the first (a second, larger increase a few ms after the first), so every
     * rewind since the claim is asked. (A claim that raced a rewind may be judged stale though it came after it:
     * it is then given back too, leaving a one-slot hole; a stale claim is never judged valid here.) A waiter that
     * slept through more rewinds than are remembered is rescheduled.
     */
    private boolean isStale(long at, LimiterSettings claimed) {
        return isStale(at, claimed.rewinds, lvSettings().rewinds);
    }

    /** Whether one of the rewinds after {@code since} up to {@code now} (settings' generations) took {@code at}. */
    private boolean isStale(long at, int since, int now) {
        if (now == since) {
            return false;
        }
        if (now - since >= REWIND_RING / 2) {
            return true;
        }
        for (int g = since + 1; g - now <= 0; g++) {
            if (at >= rewindPoints[g & (REWIND_RING - 1)]) {
                return true;
            }
        }
        return false;
    }

    /**
     * A waiter's slot was taken back by a rewind: its time is given away as idle (the rewind counted it as
     * schedule taken back, {@link #rewound}; giving it away keeps allocated + rewound = granted + idle + reserved)
     * and the waiter takes a new slot under the settings now in force.
     */
    private long reschedule(long cost, long permits, AtomicGrant grant, boolean interruptible)
            throws InterruptedException {
        idle.getAndAdd(cost);
        GrantState st = grant.state;
        if (st.rescheduling) {
            // the new slot was taken back too: every frame between here and the outer reschedule returns what
            // it is given, so this goes straight back to that one's loop, which takes the next slot; the stack
            // stays as deep however many rewinds a wait sees
            return RESCHEDULED;
        }
        st.rescheduling = true;
        try {
            long wait;
            do {
                wait = acquireShared(permits, grant, interruptible);
            } while (wait == RESCHEDULED);
            return wait;
        } finally {
            st.rescheduling = false;
        }
    }

    /** The clock, in units since origin. */
    private long nowUnits() {
        return ScheduleUnits.fromNanos(clock.nanoTime() - origin);
    }

    /**
     * Reads the clock (units since origin) and, in the fast-path modes, publishes it as the horizon if
     * the published one is at least the staleness target old: one CAS, whose single winner per reading
     * publishes, so the horizon line is written at most once per staleness target and never torn.
     */
    private long readClock(LimiterSettings s) {
        long now = nowUnits();
        if (s.fastPath) {
            long h = lvHorizon();
            if (now > h && (h == Long.MIN_VALUE || now - h >= s.stalenessUnits)) {
                casHorizon(h, now);
            }
        }
        return now;
    }

    /**
     * COMPENSATING: forfeit the strictness fraction of the open gap {@code now − allocated}. A caller that
     * loses the CAS retries on the gap the winner left (the CAS's witness), so every reading that counts
     * closes its fraction. A gap of one slice or less is no backlog and is left alone, so callers that
     * are late by a hair at high rates do not fight over the schedule pointer.
     */
    private void compensate(long now, LimiterSettings s) {
        long a = lvAllocated();
        while (true) {
            long gap = now - a;
            if (gap <= s.sliceUnits) {
                return;
            }
            long forfeit = (long) (gap * s.compensation);
            if (forfeit <= 0) {
                return;
            }
            long witness = caeAllocated(a, a + forfeit);
            if (witness == a) {
                idle.getAndAdd(forfeit);
                return;
            }
            a = witness;
        }
    }

    /**
     * A caller handed over a clock reading ({@link Grant#sawClock}, e.g. its op's end; units since
     * origin). In COMPENSATING mode that is a clock read like any other: if the schedule is behind it,
     * that fraction of the gap is closed. Without this, callers that always bring their own reading
     * (the engine's workers, whose late slots then pass on it) would never compensate and strictness
     * 0.5 would behave as 0. Done here rather than in acquire, so the fast path pays nothing for it.
     */
    void sawClock(long units) {
        LimiterSettings s = lvSettings();
        if (s.compensation > 0) {
            compensate(units, s);
        }
    }

    /**
     * BURST, early slot: right after a catch-up the burst line can be ahead of the slot; then the slot
     * is released on the line (and advances it). Otherwise the line is left alone, so slots far in the
     * future, held by parked threads, never push it out.
     */
    private long deferToBurstLine(long sch, long burstCost) {
        long b;
        do {
            b = burstNext.get();
            if (b <= sch) {
                return sch;
            }
        } while (!burstNext.compareAndSet(b, b + burstCost));
        return b;
    }

    /** BURST: the release time of a late caller on the strict line at strictness × rate. */
    private long claimBurstRelease(long now, long burstCost) {
        long b = burstNext.get();
        while (true) {
            long r = Math.max(b, now);
            long witness = burstNext.compareAndExchange(b, r + burstCost);
            if (witness == b) {
                return r;
            }
            b = witness; // lost to another release: retry from the value it left, without another load
        }
    }

    /**
     * Returns a grant's unused run of slices: to the schedule if it is its end, else as idle time (also on
     * folds). A run claimed before a rewind (one begun since its claim) only goes to idle: its tail at or
     * after the rewind's point was counted in {@link #rewound} and is stale, and the schedule's end may
     * have been moved back and claimed up to the run's end again, so a give-back CAS could succeed on a
     * value that no longer means "nothing claimed since". Not excluded: a whole rewind between this check
     * and the CAS, followed by claims up to exactly the run's end; that needs a run ending past the rewind's
     * point (claimed, while far behind, at least the park threshold ahead of the clock), the giving thread
     * descheduled between the check and the CAS, and new claims landing exactly on the run's end (likely
     * when the old slice is a multiple of the new one). Closing it needs the check against a clock reading
     * taken before it (a run ending before that reading cannot be past a later rewind's point): not done.
     */
    void abandonRun(GrantState st) {
        long unused = st.reservedUnits();
        long from = st.runNext;
        st.runNext = st.runEnd;
        // the run's tail is still the schedule's end (nothing claimed since): give it back to the schedule,
        // so AVERAGE mode forfeits nothing; otherwise it is a hole, given away as idle time
        if (unused > 0 && (rewindsBegun != st.runSettings.rewinds || !casAllocated(st.runEnd, from))) {
            idle.getAndAdd(unused);
        }
    }

    private static void awaitResume(LimiterSettings paused, boolean interruptible) throws InterruptedException {
        if (interruptible) {
            paused.resumed.await();
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                paused.resumed.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Off the fast path (a run's slices need no check: a closed grant has none left). */
    private void checkOwner(AtomicGrant grant) {
        if (grant.limiter != this) {
            throw new IllegalArgumentException("this grant belongs to another limiter");
        }
        if (grant.state.closed) {
            throw new IllegalStateException("this grant is closed: ask the limiter for a new one");
        }
    }

    // ------------------------------------------------------------------------------------------------
    // tryAcquire: decide before reserving, so no slot is ever taken and left unused

    @Override
    public boolean tryAcquire() {
        return tryAcquire(1, Duration.ZERO);
    }

    @Override
    public boolean tryAcquire(Grant grant) {
        AtomicGrant g = atomic(grant);
        checkOwner(g);
        LimiterSettings s = lvSettings();
        GrantState st = g.state;
        long sch = st.runNext;
        if (sch < st.runEnd && st.runSettings == s) { // the grant's own run first: its slots are claimed already
            long now = readClock(s);
            if (sch > now) {
                return false;
            }
            st.runNext = sch + s.sliceUnits;
            g.granted(sch, now, 1);
            return true;
        }
        return tryAcquire(g, 1, Duration.ZERO);
    }

    @Override
    public boolean tryAcquire(long permits, Duration timeout) {
        return tryAcquire(threadGrant.get(), permits, timeout);
    }

    private boolean tryAcquire(AtomicGrant grant, long permits, Duration timeout) {
        // at most 2^50 ns (13 days): longer timeouts mean the same and would overflow the arithmetic
        long leftNanos = timeout.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT.toNanos() : Math.max(0, timeout.toNanos());
        LimiterSettings s = lvSettings();
        if (s.paused) {
            long deadline = clock.nanoTime() + leftNanos;
            while (s.paused) {
                long left = deadline - clock.nanoTime();
                try {
                    if (left <= 0 || !s.resumed.await(left, TimeUnit.NANOSECONDS)) {
                        return false;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                s = lvSettings();
            }
            leftNanos = Math.max(0, deadline - clock.nanoTime());
        }
        long cost = s.poisson && permits == 1 ? grant.state.drawGap(s.sliceUnits)
                : ScheduleUnits.cost(permits, s.sliceUnits);
        long now = readClock(s);
        long timeoutUnits = ScheduleUnits.fromNanos(leftNanos);
        if (s.mode == StrictnessMode.COMPENSATING) {
            compensate(now, s);
        }
        long a;
        long release;
        long next;
        do {
            a = lvAllocated();
            if (s.mode == StrictnessMode.STRICT) {
                release = Math.max(a, now);
                next = release + cost;
            } else {
                release = s.mode == StrictnessMode.BURST ? Math.max(burstNext.get(), Math.max(a, now)) : a;
                next = a + cost;
            }
            if (release - now > timeoutUnits) {
                return false;
            }
        } while (!casAllocated(a, next));
        if (s.mode == StrictnessMode.STRICT && release > a) {
            grant.state.forfeit(release - a);
        }
        if (s.mode == StrictnessMode.BURST) {
            long burstCost = ScheduleUnits.cost(permits, s.burstSliceUnits);
            release = a <= now ? claimBurstRelease(now, burstCost) : deferToBurstLine(a, burstCost);
        }
        try {
            waitFor(Math.max(release, a), a, now, cost, permits, grant, false, s);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------------
    // Control: rare, serialized by controlLock, never blocks acquirers

    @Override
    public void reconfigure(RateSpec spec) {
        Objects.requireNonNull(spec, "spec");
        synchronized (controlLock) {
            LimiterSettings old = lvSettings();
            LimiterSettings next = old.withSpec(spec);
            boolean rewind = next.sliceUnits < old.sliceUnits && rewindFuture(old, next.sliceUnits);
            if (rewind) {
                next = next.rewound();
            }
            svSettings(next);
            if (!next.fastPath) {
                soHorizon(Long.MIN_VALUE);
            }
            if (rewind) {
                registry.wakeParked(sleeper); // after the settings: a waiter sees them or is woken
            } else if (next.sliceUnits < old.sliceUnits) {
                keepBacklogInOps(old, next.sliceUnits);
            }
        }
    }

    /**
     * On a rate increase while the schedule runs ahead of the clock (callers hold slots in the future, spaced
     * at the old, longer slice), moves the schedule pointer back, and the burst line with it, to the point
     * {@code now + min(ahead, old slice) × new slice / old slice}: the slot in progress (the op that started
     * last owns the schedule up to its slice's end) keeps its share in ops, one new slice at most, and every
     * slot at or after the point is stale. With Poisson arrivals the gaps ahead are random and on no grid, so
     * all of the time ahead is scaled: {@code now + ahead × new slice / old slice}. The point is at least the
     * park threshold ahead of now (a caller early by less goes without parking, so those slots may have started)
     * and never past the pointer. While paused
     * "now" is the pause's start: the resume gives the paused time away as usual. A stale slot's waiter is woken
     * (after the new settings are published), gives its slot back as idle and takes a new one at the new slice,
     * so the change shows within one new slice (or the park threshold) however long the old one was. Slots
     * before the point keep their times. The schedule taken back is counted in {@link #rewound}, so the
     * accounting stays exact: allocated + rewound = granted + idle + reserved. A claim that raced the pointer's
     * move lands after the point and is given back too: a hole of one slot at most per racer. Called under the
     * control lock, before the new settings are published; true if it rewound.
     */
    private boolean rewindFuture(LimiterSettings old, long newSlice) {
        // before the clock and the pointer are read: runs' give-backs go to idle from here, and an early grant that
        // does not see it read its clock before this rewind's reading (waitFor), so its slot is before the point
        rewindsBegun = old.rewinds + 1;
        long now = readClock(old);
        long from = old.paused ? Math.min(now, old.pausedAtUnits) : now;
        long a = lvAllocated();
        long point;
        boolean rewind = false;
        while (true) {
            // Poisson: the gaps ahead are random, many times the mean or a fraction of it, and on no grid: all of
            // the time ahead is scaled, as the process at the new rate would space it; cut to one mean, every
            // rise would shorten a long gap (and never lengthen a short one) and a ramp would over-deliver
            long inProgress = old.poisson ? Math.max(0, a - from) : Math.min(Math.max(0, a - from), old.sliceUnits);
            // slots within the park threshold may have gone already (early callers below it do not park): kept
            long share = (long) ((double) inProgress * newSlice / old.sliceUnits);
            point = Math.min(a, from + Math.max(thresholdUnits, share));
            // the last slot kept (the latest one before the point, on the old slice's grid back from the
            // pointer: several waiting threads hold several) is followed one new slice after it, not sooner: a
            // ramp raising the rate every few ms would otherwise slip in an extra op per waiter at each step
            if (a > point && !old.poisson) {
                long kept = a - old.sliceUnits * ((a - point) / old.sliceUnits + 1);
                point = Math.min(a, Math.max(point, kept + newSlice));
            }
            if (a <= point) {
                break;
            }
            // a CAS, not an add: a run's give-back (which moves the pointer back too) that lands between the
            // read and the move is seen, never undone; a lost CAS retries from the witness, and claims that
            // landed meanwhile are after the point, given back like the rest
            long witness = caeAllocated(a, point);
            if (witness == a) {
                rewound += a - point;
                rewind = true;
                break;
            }
            a = witness;
        }
        for (long b = burstNext.get(); b > point; b = burstNext.get()) {
            if (burstNext.compareAndSet(b, point)) {
                rewind = true;
                break;
            }
        }
        if (rewind) {
            rewindPoints[(old.rewinds + 1) & (REWIND_RING - 1)] = point;
        } else {
            rewindsBegun = old.rewinds;
        }
        return rewind;
    }

    /**
     * On a rate increase while behind, the backlog keeps its size in ops, not in time: a gap of
     * 50 ms at 1 000 ops/s (50 ops owed) becomes 5 ms at 10 000 ops/s, not 500 ops. The difference is
     * given away as idle time. (On a decrease the gap keeps its time; moving the schedule back would
     * hand out time twice.) While paused the backlog is what was owed when the pause began: the paused
     * time itself is given away by {@link #resume()}, so counting it here too would forfeit it twice and
     * leave the schedule ahead of the clock after the resume.
     */
    private void keepBacklogInOps(LimiterSettings old, long newSlice) {
        long now = readClock(lvSettings()); // the new settings are in force already
        long owedUntil = old.paused ? Math.min(now, old.pausedAtUnits) : now;
        long a = lvAllocated();
        long gap = owedUntil - a;
        if (gap > 0) {
            long shift = gap - (long) ((double) gap * newSlice / old.sliceUnits);
            if (shift > 0) {
                getAndAddAllocated(shift);
                idle.getAndAdd(shift);
            }
        }
    }

    @Override
    public RateSpec spec() {
        return lvSettings().spec;
    }

    @Override
    public Arrivals arrivals() {
        return lvSettings().poisson ? Arrivals.POISSON : Arrivals.UNIFORM;
    }

    @Override
    public long originNanos() {
        return origin;
    }

    @Override
    public void pause() {
        synchronized (controlLock) {
            LimiterSettings s = lvSettings();
            if (!s.paused) {
                svSettings(s.pausedAt(readClock(s)));
            }
        }
    }

    @Override
    public void resume() {
        synchronized (controlLock) {
            LimiterSettings s = lvSettings();
            if (s.paused) {
                long pausedFor = readClock(s) - s.pausedAtUnits;
                if (pausedFor > 0) {
                    getAndAddAllocated(pausedFor);
                    idle.getAndAdd(pausedFor);
                }
                svSettings(s.unpaused());
                s.resumed.countDown();
            }
        }
    }

    @Override
    public boolean isPaused() {
        return lvSettings().paused;
    }

    // ------------------------------------------------------------------------------------------------
    // Grants and accounting

    @Override
    public Grant newGrant() {
        return newGrant(-1);
    }

    /** A grant; {@code ownerThreadId} names the thread it is kept for behind {@link #acquire()}, or -1. */
    AtomicGrant newGrant(long ownerThreadId) {
        AtomicGrant grant = new AtomicGrant(this, new GrantState(seeds.getAndAdd(0x632BE59BD9B4E019L)), ownerThreadId);
        registry.register(grant);
        return grant;
    }

    @Override
    public LimiterSnapshot snapshot() {
        registry.foldCollected();
        LimiterSettings s = lvSettings();
        long idleUnits = idle.get(); // before the grants: a grant folded in between is missed, never counted twice
        GrantRegistry.Totals t = registry.totals();
        long a;
        long advance;
        synchronized (controlLock) { // a rewind moves the pointer and counts rewound under it: read the pair whole
            a = lvAllocated();
            advance = a + rewound;
        }
        long now = ScheduleUnits.fromNanos(clock.nanoTime() - origin);
        return new LimiterSnapshot(s.spec, s.paused, ScheduleUnits.toNanos(advance),
                ScheduleUnits.toNanos(idleUnits + t.idleUnits()), ScheduleUnits.toNanos(t.reservedUnits()),
                t.permits(), t.waitNanos(), ScheduleUnits.toNanos(now - a));
    }

    /**
     * How far the schedule has advanced in units: the pointer plus what rewinds took back (for tests of the
     * accounting invariant, allocated = granted + idle + reserved).
     */
    long allocatedUnits() {
        synchronized (controlLock) { // the pointer and rewound as one rewind left them
            return lvAllocated() + rewound;
        }
    }

    /** Idle time in units (for tests of the accounting invariant). */
    long idleUnits() {
        long retired = idle.get();
        return retired + registry.totals().idleUnits();
    }

    /** Takes a folded grant's idle tally ({@link GrantState#idleUnits}) into {@code idle}. */
    void giveIdle(long units) {
        if (units != 0) {
            idle.getAndAdd(units);
        }
    }

    /** The slice in force, in units. */
    long sliceUnits() {
        return lvSettings().sliceUnits;
    }

    @Override
    public String toString() {
        return "LockFreeRateLimiter[" + lvSettings().spec + (lvSettings().paused ? ", paused" : "") + "]";
    }
}
