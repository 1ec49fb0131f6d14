/**
 * Recording: each worker's recorders ({@link dev.pacer.engine.metrics.SingleWriterMetrics}, or a
 * shared stripe for thousands of virtual threads), drained by the reporter into
 * {@link dev.pacer.engine.metrics.IntervalStats}; the three {@link dev.pacer.engine.metrics.Metric}s
 * (wait, service, response) and their {@link dev.pacer.engine.metrics.LatencySummary}.
 */
package dev.pacer.engine.metrics;
