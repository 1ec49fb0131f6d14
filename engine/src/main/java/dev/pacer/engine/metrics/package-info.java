/**
 * Recording: each worker's recorders ({@link dev.pacer.engine.metrics.SingleWriterMetrics}, or a
 * shared stripe for thousands of virtual threads), drained by the reporter into the
 * {@link dev.pacer.engine.api.IntervalStats} it hands out; the API holds the three
 * {@link dev.pacer.engine.api.Metric}s and their {@link dev.pacer.engine.api.LatencySummary}.
 */
package dev.pacer.engine.metrics;
