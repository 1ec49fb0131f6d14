/**
 * {@code pacer report}: views of one or more interval logs (windowed, merged), as text, CSV, JSON and a
 * self-contained HTML page. Reads logs through the engine's {@code hlog} package; the engine never
 * uses this module.
 */
package dev.pacer.report;
