package dev.pacer.engine.api;

/**
 * How one {@code --threshold} gate fared.
 *
 * @param expression the gate as the user wrote it
 * @param passed     whether it held
 * @param actual     the measured side, formatted ({@code 12.3ms}, {@code 1998.2 ops/s}, {@code 0.02%})
 */
public record ThresholdResult(String expression, boolean passed, String actual) {
}
