/**
 * Runs that compare: {@link dev.pacer.engine.compare.LimiterComparison} runs the same workload under each
 * limiter design. The top of the engine's layers: it drives whole tests through {@code LoadTest}.
 */
package dev.pacer.engine.compare;
