package dev.pacer.engine.op;

import dev.pacer.engine.api.Op;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An op whose cycles each run one of several named ops (a workload's weighted mix): besides the run's totals, each
 * named op gets its own count, errors and wait, service and response histograms, per interval and for the run
 * (tagged {@code wait.NAME}, {@code service.NAME}, {@code response.NAME} in the .hlog).
 *
 * <h2>What the op promises</h2>
 * <ol>
 *   <li>{@link #opNames()} is fixed for the op's life: at most {@link #MAX_OPS} distinct names of 1 to 64 letters,
 *       digits, {@code _}, {@code .} and {@code -} (not first). No names: the op is recorded as a plain op.</li>
 *   <li>{@link #opOf(long)} is a pure function of the cycle and cheap: the worker calls it for every cycle, before
 *       the cycle starts, on the run's hot path (no allocation, no lock). It returns an index into
 *       {@link #opNames()}; any other value ({@link #NO_OP}) leaves the cycle in the totals only.</li>
 * </ol>
 */
public interface OpMix {

    /** The most named ops a run keeps figures for (each costs three histograms per worker and phase). */
    int MAX_OPS = 64;

    /** The index of no op: a cycle counted in the run's totals only. */
    int NO_OP = -1;

    /** The ops' names, in their order (the tables and the log list them so). */
    List<String> opNames();

    /** The index into {@link #opNames()} of the op that {@code cycle} runs. */
    int opOf(long cycle);

    /**
     * How many steps named op {@code opIndex} runs one after another (a workload op's requests), fixed for the op's
     * life: above one, each step's service time is kept too (its completion marks each step's end,
     * {@link dev.pacer.engine.api.Completion#stepEnded}), for the first {@link #MAX_STEPS}. One by default.
     */
    default int stepsOf(int opIndex) {
        return 1;
    }

    /** The most steps of one op whose service times are kept. */
    int MAX_STEPS = 16;

    /**
     * The names of {@code op}'s ops, checked against the promises above; empty for an op that is not a mix or
     * names none.
     *
     * @throws IllegalArgumentException naming the first name that breaks them, or their count
     */
    static List<String> namesOf(Op op) {
        if (!(op instanceof OpMix mix)) {
            return List.of();
        }
        List<String> names = List.copyOf(mix.opNames());
        if (names.size() > MAX_OPS) {
            throw new IllegalArgumentException("an op mix of " + names.size() + " ops: figures are kept for at most "
                    + MAX_OPS);
        }
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("op name '" + name + "' must be 1 to 64 letters, digits, _ . -");
            }
            if (!seen.add(name)) {
                throw new IllegalArgumentException("op name '" + name + "' is given twice");
            }
        }
        return names;
    }

    /** {@link #stepsOf} for each of {@code op}'s {@code names} named ops; all 1 for an op that is not a mix. */
    static int[] stepsOf(Op op, int names) {
        int[] steps = new int[names];
        for (int i = 0; i < names; i++) {
            steps[i] = op instanceof OpMix mix ? mix.stepsOf(i) : 1;
        }
        return steps;
    }

    /** What an op's name may be: it becomes part of a histogram's tag, which holds no comma or space. */
    Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");
}
