/**
 * The engine's API: the types a program that runs pacer, or an op written for it, touches, and that the CLI is built
 * on. The entry point is {@link dev.pacer.engine.LoadTest} (one builder for a run; its {@code Running} handle and
 * {@code Result}) with the other front doors beside it in {@code dev.pacer.engine}; this package holds what crosses
 * them: the op SPI ({@link dev.pacer.engine.api.Op}, {@link dev.pacer.engine.api.AsyncOp},
 * {@link dev.pacer.engine.api.OpProvider}, {@link dev.pacer.engine.api.Outcome}), the run's clock
 * ({@link dev.pacer.engine.api.RunClock}, {@link dev.pacer.engine.api.ManualRunClock}), the results
 * ({@link dev.pacer.engine.api.Summary}, {@link dev.pacer.engine.api.IntervalReport}, the three
 * {@link dev.pacer.engine.api.Metric}s), the changes a run records ({@link dev.pacer.engine.api.Change}), scenarios
 * and gates as values ({@link dev.pacer.engine.api.Scenario}, {@link dev.pacer.engine.api.Threshold}), and the
 * errors a bad setting gets ({@link dev.pacer.engine.api.SettingException}).
 *
 * <p>It is the bottom of the engine: it depends on the JDK, {@code ratelimit} and HdrHistogram only, so every other
 * engine package may use it, and the entry point above them all can hand its types out without a package cycle.
 */
package dev.pacer.engine.api;
