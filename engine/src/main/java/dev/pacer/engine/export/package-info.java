/**
 * A run's figures for other tools: the Prometheus scrape endpoint ({@link
 * dev.pacer.engine.export.MetricsEndpoint}) and what it serves ({@link
 * dev.pacer.engine.export.PrometheusMetrics}), published by the reporter each interval, never per op.
 */
package dev.pacer.engine.export;
