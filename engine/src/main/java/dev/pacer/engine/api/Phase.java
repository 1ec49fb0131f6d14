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

    /** @throws SettingException a phase without a name, a duration or a rate plan */
    public Phase {
        if (name == null || duration == null || rate == null) {
            throw new SettingException(name == null ? "name" : duration == null ? "duration" : "rate", null,
                    "a phase needs a name, a duration and a rate plan" + (name == null ? "" : " ('" + name + "')"));
        }
    }
}
