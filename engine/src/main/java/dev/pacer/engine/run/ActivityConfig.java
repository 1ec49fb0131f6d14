package dev.pacer.engine.run;

import dev.pacer.engine.api.Shard;

import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.api.Durations;

import dev.pacer.engine.api.OpSpec;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What an activity runs: the op, how many workers, at what rate, for how long.
 *
 * @param op             the op to run
 * @param threads        workers at start, 1 .. {@link #maxThreads(boolean)}
 * @param virtualThreads run workers as virtual threads
 * @param rate           the target rate, or null for unpaced (as fast as the workers go)
 * @param duration       stop after this long, or null
 * @param cycles         stop after this many ops, or 0 for no limit
 * @param maxInFlight    asynchronous ops: the most in flight at once, or 0 for the op's own bound
 *                       (see {@code AsyncOp#capacity()}), else {@link Activity#DEFAULT_MAX_IN_FLIGHT}
 * @param arrivals       how the limiter spaces slots (uniform or Poisson); ignored when unpaced
 * @param seed           the seed of the Poisson arrivals' generators, or null for a random one
 * @param shard          this process's share of a test run as several, or null for the whole test; then
 *                       {@code rate} (and every later rate) is the test's global rate, and {@code cycles} its
 *                       global cycle limit
 * @param startAt        the wall-clock instant the test's schedule starts, or null for as soon as set up
 * @param limiter        the limiter design that paces it (default {@link LimiterDesign#ATOMIC})
 * @param pacingTick     the shortest wait a worker parks for ({@link dev.pacer.ratelimit.api.TickSleeper}): a worker
 *                       wakes at most once per tick and takes every slot due by then, each late by its wait; or null
 *                       for the machine's finest (slots early by less than the park threshold go at once)
 */
public record ActivityConfig(OpSpec op, int threads, boolean virtualThreads, RateSpec rate, Duration duration,
                             long cycles, int maxInFlight, Arrivals arrivals, Long seed, Shard shard,
                             Instant startAt, LimiterDesign limiter, Duration pacingTick) {

    /** Platform threads are real OS threads: more than this is a mistake on any machine. */
    public static final int MAX_PLATFORM_THREADS = 4_096;
    /** Virtual threads are cheap, but each holds a grant and a stack: bounded all the same. */
    public static final int MAX_VIRTUAL_THREADS = 100_000;
    /** Ops in flight at once, at most: each has a slot of the run's, made when it starts (about 80 bytes). */
    public static final int MAX_IN_FLIGHT = 1_000_000;

    public ActivityConfig {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(arrivals, "arrivals");
        Objects.requireNonNull(limiter, "limiter");
        if (!limiter.isAtomic() && arrivals != Arrivals.UNIFORM) {
            throw new SettingException("arrivals", arrivals.toString(), "needs the atomic limiter, not "
                    + limiter.name());
        }
        if (!limiter.isAtomic() && rate != null && rate.strictness() != RateSpec.DEFAULT_STRICTNESS) {
            throw new SettingException("strictness",
                    RateSpec.of(1).withStrictness(rate.strictness()).toString().replaceFirst("^[^,]*,", ""),
                    "applies to the atomic limiter only; the " + limiter.name() + " limiter has none");
        }
        if (rate != null) {
            RateSpec mine;
            try {
                mine = share(shard, rate);
            } catch (IllegalArgumentException e) { // a share below the least rate: the test's rate is what was given
                throw new SettingException("rate", rate.toString().replaceFirst(",0$", ""), "as shard " + shard
                        + " this process runs 1/" + shard.count() + " of it: " + e.getMessage());
            }
            checkDesign(limiter, mine); // options fine at some rates only are judged at this one
        }
        checkThreads(threads, virtualThreads);
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new SettingException("duration", Durations.format(duration), "must be greater than 0");
        }
        if (duration != null && duration.compareTo(Durations.MAX) > 0) {
            throw new SettingException("duration", duration.toString(), "too long: at most " + Durations.MAX_TEXT);
        }
        if (cycles < 0) {
            throw new SettingException("cycles", Long.toString(cycles), "must not be negative");
        }
        if (maxInFlight < 0) {
            throw new SettingException("max-in-flight", Integer.toString(maxInFlight), "must not be negative");
        }
        if (maxInFlight > MAX_IN_FLIGHT) { // each is a slot made when the run starts
            throw new SettingException("max-in-flight", Integer.toString(maxInFlight), "must be at most "
                    + MAX_IN_FLIGHT);
        }
        if (startAt != null) {
            checkStartAt(startAt, testLength(duration, cycles, rate), Instant.now(), "this process started");
        }
        checkPacingTick(pacingTick);
        if (pacingTick != null && rate != null) {
            checkStrictnessWithTick(rate.strictness());
        }
    }

    /** An activity paced at the machine's finest (no {@link #pacingTick}). */
    public ActivityConfig(OpSpec op, int threads, boolean virtualThreads, RateSpec rate, Duration duration,
                          long cycles, int maxInFlight, Arrivals arrivals, Long seed, Shard shard,
                          Instant startAt, LimiterDesign limiter) {
        this(op, threads, virtualThreads, rate, duration, cycles, maxInFlight, arrivals, seed, shard, startAt, limiter,
                null);
    }

    /** The longest pacing tick: longer ones would batch a tenth of a second of slots into one burst. */
    public static final Duration MAX_PACING_TICK = Duration.ofMillis(100);

    /** Refuses a pacing tick that is not above 0 or is above {@link #MAX_PACING_TICK}. */
    static void checkPacingTick(Duration tick) {
        if (tick != null && (tick.isNegative() || tick.isZero() || tick.compareTo(MAX_PACING_TICK) > 0)) {
            throw new SettingException("pacing-tick", Durations.format(tick), "must be above 0 and at most "
                    + Durations.format(MAX_PACING_TICK));
        }
    }

    /**
     * Refuses a strictness other than 0 with a pacing tick: each op's lateness (up to a tick, by design) would be
     * forfeited in part (0 &lt; strictness &lt; 1) or whole (1), or held to a burst line (&gt; 1), so the run would
     * fall short of its rate.
     */
    public static void checkStrictnessWithTick(double strictness) {
        if (strictness != RateSpec.DEFAULT_STRICTNESS) {
            throw new SettingException("strictness", RateSpec.of(1).withStrictness(strictness).toString()
                    .replaceFirst("^[^,]*,", ""), "cannot go with a pacing tick, which makes every op late by up to a "
                    + "tick by design: strictness 0 keeps the rate");
        }
    }

    /** The rate this process runs of a test's {@code global} rate: all of it, or a shard's share. */
    public RateSpec share(RateSpec global) {
        return share(shard, global);
    }

    /**
     * The rate a process runs of a test's {@code global} rate: all of it ({@code shard} null), or the shard's share.
     */
    public static RateSpec share(Shard shard, RateSpec global) {
        return shard == null ? global : global.withRate(shard.share(global.opsPerSecond()));
    }

    /**
     * The seed of this process's Poisson generators: {@link #seed} itself, or for a shard the seed with its index
     * mixed in ({@link Shard#streamSeed}); null when no seed was given (each process draws its own).
     */
    public Long streamSeed() {
        return seed == null || shard == null ? seed : Long.valueOf(shard.streamSeed(seed));
    }

    /** Refuses {@code design} at {@code rate} (options bad at that rate, or at every rate) in one line naming it. */
    public static void checkDesign(LimiterDesign design, RateSpec rate) {
        try {
            design.check(rate);
        } catch (IllegalArgumentException e) {
            throw new SettingException("limiter", design.toString(), "at "
                    + java.math.BigDecimal.valueOf(rate.opsPerSecond()).stripTrailingZeros().toPlainString() + " "
                            + "ops/s: " + e.getMessage());
        }
    }

    /** How far from now a test's start instant may lie, ahead or behind. */
    public static final Duration MAX_START_DISTANCE = Duration.ofDays(1);

    /**
     * Rejects a start instant more than {@link #MAX_START_DISTANCE} ahead (the process would sit waiting for it;
     * start it nearer the time) or behind (its whole schedule would be owed at once), or one whose test of
     * {@code duration} has already ended, naming it.
     */
    public static void checkStartAt(Instant startAt, Duration duration, Instant now) {
        checkStartAt(startAt, duration, now, "this process started");
    }

    /**
     * Rejects a start instant whose test has ended by now, when this process is ready to start it (after its
     * warm-ups, which may have outlasted the test), naming how late it is.
     */
    public void checkReady(Instant now) {
        if (startAt != null) {
            checkStartAt(startAt, testLength(duration, cycles, rate), now, "this process was ready (its warm-ups "
                    + "done)");
        }
    }

    /**
     * How long a test lasts on its schedule: its duration, or its cycles at its (global) rate when they end it
     * sooner; null when neither bounds it.
     */
    static Duration testLength(Duration duration, long cycles, RateSpec rate) {
        Duration byCycles = null;
        if (cycles > 0 && rate != null) {
            double nanos = Math.ceil(cycles / rate.opsPerSecond() * 1e9);
            byCycles = nanos < Long.MAX_VALUE ? Duration.ofNanos((long) nanos) : null;
        }
        return duration == null || byCycles != null && byCycles.compareTo(duration) < 0 ? byCycles : duration;
    }

    private static void checkStartAt(Instant startAt, Duration duration, Instant now, String when) {
        Duration ahead = Duration.between(now, startAt);
        if (ahead.compareTo(MAX_START_DISTANCE) > 0) {
            throw new SettingException("start-at", startAt.toString(), "is " + distance(ahead) + " ahead; a test starts"
                    + " within a day (start its processes nearer the time)");
        }
        Duration ago = ahead.negated();
        if (duration != null && ago.compareTo(duration) >= 0) {
            throw new SettingException("start-at", startAt.toString(), "was " + distance(ago) + " ago: the test's "
                    + Durations.format(duration) + " had ended before " + when);
        }
        if (ago.compareTo(MAX_START_DISTANCE) > 0) {
            throw new SettingException("start-at", startAt.toString(), "was " + distance(ago) + " ago; a late process"
                    + " catches up at most a day's schedule");
        }
    }

    private static String distance(Duration d) {
        return d.toDays() >= 2 ? d.toDays() + " days" : Durations.format(d);
    }

    /** An activity with the op's own in-flight bound. */
    public ActivityConfig(OpSpec op, int threads, boolean virtualThreads, RateSpec rate, Duration duration,
            long cycles) {
        this(op, threads, virtualThreads, rate, duration, cycles, 0, Arrivals.UNIFORM, null, null, null,
                LimiterDesign.ATOMIC);
    }

    /** An activity with uniform arrivals. */
    public ActivityConfig(OpSpec op, int threads, boolean virtualThreads, RateSpec rate, Duration duration, long cycles,
                          int maxInFlight) {
        this(op, threads, virtualThreads, rate, duration, cycles, maxInFlight, Arrivals.UNIFORM, null, null, null,
                LimiterDesign.ATOMIC);
    }

    public static int maxThreads(boolean virtualThreads) {
        return virtualThreads ? MAX_VIRTUAL_THREADS : MAX_PLATFORM_THREADS;
    }

    /** Rejects a thread count, naming it. */
    public static void checkThreads(int threads, boolean virtualThreads) {
        int max = maxThreads(virtualThreads);
        if (threads < 1 || threads > max) {
            throw new SettingException("threads", Integer.toString(threads), "must be between 1 and " + max
                    + (virtualThreads ? " (virtual threads)" : " (platform threads; ${virtual} allows more)"));
        }
    }
}
