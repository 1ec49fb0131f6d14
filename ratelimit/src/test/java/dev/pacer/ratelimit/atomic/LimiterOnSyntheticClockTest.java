package dev.pacer.ratelimit.atomic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.ratelimit.RateLimiters;
import dev.pacer.ratelimit.api.Grant;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import dev.pacer.ratelimit.api.ManualNanoClock;
import dev.pacer.ratelimit.api.ManualSleeper;
import dev.pacer.ratelimit.api.RateSpec;
import dev.pacer.ratelimit.api.ScheduleUnits;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The limiter's decisions on a synthetic clock: every scheduled time, start and wait is exact.
 *
 * <p>Unless a test says otherwise the fast path is off (every acquire reads the clock) and parks cost
 * nothing and last exactly what is asked, so each expected number can be worked out by hand.
 */
class LimiterOnSyntheticClockTest {

    static final long T0 = 1_000_000_000L;
    static final long MS = 1_000_000L;
    static final long US = 1_000L;

    final ManualNanoClock clock = new ManualNanoClock(T0);

    LockFreeRateLimiter limiter(String spec) {
        return limiter(spec, new ManualSleeper(clock), Duration.ZERO);
    }

    LockFreeRateLimiter limiter(String spec, Sleeper sleeper, Duration staleness) {
        return (LockFreeRateLimiter) RateLimiters.builder(RateSpec.parse(spec))
                .clock(clock).sleeper(sleeper).fastPathStaleness(staleness).build();
    }

    /** Scheduled time relative to T0. */
    static long scheduled(Grant g) {
        return g.scheduledNanos() - T0;
    }

    static long started(Grant g) {
        return g.startNanos() - T0;
    }

    @Nested
    class EarlyAndLateCallers {

        @Test
        void firstSlotIsTheCreationTimeAndAnEarlyCallerParksUntilItsSlot() {
            LockFreeRateLimiter l = limiter("1000");
            assertEquals(T0, l.originNanos(), "the schedule counts from the clock at creation");
            clock.advance(7 * US);
            Grant g = l.newGrant();

            assertEquals(7 * US, l.acquire(g), "slot 0 is at the origin, whenever the first caller comes");
            assertEquals(0, scheduled(g));
            assertEquals(7 * US, started(g));

            assertEquals(0, l.acquire(g), "early caller waits for its slot and reports no wait");
            assertEquals(1 * MS, scheduled(g));
            assertEquals(1 * MS, started(g));
            assertEquals(T0 + 1 * MS, clock.nanoTime(), "the sleeper was asked for exactly the delay");
        }

        @Test
        void aScheduleThatBeganBeforeTheLimiterWasBuiltStartsItsFirstOpNowOnTheFastPath() {
            // a shard started 5 s after the test's instant: the default staleness, so the fast path is on
            LockFreeRateLimiter l = (LockFreeRateLimiter) RateLimiters.builder(RateSpec.parse("1000")).clock(clock)
                    .sleeper(new ManualSleeper(clock)).origin(T0 - 5_000 * MS).build();
            Grant g = l.newGrant();
            assertEquals(5_000 * MS, l.acquire(g), "slot 0 was due 5 s ago");
            assertEquals(T0 - 5_000 * MS, g.scheduledNanos());
            assertEquals(T0, g.startNanos(), "started now: not at a clock reading from before the limiter existed");
            clock.advance(1 * MS);
            l.acquire(g);
            assertEquals(T0 - 4_999 * MS, g.scheduledNanos());
            assertTrue(g.startNanos() >= T0, "no start before the limiter was built: " + (g.startNanos() - T0));
        }

        @Test
        void aLateCallerGoesAtOnceAndReportsHowLateItIs() {
            LockFreeRateLimiter l = limiter("1000");
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(5 * MS + 300 * US);

            assertEquals(4 * MS + 300 * US, l.acquire(g));
            assertEquals(1 * MS, scheduled(g));
            assertEquals(5 * MS + 300 * US, started(g));
            assertEquals(T0 + 5 * MS + 300 * US, clock.nanoTime(), "a late caller does not sleep");
        }

        @Test
        void callersEarlyByLessThanTheParkThresholdGoAtOnceAndLongerParksAreShortenedByTheOvershoot() {
            LockFreeRateLimiter l = limiter("1000", new ManualSleeper(clock, 150 * US, 75 * US), Duration.ZERO);
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(900 * US); // slot 1 is 100 µs away: under the threshold

            assertEquals(0, l.acquire(g));
            assertEquals(1 * MS, scheduled(g));
            assertEquals(900 * US, started(g), "went at once, 100 µs early");
            assertEquals(T0 + 900 * US, clock.nanoTime());

            assertEquals(0, l.acquire(g)); // slot 2 is 1.1 ms away: park 1.1 ms - 75 µs
            assertEquals(2 * MS, scheduled(g));
            assertEquals(T0 + 2 * MS - 75 * US, clock.nanoTime());
            assertEquals(2 * MS - 75 * US, started(g), "woke within the threshold of its slot and went");
        }

        @Test
        void aParkThatReturnsEarlyIsRepeatedUntilTheSlotIsWithinTheThreshold() {
            // A sleeper whose parks only last a tenth of what is asked (spurious wake-ups).
            Sleeper stingy = new Sleeper() {
                @Override
                public void park(long nanos) {
                    clock.advance(nanos / 10);
                }

                @Override
                public long parkThresholdNanos() {
                    return 10 * US;
                }

                @Override
                public long parkOvershootNanos() {
                    return 0;
                }
            };
            LockFreeRateLimiter l = limiter("100", stingy, Duration.ZERO);
            Grant g = l.newGrant();
            l.acquire(g);
            l.acquire(g);
            assertEquals(10 * MS, scheduled(g));
            assertTrue(started(g) > 10 * MS - 10 * US && started(g) <= 10 * MS, "started " + started(g));
        }

        @Test
        void weightedAcquireTakesThatManySlices() {
            LockFreeRateLimiter l = limiter("1000");
            Grant g = l.newGrant();
            l.acquire(10, g);
            assertEquals(0, scheduled(g));
            l.acquire(1, g);
            assertEquals(10 * MS, scheduled(g), "ten permits took ten slices");
            assertEquals(11, g.permitsGranted());
            assertThrows(IllegalArgumentException.class, () -> l.acquire(0, g));
            assertThrows(IllegalArgumentException.class, () -> l.acquire(Long.MAX_VALUE / 2, g));
        }
    }

    @Nested
    class Average {

        @Test
        void aLateCallerCatchesUpInABurstThenHoldsTheAverage() {
            LockFreeRateLimiter l = limiter("1000,0");
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(10 * MS + 500 * US); // a stall: slots 1..10 are now in the past

            for (int k = 1; k <= 10; k++) {
                assertEquals(10 * MS + 500 * US - k * MS, l.acquire(g), "burst op " + k);
                assertEquals(k * MS, scheduled(g));
            }
            assertEquals(T0 + 10 * MS + 500 * US, clock.nanoTime(), "the burst took no time");

            for (int k = 11; k <= 20; k++) {
                assertEquals(0, l.acquire(g));
                assertEquals(k * MS, started(g), "back on the 1 ms grid");
            }
            LimiterSnapshot snap = l.snapshot();
            assertEquals(21, snap.permitsGranted());
            assertEquals(0, snap.idleNanos(), "average mode forfeits nothing");
            assertEquals(21 * MS, snap.allocatedNanos());
        }
    }

    @Nested
    class Strict {

        @Test
        void aStallIsForfeitedAndTheLateOpReportsItsLateness() {
            LockFreeRateLimiter l = limiter("1000,1");
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(10 * MS + 500 * US);

            assertEquals(9 * MS + 500 * US, l.acquire(g), "slot 1 ms, started at 10.5 ms");
            assertEquals(1 * MS, scheduled(g));
            assertEquals(9 * MS + 500 * US, l.snapshot().idleNanos(), "the lateness is given away");

            assertEquals(0, l.acquire(g));
            assertEquals(11 * MS + 500 * US, started(g), "the next op is one slice after the late one");
        }

        @Test
        void neverGrantsTwoOpsCloserThanOneSliceWhateverTheCallersDo() {
            LockFreeRateLimiter l = limiter("1000,1");
            Grant g = l.newGrant();
            Random random = new Random(42);
            long previousStart = Long.MIN_VALUE / 2;
            long forfeited = 0;
            for (int i = 0; i < 5_000; i++) {
                // callers arrive in bursts, on time, or after stalls of up to 20 slices
                int pick = random.nextInt(4);
                if (pick == 1) {
                    clock.advance(random.nextInt(1000) * US);
                } else if (pick == 2) {
                    clock.advance(random.nextInt(20) * MS);
                }
                long wait = l.acquire(g);
                assertTrue(started(g) - previousStart >= 1 * MS,
                        "op " + i + " started " + (started(g) - previousStart) + " ns after the previous one");
                assertEquals(Math.max(0, started(g) - scheduled(g)), wait);
                forfeited += wait;
                previousStart = started(g);
            }
            assertEquals(forfeited, l.snapshot().idleNanos(), 5_000, "what was late was forfeited");
        }
    }

    @Nested
    class BurstCompensation {

        @Test
        void aQuarterClosesAQuarterOfTheOpenGapPerBlockedCall() {
            LockFreeRateLimiter l = limiter("1000,0.25");
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(100 * MS); // schedule pointer at 1 ms, clock at 100 ms

            // 1st late call takes slot 1 ms; the gap behind the pointer is then 100 - 2 = 98 ms
            assertEquals(99 * MS, l.acquire(g));
            assertEquals(1 * MS, scheduled(g));
            assertEquals(98 * MS / 4, l.snapshot().idleNanos(), "a quarter of 98 ms forfeited");

            // 2nd takes slot 2 + 24.5 = 26.5 ms; gap 100 - 27.5 = 72.5 ms, a quarter of it forfeited
            assertEquals(100 * MS - 26_500 * US, l.acquire(g));
            assertEquals(26_500 * US, scheduled(g));
            assertEquals(24_500 * US + 18_125 * US, l.snapshot().idleNanos());

            long gapBefore = 100 * MS - (l.snapshot().allocatedNanos());
            for (int i = 0; i < 20; i++) {
                l.acquire(g);
                long gapAfter = 100 * MS - l.snapshot().allocatedNanos();
                if (gapBefore > 4 * MS) {
                    long expected = (gapBefore - 1 * MS) - (gapBefore - 1 * MS) / 4;
                    assertEquals(expected, gapAfter, 2, "call " + i + ": gap " + gapBefore + " -> " + gapAfter);
                }
                gapBefore = gapAfter;
            }
            assertTrue(gapBefore <= 0, "caught up without running the whole backlog: gap " + gapBefore);
            assertTrue(l.snapshot().permitsGranted() < 30, "a 99-op backlog closed in fewer than 30 ops");
        }
    }

    @Nested
    class BurstAllowance {

        @Test
        void oneOneNeverExceeds110PercentWhileCatchingUpAndForfeitsNothing() {
            LockFreeRateLimiter l = limiter("1000,1.1");
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(100 * MS);

            List<Long> starts = new ArrayList<>();
            while (clock.nanoTime() - T0 < 2_000 * MS) {
                l.acquire(g); // callers that are always ready: the limiter alone sets the pace
                starts.add(started(g));
            }
            long burstSlice = Math.round(1_000_000 / 1.1); // ns, 909 090.9
            for (int i = 1; i < starts.size(); i++) {
                assertTrue(starts.get(i) - starts.get(i - 1) >= burstSlice - 1,
                        "ops " + (i - 1) + "," + i + " only " + (starts.get(i) - starts.get(i - 1)) + " ns apart");
            }
            // in every 100 ms window at most 110 ops (+1 for the window edge)
            for (int i = 0, j = 0; i < starts.size(); i++) {
                while (starts.get(i) - starts.get(j) >= 100 * MS) {
                    j++;
                }
                assertTrue(i - j + 1 <= 111, "window ending at op " + i + " holds " + (i - j + 1) + " ops");
            }
            // caught up: 100 ms behind at 10 % extra takes 1 s, then back to the 1 ms grid
            assertEquals(0, l.snapshot().idleNanos(), "burst allowance forfeits nothing");
            long last = starts.get(starts.size() - 1);
            long secondLast = starts.get(starts.size() - 2);
            assertEquals(1 * MS, last - secondLast, "back at the target rate after catching up");
            assertEquals(l.snapshot().permitsGranted() - 1,
                    ScheduleUnits.toNanos(l.allocatedUnits() - l.sliceUnits()) / MS,
                    "every slot since the start was used: the average holds");
        }
    }

    @Nested
    class Reconfiguration {

        @Test
        void aNewRateAppliesFromTheNextGrantAndEveryCounterContinues() {
            LockFreeRateLimiter l = limiter("1000");
            Grant g = l.newGrant();
            for (int i = 0; i < 10; i++) {
                l.acquire(g); // slots 0..9 ms, the last at 9 ms
            }
            LimiterSnapshot before = l.snapshot();
            l.reconfigure(RateSpec.parse("2000"));

            l.acquire(g);
            assertEquals(9 * MS + 500 * US, scheduled(g),
                    "the op in progress (at 9 ms) keeps its share at the new rate: the next comes one new slice on");
            l.acquire(g);
            assertEquals(10 * MS, scheduled(g), "then half-millisecond slices");
            LimiterSnapshot after = l.snapshot();
            assertEquals(before.permitsGranted() + 2, after.permitsGranted());
            assertEquals(before.totalWaitNanos(), after.totalWaitNanos());
            assertEquals(before.idleNanos(), after.idleNanos());
            assertEquals(after.allocatedNanos() - before.allocatedNanos(), 2 * 500 * US,
                    "the schedule advanced by the two new slices (the half slice taken back is counted as advance)");
            assertEquals(RateSpec.parse("2000"), l.spec());
        }

        @Test
        void raisingTheRateWhileBehindKeepsTheBacklogInOpsNotInTime() {
            LockFreeRateLimiter l = limiter("1000,0");
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(51 * MS); // pointer at 1 ms, clock at 51 ms: 50 ops owed
            l.reconfigure(RateSpec.parse("10000,0"));

            int burst = 0;
            while (l.acquire(g) > 0) {
                burst++;
            }
            assertEquals(50, burst, "the 50 owed ops run, not the 500 that 50 ms holds at the new rate");
            assertEquals(45 * MS, l.snapshot().idleNanos(), "50 ms of gap became 5 ms; 45 ms given away");
        }

        @Test
        void changingStrictnessAppliesToTheOpenGap() {
            LockFreeRateLimiter l = limiter("1000,0");
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(50 * MS);
            l.reconfigure(RateSpec.parse("1000,1"));
            assertEquals(49 * MS, l.acquire(g));
            assertEquals(0, l.acquire(g), "strict: the rest of the gap is forfeited, no burst");
            assertEquals(51 * MS, started(g));
        }
    }

    @Nested
    class Pause {

        @Test
        void pausedTimeIsGivenAwayNotReleasedAsABurst() {
            LockFreeRateLimiter l = limiter("1000,0");
            Grant g = l.newGrant();
            for (int i = 0; i < 5; i++) {
                l.acquire(g); // slots 0..4 ms; the clock is at 4 ms
            }
            l.pause();
            assertTrue(l.isPaused());
            assertFalse(l.tryAcquire(), "no grants while paused");
            clock.advance(1_000 * MS);
            l.resume();

            assertEquals(0, l.acquire(g), "no backlog from the pause");
            assertEquals(1_005 * MS, scheduled(g), "the schedule resumed one slice after where it stood, shifted by "
                    + "the pause");
            assertEquals(1_000 * MS, l.snapshot().idleNanos());
        }

        @Test
        void aRateChangeWhilePausedGivesThePauseAwayOnce() {
            LockFreeRateLimiter l = limiter("1000,0");
            Grant g = l.newGrant();
            l.acquire(g);
            clock.advance(51 * MS); // pointer at 1 ms, clock at 51 ms: 50 ops owed when the pause begins
            l.pause();
            clock.advance(1_000 * MS);
            l.reconfigure(RateSpec.parse("10000,0"));
            l.resume();

            int burst = 0;
            while (l.acquire(g) > 0) {
                burst++;
            }
            assertEquals(50, burst, "the ops owed when the pause began run, and nothing else is owed");
            assertEquals(1_051 * MS, started(g), "the first op on time went at once: no stall after the resume");
            assertEquals(1_000 * MS + 45 * MS, l.snapshot().idleNanos(),
                    "the pause, once, and the backlog's 50 ms less its 5 ms at the new rate");
        }

        @Test
        void anAcquireWhilePausedWaitsForResume() throws Exception {
            LockFreeRateLimiter l = limiter("1000");
            l.pause();
            Thread waiter = new Thread(() -> l.acquire());
            waiter.start();
            waiter.join(200);
            assertTrue(waiter.isAlive(), "blocked while paused");
            assertEquals(0, l.snapshot().permitsGranted());
            l.resume();
            waiter.join(10_000);
            assertFalse(waiter.isAlive());
            assertEquals(1, l.snapshot().permitsGranted());
        }
    }

    @Nested
    class TryAcquire {

        @Test
        void succeedsWhenTheSlotIsDueAndNeverReservesOneItDoesNotUse() {
            LockFreeRateLimiter l = limiter("1000");
            assertTrue(l.tryAcquire());
            long pointer = l.allocatedUnits();
            assertFalse(l.tryAcquire(), "next slot is 1 ms away");
            assertFalse(l.tryAcquire(1, Duration.ofNanos(999 * US)));
            assertEquals(pointer, l.allocatedUnits(), "a failed try reserved nothing");
            assertEquals(1, l.snapshot().permitsGranted());

            assertTrue(l.tryAcquire(1, Duration.ofMillis(1)), "within the timeout: waits for it");
            assertEquals(T0 + 1 * MS, clock.nanoTime());
            clock.advance(1 * MS);
            assertTrue(l.tryAcquire());
            assertEquals(3, l.snapshot().permitsGranted());
        }

        @Test
        void strictTryAcquireForfeitsLikeAcquire() {
            LockFreeRateLimiter l = limiter("1000,1");
            assertTrue(l.tryAcquire());
            clock.advance(10 * MS);
            assertTrue(l.tryAcquire());
            assertFalse(l.tryAcquire(), "strict: the next slot is a whole slice after now");
            assertEquals(9 * MS, l.snapshot().idleNanos());
        }
    }

    @Nested
    class Precision {

        @Test
        void aBillionOpsPerSecondRunsForAYearOfSchedule() {
            LockFreeRateLimiter l = limiter("1G");
            Grant g = l.newGrant();
            long elevenDays = 1_000_000_000_000_000L; // permits = ns at 1e9 ops/s
            for (int i = 0; i < 33; i++) {
                l.acquire(elevenDays, g);
            }
            assertEquals(32 * elevenDays, scheduled(g), "32 × 11.57 days = 370 days, exact");
            assertTrue(32 * elevenDays > 365L * 24 * 3600 * 1_000_000_000L);
            clock.set(T0 + 33 * elevenDays);
            l.acquire(g);
            assertEquals(33 * elevenDays, scheduled(g));
            assertEquals(0, l.snapshot().idleNanos());
        }

        @Test
        void aThousandthOfAnOpPerSecondKeepsAnExactSlice() {
            LockFreeRateLimiter l = limiter("0.001");
            Grant g = l.newGrant();
            l.acquire(g);
            for (int i = 1; i <= 3; i++) {
                l.acquire(g);
                assertEquals(i * 1_000_000_000_000L, scheduled(g), "one op every 1000 s, exactly");
            }
        }

        @Test
        void highRatesDoNotDriftLikeWholeNanosecondSlicesWould() {
            for (double rate : new double[] {3, 7e6, 3e8}) {
                LockFreeRateLimiter l = limiter(Double.toString(rate));
                long ops = (long) rate; // one second's worth
                long oneSecond = ScheduleUnits.toNanos(ScheduleUnits.cost(ops, l.sliceUnits()));
                double drift = Math.abs(oneSecond - 1e9) / 1e9;
                assertTrue(drift < 1e-3, rate + " ops/s drifts " + drift);
                if (rate == 7e6) {
                    assertTrue(drift < 2e-5, "7M ops/s: 142.857 ns slices would drift 0.6 %; units drift " + drift);
                }
            }
        }
    }
}
