package dev.pacer.engine.api;

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
 * @param source     who asked: {@code console}, {@code page} (the web console), {@code http}, {@code scenario},
 *                   {@code signal}, {@code api}, ...
 * @param note       what the change did besides (e.g. what a rate change reset in the limiter's design), or ""
 */
public record Change(long atNanos, double elapsedSec, ChangeKind kind, String value, String source, String note) {

    public Change {
        Objects.requireNonNull(kind, "kind");
        value = value == null ? "" : value;
        Objects.requireNonNull(source, "source");
        note = note == null ? "" : note;
    }

    /** A change with no note. */
    public Change(long atNanos, double elapsedSec, ChangeKind kind, String value, String source) {
        this(atNanos, elapsedSec, kind, value, source, "");
    }

    /** For people, one line: {@code rate 8000,0 (console) at 12.345s}. Not a file format. */
    public String describe() {
        return kind.label() + (value.isEmpty() ? "" : " " + value) + " (" + source + ") at "
                + String.format(Locale.ROOT, "%.3fs", elapsedSec) + (note.isEmpty() ? "" : "; " + note);
    }
}
