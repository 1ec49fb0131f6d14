package dev.pacer.engine.api;

import java.util.Locale;

/** What a {@link Change} changed. Its {@link #label()} is how logs, the summary and the console name it. */
public enum ChangeKind {
    /** The target rate (and the strictness given with it). */
    RATE,
    /** The strictness alone. */
    STRICTNESS,
    /** The number of workers. */
    THREADS,
    /** Granting stopped until a resume; the paused time is given away. */
    PAUSE,
    /** Granting goes on where the schedule stood. */
    RESUME,
    /** The run was stopped before its planned end. */
    STOP,
    /** A scenario phase began; not a setting. */
    PHASE,
    /** A knee search's probe: its rate and, once judged, its verdict (a marker, not a setting). */
    PROBE;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** {@code rate}, {@code threads}, ...: the word users type and read. */
    public String label() {
        return label;
    }

    /** The kind with this label. */
    public static ChangeKind ofLabel(String label) {
        for (ChangeKind k : values()) {
            if (k.label.equals(label)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown change kind '" + label + "'");
    }
}
