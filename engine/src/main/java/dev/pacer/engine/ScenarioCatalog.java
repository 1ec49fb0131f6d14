package dev.pacer.engine;

import dev.pacer.engine.api.RatePlan;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.scenario.ScenarioParser;
import dev.pacer.engine.scenario.Scenarios;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Where a run's {@link Scenario} comes from: a YAML file, pacer's built-in scenarios by name, or a knee search made
 * from an SLO. Each is checked whole when it is made; {@link LoadTest#scenario(Scenario)} runs it.
 */
public final class ScenarioCatalog {

    private ScenarioCatalog() {
    }

    /** The scenario file's, checked; a bad value is a {@code ScenarioException} naming its line. */
    public static Scenario read(Path file) throws IOException {
        return ScenarioParser.parse(Objects.requireNonNull(file, "file"));
    }

    /** The built-in scenarios by name, in the order {@code pacer scenarios} lists them. */
    public static Map<String, Scenario> builtIn() {
        return Scenarios.builtIn();
    }

    /** The built-in scenario {@code name}; a name that is none is a {@code SettingException} listing them. */
    public static Scenario named(String name) {
        return Scenarios.named(Objects.requireNonNull(name, "name"));
    }

    /**
     * A knee search: the highest rate from {@code from} to {@code to} that meets {@code slo} (gates joined by
     * {@code and}), probing each rate for {@code hold}, until the bracket is {@code precision} narrow (relative).
     */
    public static Scenario search(String slo, double from, double to, Duration hold, double precision) {
        return Scenarios.search(slo, from, to, hold, precision);
    }

    /** A search's precision as written: {@code 2%} or {@code 0.02}. */
    public static double precision(String text) {
        return RatePlan.Search.parsePrecision(Objects.requireNonNull(text, "text"));
    }
}
