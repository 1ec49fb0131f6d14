package dev.pacer.engine.hlog;

import dev.pacer.engine.api.ChangeKind;

/**
 * A change recorded in a log ({@code #[pacer change] ...}), drawn as a marker on the time charts.
 *
 * @param atSec  when, seconds since the epoch
 * @param kind   what changed
 * @param value  the new value ({@code 8000,0}, a phase name), or empty
 * @param source who asked ({@code console}, {@code scenario}, ...)
 */
public record Marker(double atSec, ChangeKind kind, String value, String source) {

    /** The same marker at another time (e.g. relative to a report's start). */
    public Marker at(double sec) {
        return new Marker(sec, kind, value, source);
    }

    /** What changed, for a label: {@code rate 8000,0}, {@code phase ramp}. */
    public String label() {
        return kind.label() + (value.isEmpty() ? "" : " " + value);
    }
}
