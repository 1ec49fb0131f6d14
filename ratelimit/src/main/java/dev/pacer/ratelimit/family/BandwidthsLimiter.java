package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.DurationText;
import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.NumberText;
import dev.pacer.ratelimit.api.RateOutOfReachException;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code bandwidths}: several token buckets at once, as Bucket4j configures a bucket with several
 * bandwidths (as Bucket4j's author describes the token bucket): an op starts only when <em>every</em> limit has
 * its permits. The spec's rate is
 * the first limit; {@code also=} adds more, e.g. 1000 ops/s that also stay under 20,000 a minute and
 * 500,000 an hour. Each limit starts full at the origin.
 *
 * <h2>Options</h2>
 * <ul>
 *   <li>{@code capacity=N}: the first limit's size (default one second's worth at the rate, at least 1).
 *   <li>{@code also=LIMIT+LIMIT...}: more limits, each {@code COUNT/PERIOD}: {@code COUNT} a whole
 *       number ({@code 500k}, {@code 2M} allowed), {@code PERIOD} a unit ({@code s}, {@code min} or
 *       {@code m}, {@code h}, {@code d}) or a duration ({@code 10s}, {@code 250ms}, {@code 2m}). A limit
 *       {@code 20000/min} holds 20,000 and refills 20,000 a minute. {@code +} separates limits, since a
 *       design's options are separated by commas.
 *   <li>{@code refill=greedy} (default) or {@code refill=interval}, for every limit: greedy adds tokens
 *       continuously ({@code COUNT/PERIOD} at {@code PERIOD/COUNT} apart, Bucket4j's
 *       {@code refillGreedy}); interval adds all {@code COUNT} at once when each whole {@code PERIOD}
 *       since the origin ends (Bucket4j's {@code refillIntervally}).
 * </ul>
 * The first limit refills the rate's ops every second when the rate is a whole number, and otherwise
 * one op every 1/rate (rounded to a whole nanosecond).
 *
 * <h2>Waiting</h2>
 * A request reserves its permits in every limit at once, taking them even into debt, and starts when the
 * slowest limit has refilled what it lacked (Bucket4j's blocking {@code consume}): the caller pays for
 * its own permits, and the callers after it wait behind the debt. With several limits the request waits
 * for the one furthest from having them. A greedy limit's wait is rounded down to a whole nanosecond and
 * an interval limit's ends at a period's end, as Bucket4j's are, so starts match Bucket4j's to the
 * nanosecond (the tests hold them to it). A request larger than a limit's capacity is not refused: it
 * waits as if the limit could hold it and leaves the limit in debt.
 *
 * <h2>Rate change</h2>
 * Only the first limit follows a new rate: its refill becomes the new rate's and, unless {@code
 * capacity=} was given, its capacity one second's worth at the new rate; its tokens keep their share of
 * the capacity (Bucket4j's {@code TokensInheritanceStrategy.PROPORTIONALLY}), rounded down to a whole
 * unit. The {@code also} limits keep everything: a change above them is held to them. Nothing is
 * reset ({@link #rateChangeNote()} is empty).
 *
 * <h2>State</h2>
 * {@code limits}, the first replaced on a rate change, each with a balance and a last refill time; all
 * guarded by the base's lock. Arithmetic is integer: a greedy limit counts tokens in units of
 * {@code 1/perToken} token (refill {@code perNano} units a nanosecond, the refill's fraction reduced),
 * exactly, with no rounding carried; an interval limit counts whole tokens.
 */
final class BandwidthsLimiter extends LockingLimiter {

    private static final long MAX_UNITS = Long.MAX_VALUE / 4;

    /** One token bucket. Its balance and refill time are guarded by the limiter's lock. */
    private static final class Limit {
        final String text;
        final long capacity;
        final long tokens;
        final long period;
        final boolean greedy;
        /** Units per token: the reduced period for greedy, 1 for interval. */
        final long perToken;
        /** Greedy: units refilled per nanosecond (the reduced token count). */
        final long perNano;
        final long capUnits;
        /** Units held; negative while in debt. */
        long balance;
        /** The clock when the last refill was counted (interval: the end of the last whole period). */
        long lastRefill;

        Limit(String text, long capacity, long tokens, long period, boolean greedy, long now) {
            this.text = text;
            this.capacity = capacity;
            this.tokens = tokens;
            this.period = period;
            this.greedy = greedy;
            long g = greedy ? gcd(tokens, period) : 1;
            this.perToken = greedy ? period / g : 1;
            this.perNano = greedy ? tokens / g : 0;
            if (Math.multiplyHigh(capacity, perToken) != 0 || capacity * perToken > MAX_UNITS) {
                throw new RateOutOfReachException("the bandwidths limiter cannot count the limit " + text
                        + " with capacity " + capacity + " exactly: choose a smaller capacity or a rounder rate");
            }
            this.capUnits = capacity * perToken;
            this.balance = capUnits;
            this.lastRefill = now;
        }

        void refill(long now) {
            long elapsed = now - lastRefill;
            if (elapsed <= 0) {
                return;
            }
            long room = capUnits - balance;
            if (greedy) {
                lastRefill = now;
                balance = elapsed >= room / perNano + 1 ? capUnits : balance + elapsed * perNano;
                balance = Math.min(balance, capUnits);
            } else {
                long periods = elapsed / period;
                if (periods == 0) {
                    return;
                }
                lastRefill += periods * period;
                balance = periods >= room / tokens + 1 ? capUnits : Math.min(capUnits, balance + periods * tokens);
            }
        }

        /** {@code permits} in this limit's units (clamped for absurd requests). */
        long units(long permits) {
            return Math.multiplyHigh(permits, perToken) != 0 ? MAX_UNITS : Math.min(MAX_UNITS, permits * perToken);
        }

        /** Nanoseconds from {@code now} (refilled) until {@code permits} are covered; ≥ 0. */
        long delay(long permits, long now) {
            long deficit = units(permits) - balance;
            if (deficit <= 0) {
                return 0;
            }
            if (greedy) {
                return deficit / perNano; // rounded down, as Bucket4j does
            }
            long periods = (deficit + tokens - 1) / tokens;
            long toNext = lastRefill + period - now;
            return periods - 1 > MAX_UNITS / period ? MAX_UNITS : toNext + (periods - 1) * period;
        }
    }

    private final boolean greedy;
    /** The first limit's capacity as given, or 0 for one second's worth at the rate; final. */
    private final long capacityOption;
    /** Under the lock: the limits, the spec's first. */
    private final Limit[] limits;

    BandwidthsLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("bandwidths", spec, clock, sleeper, origin);
        options.only(Set.of("capacity", "also", "refill"));
        String refill = options.text("refill", "greedy");
        if (!refill.equals("greedy") && !refill.equals("interval")) {
            throw options.bad("refill", refill, "greedy or interval");
        }
        this.greedy = refill.equals("greedy");
        this.capacityOption = options.count("capacity", 0, 1);
        List<Limit> all = new ArrayList<>();
        all.add(rateLimit(spec, originNanos()));
        if (options.has("also")) {
            String also = options.text("also", "");
            for (String part : also.split("\\+", -1)) {
                all.add(parseLimit(options, also, part.strip()));
            }
        }
        this.limits = all.toArray(new Limit[0]);
    }

    /** The first limit at {@code spec}'s rate. */
    private Limit rateLimit(RateSpec spec, long now) {
        double rate = spec.opsPerSecond();
        boolean whole = rate == Math.rint(rate);
        long tokens = whole ? (long) rate : 1;
        long period = whole ? SECOND : intervalNanos(spec);
        long capacity = capacityOption > 0 ? capacityOption : Math.max(1, Math.round(rate));
        return new Limit(spec.opsPerSecond() + "/s", capacity, tokens, period, greedy, now);
    }

    private Limit parseLimit(DesignOptions options, String also, String part) {
        String expected = "limits joined by '+', each COUNT/PERIOD such as 20000/min or 500k/h";
        int slash = part.indexOf('/');
        if (slash < 0) {
            throw options.bad("also", also, expected);
        }
        double count;
        try {
            count = NumberText.parse(part.substring(0, slash)).doubleValue();
        } catch (IllegalArgumentException e) {
            count = Double.NaN;
        }
        Duration period = periodOf(part.substring(slash + 1).strip());
        if (!(count >= 1) || count != Math.rint(count) || count > 1e15 || period == null || !period.isPositive()) {
            throw options.bad("also", also, expected);
        }
        long p = period.toNanos();
        return new Limit(part, (long) count, (long) count, p, greedy, originNanos());
    }

    private static Duration periodOf(String text) {
        return switch (text) {
            case "s", "sec" -> Duration.ofSeconds(1);
            case "m", "min" -> Duration.ofMinutes(1);
            case "h" -> Duration.ofHours(1);
            case "d" -> Duration.ofDays(1);
            default -> duration(text);
        };
    }

    /** A period written as a duration ({@code 250ms}, {@code 10s}), or null. */
    private static Duration duration(String text) {
        try {
            return DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    protected long reserve(long permits, long now) {
        long start = earliest(permits, now);
        for (Limit l : limits) {
            l.balance -= l.units(permits); // into debt if need be: the caller waits until start for it
        }
        return start;
    }

    @Override
    protected long earliest(long permits, long now) {
        long wait = 0;
        for (Limit l : limits) {
            l.refill(now); // catching up is the same whenever it is done
            wait = Math.max(wait, l.delay(permits, now));
        }
        return now + Math.min(wait, MAX_UNITS);
    }

    /**
     * A rate increase moves the callers waiting on the rate's limit nearer ({@link LockingLimiter#reschedulesWaiters})
     * when it is the only limit; with {@code also} limits, whose debts do not change, their waits are kept.
     */
    @Override
    protected boolean reschedulesWaiters() {
        return limits.length == 1;
    }

    @Override
    protected String retune(RateSpec old, RateSpec spec, long now) {
        Limit was = limits[0];
        was.refill(now);
        Limit l = rateLimit(spec, now);
        l.lastRefill = was.lastRefill;
        // the same share of the capacity: balance/perToken/capacity kept, rounded down to a unit
        BigInteger num = BigInteger.valueOf(was.balance).multiply(BigInteger.valueOf(l.perToken))
                .multiply(BigInteger.valueOf(l.capacity));
        BigInteger den = BigInteger.valueOf(was.perToken).multiply(BigInteger.valueOf(was.capacity));
        BigInteger[] qr = num.divideAndRemainder(den);
        BigInteger floor = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
        l.balance = floor.max(BigInteger.valueOf(-MAX_UNITS)).min(BigInteger.valueOf(l.capUnits)).longValue();
        if (was.balance < 0 && rescheduleFactor() < 1) {
            // on an increase a debt keeps its size in ops (the callers waiting for it are moved nearer with it),
            // not its share of the capacity, which would make a debt of 3 ops at 0.01/s 3 000 at 1000/s
            l.balance = -Math.min(MAX_UNITS, mulDiv(-was.balance, l.perToken, was.perToken));
        }
        limits[0] = l;
        return ""; // rescaled, not reset
    }

    /** The limits as configured, for tests: "TOKENS/PERIODns cap CAPACITY". */
    String describe() {
        StringBuilder b = new StringBuilder();
        for (Limit l : limits) {
            b.append(b.isEmpty() ? "" : " + ").append(l.tokens).append('/').append(l.period).append("ns "
                    + "cap ").append(l.capacity);
        }
        return b.toString();
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
