/**
 * The engine's entry points: {@link dev.pacer.engine.LoadTest}, the one builder of a run (its
 * {@code Running} handle and {@code Result}), and the front doors beside it:
 * {@link dev.pacer.engine.LimiterComparison}, {@link dev.pacer.engine.ScenarioCatalog},
 * {@link dev.pacer.engine.WorkloadFiles}, {@link dev.pacer.engine.OpCatalog} and {@link dev.pacer.engine.RunLogs}.
 * With {@link dev.pacer.engine.api} they are the engine's API: the CLI uses nothing else (an ArchUnit rule in the
 * cli module).
 *
 * <h2>How data flows</h2>
 * <pre>
 *   LoadTest (this package)  checks the settings, makes the op, starts the run
 *     internal/   LoadRun wires one run from RunOptions: sinks, status, control, console, scenario, signals
 *     control/    console and HTTP commands applied to the Activity; the web console's feed
 *     export/     the Prometheus endpoint
 *     scenario/   timed phases played on the Activity; the knee search
 *     sink/       progress line, start lines, summary text and JSON, interval CSV
 *     run/        Activity (worker pool, run control, timeline, change log), Worker, Reporter (intervals)
 *     hlog/       the interval log: writer, reader and its comment format, side by side
 *     gate/       the verdict of the gates
 *     metrics/    per-worker recorders the reporter drains into IntervalStats
 *     workload/   workload files, the workload op, the PostgreSQL ops
 *     op/         the built-in ops, mixes, the providers' registry; op/http the HTTP op
 *     text/       bounded line reading, output files, JSON
 *     api/        what every package and every user shares: the op SPI, results, changes, the run's clock
 * </pre>
 * Each package uses only those below it (the layers are ArchUnit tests in the cli module); the
 * limiter ({@code dev.pacer.ratelimit}) is below them all.
 *
 * <h2>Errors</h2>
 * Bad input is refused before anything runs, as a {@link dev.pacer.engine.api.SettingException}
 * naming the setting in the engine's words (or a {@code ScenarioException}: {@code file:line: ...}).
 */
package dev.pacer.engine;
