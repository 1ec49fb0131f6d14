package dev.pacer.engine.api;

import java.time.Duration;

/**
 * One timed phase of a scenario.
 *
 * @param name       shown in the progress line and the summary's per-phase table
 * @param duration   how long it lasts
 * @param rate       how it sets the rate
 * @param strictness strictness for the phase, or null for the scenario's default
 * @param threads    workers for the phase, or null to keep the current number
 * @param warmup     paced and logged, kept out of the run's totals
 * @param line       the line of the file it was read from, for messages
 */
public record Phase(String name, Duration duration, RatePlan rate, Double strictness, Integer threads, boolean warmup,
                    int line) {

    /**
     * @throws SettingException a phase without a name (or an empty one), a duration or a rate plan, or a knee search
     *                          as a warm-up
     */
    public Phase {
        if (name == null || duration == null || rate == null) {
            throw new SettingException(name == null ? "name" : duration == null ? "duration" : "rate", null,
                    "a phase needs a name, a duration and a rate plan" + (name == null ? "" : " ('" + name + "')"));
        }
        if (name.isBlank()) {
            throw new SettingException("name", name, "a phase's name must not be empty: the summary shows it");
        }
        if (warmup && rate instanceof RatePlan.Search) {
            throw new SettingException("warmup", "true", "phase '" + name + "' is a knee search, which cannot be a"
                    + " warm-up: the totals would leave it out");
        }
    }
}
