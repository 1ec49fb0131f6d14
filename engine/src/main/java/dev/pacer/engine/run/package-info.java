/**
 * The run core: an {@link dev.pacer.engine.run.Activity} (its workers, its limiter, and the one place
 * every change goes through), the {@link dev.pacer.engine.run.Worker} loop (acquire, run the op,
 * record), and the {@link dev.pacer.engine.run.Reporter} that cuts the run into intervals. Uses ops,
 * metrics, events and result records; knows nothing of sinks, control or scenarios, which subscribe.
 */
package dev.pacer.engine.run;
