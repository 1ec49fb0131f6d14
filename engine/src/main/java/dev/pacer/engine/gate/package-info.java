/**
 * Pass/fail gates: {@link dev.pacer.engine.api.Threshold} ({@code response.p99<20ms}) judged on
 * {@link dev.pacer.engine.api.RunFigures}, and the {@link dev.pacer.engine.gate.Verdict} of a run.
 */
package dev.pacer.engine.gate;
