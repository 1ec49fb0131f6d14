package dev.pacer.engine;

/**
 * One change made to a running activity (rate, strictness, threads, pause, resume, stop, phase), as
 * it is written into the .hlog comments, the summary and the progress output.
 *
 * @param atNanos    monotonic time it took effect
 * @param elapsedSec seconds since the run started
 * @param kind       {@code rate}, {@code strictness}, {@code threads}, {@code pause}, {@code resume},
 *                   {@code stop} or {@code phase}
 * @param value      the new value as text ({@code 8000,0.5}, {@code 32}, a phase name, a reason)
 * @param source     who asked: {@code console}, {@code http}, {@code scenario}, {@code signal}, ...
 */
public record Change(long atNanos, double elapsedSec, String kind, String value, String source) {

    /** One line: {@code rate 8000,0 (console) at 12.345s}. */
    public String describe() {
        return kind + (value.isEmpty() ? "" : " " + value) + " (" + source + ") at " + String.format("%.3fs", elapsedSec);
    }
}
