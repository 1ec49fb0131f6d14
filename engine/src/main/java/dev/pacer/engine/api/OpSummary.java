package dev.pacer.engine.api;

/**
 * One named op of a run's mix (a workload's op), over the measured run (warm-up left out): its share of the run's
 * figures. The ops' counts add up to the run's, but for ops no cycle was drawn for (slots owed at a stop, recorded as
 * not sent).
 *
 * @param op           the op's name
 * @param figures      its ops, errors, rate (its ops over the run's measured time; no target of its own: NaN) and
 *                     wait, service and response
 * @param outcomes     its outcomes' counts by label
 * @param errorsByType its error outcomes only
 * @param steps        an op of several steps (a workload op's requests): each step's service time, in order, from the
 *                     previous step's end (the op's start) to its own; empty for an op of one step
 */
public record OpSummary(String op, RunFigures figures, java.util.Map<String, Long> outcomes,
                        java.util.Map<String, Long> errorsByType, java.util.List<LatencySummary> steps) {

    public OpSummary {
        outcomes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(outcomes));
        errorsByType = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(errorsByType));
        steps = java.util.List.copyOf(steps);
    }

    /** An op of one step. */
    public OpSummary(String op, RunFigures figures, java.util.Map<String, Long> outcomes,
                     java.util.Map<String, Long> errorsByType) {
        this(op, figures, outcomes, errorsByType, java.util.List.of());
    }
}
