package dev.pacer.engine.event;

import java.util.Locale;
import java.util.Objects;

/**
 * One change made to a running activity (rate, strictness, threads, pause, resume, stop) or a marker
 * such as a scenario phase: what the summary lists, the progress output acknowledges and the .hlog
 * records (in its own format, see {@code dev.pacer.engine.hlog.ChangeComment}).
 *
 * @param atNanos    monotonic time it took effect
 * @param elapsedSec seconds since the run started
 * @param kind       what changed
 * @param value      the new value as text ({@code 8000,0.5}, {@code 32}, a phase name; empty for pause,
 *                   resume and stop)
 * @param source     who asked: {@code console}, {@code http}, {@code scenario}, {@code signal}, {@code api}, ...
 */
public record Change(long atNanos, double elapsedSec, ChangeKind kind, String value, String source) {

    public Change {
        Objects.requireNonNull(kind, "kind");
        value = value == null ? "" : value;
        Objects.requireNonNull(source, "source");
    }

    /** For people, one line: {@code rate 8000,0 (console) at 12.345s}. Not a file format. */
    public String describe() {
        return kind.label() + (value.isEmpty() ? "" : " " + value) + " (" + source + ") at "
                + String.format(Locale.ROOT, "%.3fs", elapsedSec);
    }
}
