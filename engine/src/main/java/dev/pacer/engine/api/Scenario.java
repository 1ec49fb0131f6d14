package dev.pacer.engine.api;


import dev.pacer.ratelimit.api.Arrivals;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import dev.pacer.ratelimit.LimiterDesign;

/**
 * A load test in timed phases, read from YAML (see {@link dev.pacer.engine.scenario.ScenarioParser} for the format).
 *
 * @param name        its name ({@code ramp-to-knee})
 * @param description one line for {@code pacer scenarios}
 * @param source      the file it came from, or {@code builtin:NAME}
 * @param op          the op spec ({@code noop}, {@code sleep:2ms}, {@code http}), or null for noop
 * @param opOptions   op options from the file (http: url, method, header, body, ...)
 * @param threads     workers (default for every phase), or null
 * @param arrivals    how ops arrive (uniform or poisson), or null for the default
 * @param limiter     the limiter design ({@code leaky:queue=10}), or null for the default
 * @param strictness  strictness (default for every phase), or null
 * @param phases      the phases, in order
 * @param lines       the line of each op setting the file gives ({@code op}, {@code url}, {@code header}, ...,
 *                    as the op names them), for problems found when the op is made, and of its {@code threads}
 */
public record Scenario(String name, String description, String source, String op, Map<String, List<String>> opOptions,
                       Integer threads, Double strictness, List<Phase> phases, Map<String, Integer> lines,
                       Arrivals arrivals, LimiterDesign limiter) {

    /** @throws SettingException a scenario without phases, or with two phases of one name */
    public Scenario {
        opOptions = Map.copyOf(opOptions);
        phases = List.copyOf(phases);
        lines = Map.copyOf(lines);
        if (phases.isEmpty()) {
            throw new SettingException("phases", null, "a scenario needs at least one phase");
        }
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Phase p : phases) {
            if (!names.add(p.name())) {
                throw new SettingException("phases", p.name(), "two phases have this name");
            }
        }
    }

    /**
     * An op setting from this file that was refused when the op was made, as {@code file:line: ...}: at
     * the setting's line, or for a missing one at the op's. Null when the file gives neither.
     */
    public ScenarioException refuse(SettingException e) {
        Integer line = lines.get(e.setting());
        if (line == null && e.value() == null) {
            line = lines.get("op");
        }
        return line == null ? null : new ScenarioException(source, line, e.getMessage());
    }

    /** The sum of the phases' durations. */
    public Duration totalDuration() {
        return phases.stream().map(Phase::duration).reduce(Duration.ZERO, Duration::plus);
    }
}
