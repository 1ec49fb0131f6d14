/**
 * What happens to a run: {@link dev.pacer.engine.event.Change}s (rate, threads, pause, phase, ...) and
 * why it stopped ({@link dev.pacer.engine.event.StopReason}). Plain values at the bottom of the engine.
 */
package dev.pacer.engine.event;
