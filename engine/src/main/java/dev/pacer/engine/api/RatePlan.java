package dev.pacer.engine.api;


import dev.pacer.ratelimit.api.NumberText;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.List;
import java.time.Duration;

/** How a phase sets the rate over its duration: constant, a linear ramp, a staircase, or a knee search. */
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
        /** @throws SettingException a ramp over no time (null, zero or negative) */
        public Ramp {
            if (over == null || over.isNegative() || over.isZero()) {
                throw new SettingException("duration", over == null ? null : Durations.format(over),
                        "a ramp needs a duration greater than 0");
            }
        }

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
        /**
         * @throws SettingException a step held for no time, a step {@code by} that is 0, not finite or leads away from
         *                          {@code to}, or more than {@link Integer#MAX_VALUE} steps
         */
        public Steps {
            if (every == null || every.isNegative() || every.isZero()) {
                throw new SettingException("every", every == null ? null : Durations.format(every),
                        "each step needs a duration greater than 0");
            }
            if (!Double.isFinite(by) || by == 0 || to != from && (to > from) != (by > 0)) {
                throw new SettingException("by", Double.toString(by), "steps from " + from + " to " + to + " need a"
                        + " finite step " + (to >= from ? "above" : "below") + " 0");
            }
            if (Math.abs(to - from) / Math.abs(by) >= Integer.MAX_VALUE) { // count() would overflow
                throw new SettingException("by", Double.toString(by), "steps from " + from + " to " + to + " by it are"
                        + " more than " + Integer.MAX_VALUE + " steps; take larger ones (or a ramp)");
            }
        }

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

    /**
     * A knee search (see {@link dev.pacer.engine.scenario.KneeSearch}): the highest rate between {@code from} and
     * {@code to} that meets
     * the SLO, found by probes of {@code hold} each, judged after {@code settle}, to within {@code precision}.
     *
     * @param slo       the SLO as written: gates joined by {@code and}
     * @param gates     the SLO's gates
     * @param precision relative width of the final bracket, e.g. 0.02
     */
    record Search(double from, double to, String slo, List<Threshold> gates, Duration hold, Duration settle,
                  double precision) implements RatePlan {

        /**
         * A search, checked: rates {@code from < to} within what a rate may be, an SLO of at least one gate, a
         * positive {@code hold}, {@code 0 <= settle < hold}, a precision of 0.1 % to 50 %.
         *
         * @param settle the settling time, or null for a fifth of {@code hold}
         * @throws SettingException naming the setting ({@code slo}, {@code from}, {@code to}, {@code hold},
         *                          {@code settle}, {@code precision})
         */
        public static Search of(double from, double to, String slo, Duration hold, Duration settle, double precision) {
            if (slo == null) {
                throw new SettingException("slo", null, "a search needs an SLO of at least one gate, e.g."
                        + " response.p99<20ms");
            }
            if (!(from >= RateSpec.MIN_RATE && from <= RateSpec.MAX_RATE)) {
                throw new SettingException("from", plain(from), "must be a rate from " + plain(RateSpec.MIN_RATE)
                        + " to " + plain(RateSpec.MAX_RATE) + " ops/s");
            }
            if (to > RateSpec.MAX_RATE) {
                throw new SettingException("to", plain(to), "must be at most " + plain(RateSpec.MAX_RATE) + " ops/s");
            }
            if (hold == null) {
                throw new SettingException("hold", null, "how long each probe holds its rate, e.g. 10s");
            }
            if (hold.isNegative() || hold.isZero()) {
                throw new SettingException("hold", Durations.format(hold), "must be greater than 0");
            }
            if (hold.compareTo(Durations.MAX) > 0) {
                throw new SettingException("hold", Durations.format(hold), "must be at most " + Durations.MAX_TEXT);
            }
            if (settle == null) {
                settle = hold.dividedBy(5);
            }
            if (settle.isNegative()) {
                throw new SettingException("settle", Durations.format(settle), "must not be negative");
            }
            List<Threshold> gates;
            try {
                gates = Threshold.parseAll(slo);
            } catch (IllegalArgumentException e) {
                throw new SettingException("slo", slo, e.getMessage());
            }
            if (gates.isEmpty()) {
                throw new SettingException("slo", slo, "needs at least one gate, e.g. response.p99<20ms");
            }
            if (!(to > from)) {
                throw new SettingException("to", plain(to), "must be above the search's first rate, " + plain(from));
            }
            if (settle.compareTo(hold) >= 0) {
                throw new SettingException("settle", Durations.format(settle), "must be shorter than the hold, "
                        + Durations.format(hold));
            }
            if (!(precision >= 0.001 && precision <= 0.5)) {
                throw new SettingException("precision", plain(precision), "expected 0.1% to 50%");
            }
            return new Search(from, to, slo, gates, hold, settle, precision);
        }

        private static String plain(double rate) {
            return Double.isFinite(rate) ? java.math.BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString()
                    : Double.toString(rate);
        }

        /**
         * Refuses a hold whose probes the reporting {@code interval} cannot judge on time: a probe is judged on the
         * whole intervals that begin after its settling time, so what is left of the hold must take one.
         *
         * @throws SettingException naming the hold
         */
        public void checkInterval(Duration interval) {
            if (hold.minus(settle).compareTo(interval) >= 0) {
                return;
            }
            if (settle.equals(hold.dividedBy(5))) {
                throw new SettingException("hold", Durations.format(hold), "a probe is judged on the reporting"
                        + " intervals after its first fifth: give at least 1.25 x the ${interval} ("
                        + Durations.format(interval.multipliedBy(5).dividedBy(4)) + ")");
            }
            throw new SettingException("hold", Durations.format(hold), "a probe is judged on the reporting intervals"
                    + " after its settle, " + Durations.format(settle) + ": give at least that and one ${interval} ("
                    + Durations.format(settle.plus(interval)) + ")");
        }

        /** {@code 2%} or {@code 0.02}, from 0.1 % to 50 %: a value out of range is named as it was given. */
        public static double parsePrecision(String text) {
            String t = text.strip();
            double precision;
            try {
                precision = t.endsWith("%") ? NumberText.parsePlain(t.substring(0, t.length() - 1)).doubleValue() / 100
                        : NumberText.parsePlain(t).doubleValue();
            } catch (IllegalArgumentException e) {
                throw new SettingException("precision", text, "expected a fraction or a percentage, e.g. 2%");
            }
            if (!(precision >= 0.001 && precision <= 0.5)) {
                throw new SettingException("precision", text, "expected 0.1% to 50%");
            }
            return precision;
        }

        @Override
        public double rateAt(Duration elapsed) {
            return from;
        }

        /** The most probes a search can take: doubling, bisecting, then the two checks. */
        public int maxProbes() {
            int doubling = (int) Math.ceil(Math.log(to / from) / Math.log(2)) + 1;
            int bisecting = (int) Math.ceil(Math.log(Math.max(1.0, to - from) / (from * precision)) / Math.log(2)) + 1;
            return doubling + Math.max(0, bisecting) + 2;
        }

        /** A cap on its length: every probe held, with room for the reporter's interval at each end. */
        public Duration maxDuration() {
            return hold.plusSeconds(2).multipliedBy(maxProbes());
        }
    }
}
