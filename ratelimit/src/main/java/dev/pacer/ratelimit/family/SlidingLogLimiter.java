package dev.pacer.ratelimit.family;

import dev.pacer.ratelimit.api.NanoClock;
import dev.pacer.ratelimit.api.RateOutOfReachException;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import java.math.BigDecimal;

/**
 * {@code sliding-log}: the sliding window log (the classic shapes, as the article "Rate Limiting Part 1" draws
 * them). The limiter logs the start time of every permit it
 * lets through; a request is allowed when fewer than the limit (rate × window, see {@link Windows}) logged
 * starts lie within the last window, i.e. less than a window before now. Unlike the fixed window, this holds
 * for every window length of time, wherever it begins. A refused caller asks again when enough of the oldest
 * starts leave the window: for one permit, at the oldest start + window ({@link #earliest}).
 *
 * <p>Options: {@code window=DURATION} (default 1s, at least 1ms).
 *
 * <h2>Memory</h2>
 * Refused requests are not logged (the article logs them too, which makes its log unbounded), so the log never
 * holds more than the limit: it is a ring of {@code long}s allocated with exactly that capacity when the
 * limiter is built, and nothing is allocated per acquire. A limit over {@value #MAX_ENTRIES} entries (80 MB) is
 * refused with a message naming the window and the rate: shorten the window, or use {@code sliding-window},
 * which keeps two counts whatever the rate.
 *
 * <h2>State</h2>
 * Guarded by the base's lock: {@code log}, {@code head} and {@code size}, the ring of start times, oldest at
 * {@code head}, in non-decreasing order (a caller whose clock reading is older than the newest entry, a
 * thread that lost the race for the lock, is logged and started at the newest entry's time, never before it).
 * Entries a window old or older are dropped when the next request looks.
 *
 * <p>A rate change resizes the ring to the new limit. A higher limit keeps every entry. A lower one keeps
 * only the newest entries it can hold; for decisions at the new limit that is exact (the log is full until
 * the oldest entry kept leaves, as a complete log would be), but a raise later within the same window sees
 * the forgotten entries no more and lets that many more through: the change that dropped entries says so
 * ({@link #rateChangeNote()}). A pause resets
 * nothing: the paused time passes as idle time and the entries age out during it.
 */
final class SlidingLogLimiter extends LockingLimiter {

    /** The note of a rate change that dropped entries. */
    static final String DROPPED = "a lower limit keeps only the newest start times it holds";

    /** The most entries a log may hold: 80 MB of longs. */
    static final long MAX_ENTRIES = 10_000_000;

    private final long window;
    /** Under the lock: the ring of start times; its length is the limit at the rate in force. */
    private long[] log;
    /** Under the lock: the index of the oldest entry. */
    private int head;
    /** Under the lock: how many entries the ring holds. */
    private int size;

    SlidingLogLimiter(RateSpec spec, NanoClock clock, Sleeper sleeper, Long origin, DesignOptions options) {
        super("sliding-log", spec, clock, sleeper, origin);
        options.only(Windows.options());
        this.window = Windows.lengthOption(options);
        this.log = new long[capacity(spec)];
    }

    /** The limit at {@code spec}'s rate, refused above {@link #MAX_ENTRIES}. */
    private int capacity(RateSpec spec) {
        long limit = Windows.limit(spec, window);
        if (limit > MAX_ENTRIES) {
            String rate = BigDecimal.valueOf(spec.opsPerSecond()).stripTrailingZeros().toPlainString();
            throw new RateOutOfReachException("the sliding-log limiter would log " + limit + " start times (" + rate
                    + " ops/s over its window=" + Windows.text(window) + "), over its bound of " + MAX_ENTRIES
                    + ": shorten the window, or use sliding-window");
        }
        return (int) limit;
    }

    @Override
    protected long reserve(long permits, long now) {
        Windows.checkFits(name(), permits, log.length, window);
        evict(now);
        if (size + permits > log.length) {
            return REFUSED;
        }
        long start = startAt(now);
        for (long i = 0; i < permits; i++) {
            log[index(size++)] = start;
        }
        return start;
    }

    @Override
    protected long earliest(long permits, long now) {
        if (permits > log.length) {
            return Long.MAX_VALUE;
        }
        evict(now);
        long over = size + permits - log.length;
        return over <= 0 ? startAt(now) : log[index((int) over - 1)] + window; // when the over-th oldest leaves
    }

    /** Drops the entries a window old or older. */
    private void evict(long now) {
        while (size > 0 && now - log[head] >= window) {
            head = index(1);
            size--;
        }
    }

    /** When a request allowed at {@code now} starts: now, or the newest entry's time if that is later. */
    private long startAt(long now) {
        return size > 0 ? Math.max(now, newest()) : now;
    }

    private long newest() {
        return log[index(size - 1)];
    }

    /** The ring index {@code i} places after the oldest. */
    private int index(int i) {
        int j = head + i;
        return j >= log.length ? j - log.length : j;
    }

    @Override
    protected String retune(RateSpec old, RateSpec spec, long now) {
        int capacity = capacity(spec);
        if (capacity == log.length) {
            return "";
        }
        evict(now);
        int keep = Math.min(size, capacity);
        int dropped = size - keep;
        long[] resized = new long[capacity];
        for (int i = 0; i < keep; i++) {
            resized[i] = log[index(dropped + i)];
        }
        log = resized;
        head = 0;
        size = keep;
        return dropped > 0 ? DROPPED : "";
    }
}
