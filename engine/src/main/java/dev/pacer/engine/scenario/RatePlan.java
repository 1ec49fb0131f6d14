package dev.pacer.engine.scenario;

import java.time.Duration;

/** How a phase sets the rate over its duration: constant, a linear ramp, or a staircase. */
public sealed interface RatePlan {

    /** The rate the plan asks for at {@code elapsed} into the phase, ops/s. */
    double rateAt(Duration elapsed);

    /**
     * A constant rate.
     *
     * @param rate       ops/s
     * @param strictness strictness given with the rate ({@code rate: 1000,0.5}), or null
     */
    record Constant(double rate, Double strictness) implements RatePlan {
        @Override
        public double rateAt(Duration elapsed) {
            return rate;
        }
    }

    /** A linear ramp from {@code from} to {@code to} ops/s over the phase's duration. */
    record Ramp(double from, double to, Duration over) implements RatePlan {
        @Override
        public double rateAt(Duration elapsed) {
            double f = Math.min(1.0, Math.max(0.0, (double) elapsed.toNanos() / over.toNanos()));
            return from + (to - from) * f;
        }
    }

    /**
     * A staircase: {@code from}, {@code from + by}, ... up to {@code to}, each held for {@code every}; the
     * last step holds until the phase ends.
     */
    record Steps(double from, double to, double by, Duration every) implements RatePlan {
        /** Number of steps. */
        public int count() {
            return (int) Math.floor((to - from) / by + 1e-9) + 1;
        }

        /** The duration of the whole staircase. */
        public Duration length() {
            return every.multipliedBy(count());
        }

        @Override
        public double rateAt(Duration elapsed) {
            long step = Math.min(count() - 1, elapsed.toNanos() / every.toNanos());
            return from + step * by;
        }
    }
}
