package dev.pacer.engine.report;

/**
 * A change recorded in a log's comments ({@code #[pacer change] rate 8000,0 (console) at 12.345s}),
 * drawn as a marker on the time charts.
 *
 * @param atSec seconds since the epoch
 * @param text  what changed, e.g. {@code rate 8000,0 (console)}
 */
public record Marker(double atSec, String text) {
}
