/**
 * How {@link dev.pacer.engine.LoadTest} runs a test, not part of the API: {@link dev.pacer.engine.internal.LoadRun}
 * wires one run (activity, reporter, sinks, status, control, console, scenario, signal hook) from
 * {@link dev.pacer.engine.internal.RunOptions}, the settings LoadTest has checked. Public for LoadTest and for the
 * engine's white-box tests; a program uses LoadTest.
 */
package dev.pacer.engine.internal;
