package dev.pacer.engine.api;

/**
 * One phase of a run (a scenario phase).
 *
 * @param name    the phase's name
 * @param warmup  a warm-up phase: paced and logged, left out of the run's totals
 * @param figures what was measured in it
 */
public record PhaseSummary(String name, boolean warmup, RunFigures figures) {
}
