/**
 * What a run measured, as every reader sees it: {@link dev.pacer.engine.result.Summary},
 * {@link dev.pacer.engine.result.RunFigures} (what gates are judged on),
 * {@link dev.pacer.engine.result.PhaseSummary} and {@link dev.pacer.engine.result.IntervalReport}.
 * Immutable records; no behaviour.
 */
package dev.pacer.engine.result;
