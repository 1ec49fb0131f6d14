package dev.pacer.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateLimiter;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A brief change to a low rate must not hold a run at that rate's spacing after the rate is set back: a caller
 * already waiting for a slot priced at the old, long slice is moved to where the new rate puts it, so the change
 * shows within one new slice. Every design, on the manual clock: the change back is made by the sleeper while the
 * caller is parked in the limiter, as a control thread would.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RateChangeReschedulesWaitersTest extends DesignOnManualClock {

    static final List<String> WINDOWS = List.of("fixed-window", "sliding-log", "sliding-window");

    static List<String> designs() {
        return LimiterDesign.NAMES;
    }

    final ManualSleeper sleeper = new ManualSleeper(clock);

    RateLimiter build(String design, double rate) {
        return RateLimiters.builder(RateSpec.of(rate)).design(LimiterDesign.parse(design)).clock(clock).sleeper(sleeper)
                .build();
    }

    /** Acquires with {@code g} until a start passes {@code until}: each grant's start and the slice it went at. */
    static List<long[]> acquireUntil(RateLimiter l, Grant g, long until) {
        List<long[]> starts = new ArrayList<>();
        for (int i = 0; i < 100_000 && g.startNanos() < until; i++) {
            l.acquire(g);
            starts.add(new long[] {g.startNanos(), ScheduleUnits.slice(l.spec().opsPerSecond())});
        }
        return starts;
    }

    @ParameterizedTest
    @MethodSource("designs")
    void aBriefLowRateDoesNotStallTheRunAfterTheRateIsSetBack(String design) {
        RateLimiter l = build(design, 1000);
        Grant g = l.newGrant();
        acquireUntil(l, g, T0 + 2 * S);
        l.reconfigure(RateSpec.of(0.01)); // a slice of 100 s
        long back = clock.nanoTime() + S;
        sleeper.at(back, () -> l.reconfigure(RateSpec.of(1000)));
        List<long[]> after = acquireUntil(l, g, back + 2 * S);
        long first = Long.MAX_VALUE;
        long inSecond = 0;
        for (long[] a : after) {
            if (a[0] >= back) {
                first = Math.min(first, a[0]);
                inSecond += a[0] < back + S ? 1 : 0;
            }
        }
        assertTrue(first - back <= 2 * MS, design + ": the first op after the change back started "
                + (first == Long.MAX_VALUE ? "never" : (first - back) / 1e6 + " ms") + " after it");
        assertTrue(inSecond >= 990 && inSecond <= 1_010,
                design + " let " + inSecond + " ops through in the second after the change back to 1000/s");
        assertEquals(l.snapshot().permitsGranted(), g.permitsGranted(), "every grant counted once");
    }

    @ParameterizedTest
    @MethodSource("designs")
    void aCallerPricedAtTheSlowRateIsMovedWhenTheRateRisesTenfold(String design) {
        RateLimiter l = build(design, 100);
        Grant g = l.newGrant();
        acquireUntil(l, g, T0 + 2 * S);
        l.reconfigure(RateSpec.of(1)); // a caller priced now waits about a second
        long up = clock.nanoTime() + 100 * MS;
        sleeper.at(up, () -> l.reconfigure(RateSpec.of(10_000)));
        List<long[]> after = acquireUntil(l, g, up + S);
        long inSecond = after.stream().filter(a -> a[0] >= up && a[0] < up + S).count();
        // a window design lets a window's quota through at once when it opens: here the rest of the current
        // window's (the refused caller asks again at the change) and the next window's, within one second
        long most = WINDOWS.contains(design) ? 20_000 : 10_100;
        assertTrue(inSecond >= 9_900 && inSecond <= most,
                design + " let " + inSecond + " ops through in the second after a change from 1 to 10 000/s");
    }
}
