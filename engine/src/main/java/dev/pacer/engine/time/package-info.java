/**
 * The run's time: {@link dev.pacer.engine.time.RunClock}, which every part of a run reads and waits on; its
 * system clock, and {@link dev.pacer.engine.time.ManualRunClock}, on which tests play runs exactly and fast.
 */
package dev.pacer.engine.time;
