package dev.pacer.ratelimit.api;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * The production {@link Sleeper}: {@link LockSupport#parkNanos(long)}, never a spin loop, never
 * {@code Thread.sleep} (JDK 17's {@code Thread.sleep(ms, ns)} rounds up to whole milliseconds).
 *
 * <p>Its two figures come from a calibration run once per JVM ({@link #calibrated()}): a few dozen
 * {@code parkNanos(1 µs)} calls, timed. On a 2-vCPU VM with the kernel's default 50 µs timer slack
 * the median is 55–80 µs, so the threshold lands around 110–160 µs. The system properties
 * {@code pacer.park.thresholdNanos} and {@code pacer.park.overshootNanos} override the measurement.
 */
public final class ParkingSleeper implements Sleeper {

    /** Calibration samples; the median of these parks is the park cost. */
    static final int CALIBRATION_SAMPLES = 31;
    /** Bounds on the calibrated park cost, so a pathological measurement cannot disable pacing. */
    static final long MIN_PARK_COST_NANOS = 5_000;
    static final long MAX_PARK_COST_NANOS = 1_000_000;

    private final long thresholdNanos;
    private final long overshootNanos;

    public ParkingSleeper(long thresholdNanos, long overshootNanos) {
        if (thresholdNanos < 0 || overshootNanos < 0) {
            throw new IllegalArgumentException("park threshold and overshoot must be >= 0, got "
                    + thresholdNanos + " and " + overshootNanos);
        }
        this.thresholdNanos = thresholdNanos;
        this.overshootNanos = overshootNanos;
    }

    /** The calibrated sleeper of this JVM (measured on first use, about 2 ms, then cached). */
    public static ParkingSleeper calibrated() {
        return Calibration.SLEEPER;
    }

    @Override
    public void park(long nanos) {
        LockSupport.parkNanos(nanos);
    }

    @Override
    public long parkThresholdNanos() {
        return thresholdNanos;
    }

    @Override
    public long parkOvershootNanos() {
        return overshootNanos;
    }

    @Override
    public String toString() {
        return "ParkingSleeper[threshold=" + thresholdNanos + "ns, overshoot=" + overshootNanos + "ns]";
    }

    /** Median cost of {@code parkNanos(1000)} on this machine, in nanoseconds, clamped to sane bounds. */
    static long measureParkCostNanos() {
        long[] samples = new long[CALIBRATION_SAMPLES];
        for (int i = 0; i < 5; i++) {
            LockSupport.parkNanos(1_000); // warm the path up
        }
        for (int i = 0; i < samples.length; i++) {
            long t0 = System.nanoTime();
            LockSupport.parkNanos(1_000);
            samples[i] = System.nanoTime() - t0;
        }
        Arrays.sort(samples);
        long median = samples[samples.length / 2];
        return Math.max(MIN_PARK_COST_NANOS, Math.min(MAX_PARK_COST_NANOS, median));
    }

    /** Lazy holder: calibration runs on first use of {@link #calibrated()}, once. */
    private static final class Calibration {
        static final ParkingSleeper SLEEPER = create();

        private static ParkingSleeper create() {
            Long threshold = Long.getLong("pacer.park.thresholdNanos");
            Long overshoot = Long.getLong("pacer.park.overshootNanos");
            long cost = (threshold == null || overshoot == null) ? measureParkCostNanos() : 0;
            return new ParkingSleeper(
                    threshold != null ? threshold : 2 * cost,
                    overshoot != null ? overshoot : cost);
        }
    }
}
