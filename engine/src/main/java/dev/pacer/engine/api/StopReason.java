package dev.pacer.engine.api;

import java.util.Locale;

/**
 * Why a run ended. The first reason given wins: a run stopped by a signal while its last ops finish
 * still ended by the signal.
 */
public enum StopReason {
    /** Its duration elapsed: no op scheduled at or after the deadline started. */
    DURATION,
    /** Its cycle limit was reached. */
    CYCLES,
    /** Every worker exited with neither limit reached (e.g. an op that stops its own worker). */
    END,
    /** SIGINT or SIGTERM (Ctrl-C, an orchestrator). */
    SIGNAL,
    /** A stop command, from the console, the HTTP endpoint or the API; the change names its source. */
    CONTROL,
    /** A knee search finished: its last probe was judged. */
    SEARCH,
    /** The run could not go on as asked, e.g. its log could not be written; the summary says why. */
    ERROR;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** {@code duration}, {@code signal}, ...: as the summary and its JSON show it. */
    public String label() {
        return label;
    }

    /** True for the ends a run plans (duration, cycles, end, search), which are not logged as changes. */
    public boolean planned() {
        return this == DURATION || this == CYCLES || this == END || this == SEARCH;
    }
}
