/**
 * Pass/fail gates: {@link dev.pacer.engine.gate.Threshold} ({@code response.p99<20ms}) judged on
 * {@link dev.pacer.engine.result.RunFigures}, and the {@link dev.pacer.engine.gate.Verdict} of a run.
 */
package dev.pacer.engine.gate;
