package dev.pacer.engine.workload;

import java.util.Arrays;

/**
 * One cycle of a workload while it runs: its global cycle and the values its steps saved, which later steps of
 * the same cycle read and no other cycle ever sees. Owned by one cycle at a time (its steps run one after the
 * other, each started from the previous one's completion, which orders the writes before the reads); a
 * connection's state is reused for each cycle it runs ({@link #reset}), which clears the saved values.
 */
final class CycleState {

    long cycle;
    /** The saved values by slot ({@link Workload.Op#savedNames()}); null until saved. */
    final String[] saved;
    /** Whether each saved value is a string (quoted in a JSON body), not JSON as it came (a number, an object...). */
    final boolean[] savedIsText;

    /**
     * A warm-up's cycle ({@link WorkloadWarmUp}): its answers are made from the checks, but a {@code regex} has no
     * answer made for it, so its check runs and its failure is let pass (the steps after it are warmed too).
     */
    boolean warm;

    private static final String[] NO_VALUES = {};
    private static final boolean[] NO_FLAGS = {};

    CycleState(long cycle, int savedSlots) {
        this.cycle = cycle;
        this.saved = savedSlots == 0 ? NO_VALUES : new String[savedSlots]; // most ops save nothing: no arrays
        this.savedIsText = savedSlots == 0 ? NO_FLAGS : new boolean[savedSlots];
    }

    /** Starts {@code cycle} in this state: no value saved. */
    CycleState reset(long cycle) {
        this.cycle = cycle;
        Arrays.fill(saved, null);
        Arrays.fill(savedIsText, false);
        return this;
    }
}
