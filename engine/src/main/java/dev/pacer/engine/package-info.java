/**
 * The engine's entry point: {@link dev.pacer.engine.LoadRun} runs one load test from
 * {@link dev.pacer.engine.RunOptions} and an op, and returns its summary.
 *
 * <h2>How data flows</h2>
 * <pre>
 *   LoadRun (this package)   wires one run: sinks, status, control, console, scenario, signals
 *     run/        Activity (workers, limiter, every change), Worker, Reporter (intervals)
 *       op/       what a worker runs: Op, OpProvider (the SPI), Outcome; op/http the HTTP op
 *       metrics/  per-worker recorders the reporter drains into IntervalStats
 *     control/    console and HTTP commands applied to the Activity
 *     scenario/   timed phases played on the Activity
 *     sink/       progress line, start lines, summary text and JSON
 *     hlog/       the interval log: writer, reader and its comment format, side by side
 *     gate/       thresholds and the verdict
 *     result/     Summary, RunFigures, IntervalReport: records every layer above reads
 *     event/      Change, ChangeKind, StopReason
 *     text/       durations, rates, JSON, SettingException
 * </pre>
 * Each package uses only those below it (the layers are ArchUnit tests in the cli module); the
 * limiter ({@code dev.pacer.ratelimit}) is below them all.
 *
 * <h2>Errors</h2>
 * Bad input is refused before anything runs, as a {@link dev.pacer.engine.api.SettingException}
 * naming the setting in the engine's words (or a {@code ScenarioException}: {@code file:line: ...}).
 */
package dev.pacer.engine;
