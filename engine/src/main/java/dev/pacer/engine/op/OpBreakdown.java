package dev.pacer.engine.op;

/**
 * An op with figures of its own beside the run's totals (a workload's per-op counts, errors and service times):
 * the run prints {@link #breakdown()} under its summary. Called once, after the run's last op completed.
 */
public interface OpBreakdown {

    /** Lines to print under the summary, each ending in a line break; empty for none. */
    String breakdown();
}
