package dev.pacer.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.Sleeper;
import dev.pacer.ratelimit.api.TickSleeper;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A tick of pacing on the manual clock: a caller wakes at most once per tick and takes every slot due by then,
 * none early, each late by less than a tick and a slot; with the calibrated sleeper's threshold instead it wakes
 * many times more often, some slots going early.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TickSleeperTest extends DesignOnManualClock {

    static final double RATE = 20_000; // a slot every 50 µs
    static final int SLOTS = 2_000;    // 100 ms of schedule

    /** A sleeper that counts the parks it is asked for. */
    static final class Counting implements Sleeper {
        final Sleeper base;
        int parks;

        Counting(Sleeper base) {
            this.base = base;
        }

        @Override
        public void park(long nanos) {
            parks++;
            base.park(nanos);
        }

        @Override
        public long parkThresholdNanos() {
            return base.parkThresholdNanos();
        }

        @Override
        public long parkOvershootNanos() {
            return base.parkOvershootNanos();
        }
    }

    /** What one caller saw taking {@link #SLOTS} slots back to back (ops that take no time). */
    record Taken(int parks, long earliest, long latest, long span) {
    }

    Taken take(String design, Sleeper sleeper, Counting counting) {
        RateLimiter l = RateLimiters.builder(RateSpec.of(RATE)).design(LimiterDesign.parse(design))
                .clock(clock).sleeper(sleeper).build();
        Grant g = l.newGrant();
        long earliest = Long.MAX_VALUE;
        long latest = Long.MIN_VALUE;
        long first = 0;
        long last = 0;
        for (int i = 0; i < SLOTS; i++) {
            l.acquire(g);
            long lag = g.startNanos() - g.scheduledNanos();
            earliest = Math.min(earliest, lag);
            latest = Math.max(latest, lag);
            if (i == 0) {
                first = g.startNanos();
            }
            last = g.startNanos();
        }
        g.close();
        return new Taken(counting.parks, earliest, latest, last - first);
    }

    @Test
    void aCallerWakesOncePerTickAndNoSlotGoesEarly() {
        Counting counting = new Counting(new ManualSleeper(clock));
        Taken t = take("atomic", new TickSleeper(counting, MS), counting);
        assertTrue(t.parks() <= 101, t.parks() + " parks over 100 ms of schedule at a 1 ms tick");
        assertTrue(t.parks() >= 99, t.parks() + " parks: the caller did not wait for its slots");
        assertTrue(t.earliest() >= 0, "a slot went " + -t.earliest() + " ns early");
        assertTrue(t.latest() <= MS + 50 * US, "a slot went " + t.latest() + " ns late: more than a tick and a slot");
        assertTrue(Math.abs(t.span() - 100 * MS) <= MS, "the slots spread over " + t.span() + " ns, not 100 ms");
    }

    @Test
    void theCalibratedSleepersThresholdWakesTheCallerFarMoreOftenAndLetsSlotsGoEarly() {
        // the calibrated sleeper on a 2-vCPU VM: threshold 120 µs, overshoot 60 µs
        Counting counting = new Counting(new ManualSleeper(clock, 120 * US, 60 * US));
        Taken fine = take("atomic", counting, counting);
        assertTrue(fine.parks() >= 500, fine.parks() + " parks at the park threshold");
        assertTrue(fine.earliest() < 0, "no slot went early below the park threshold");
    }

    @Test
    void aRateIncreaseWakesACallerParkedForATick() {
        ManualSleeper manual = new ManualSleeper(clock);
        RateLimiter l = RateLimiters.builder(RateSpec.of(1)).clock(clock).sleeper(new TickSleeper(manual, MS)).build();
        Grant g = l.newGrant();
        l.acquire(g); // the first slot, at once
        long before = clock.nanoTime();
        manual.at(before + 10 * MS, () -> l.reconfigure(RateSpec.of(1_000)));
        l.acquire(g); // its slot was 1 s away; the increase moves it to about 1 ms after the first
        assertTrue(g.startNanos() - before <= 12 * MS, "woke " + (g.startNanos() - before) + " ns later, not at "
                + "the increase and a tick");
        assertTrue(g.startNanos() >= g.scheduledNanos(), "granted early after the increase");
        g.close();
    }

    @Test
    void aTickMustBePositive() {
        ManualSleeper manual = new ManualSleeper(clock);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TickSleeper(manual, 0));
        assertEquals("tick must be above 0 ns, got 0", e.getMessage());
    }
}
