/**
 * What workers run: {@link dev.pacer.engine.op.Op} and its SPI, {@link dev.pacer.engine.op.OpProvider}
 * (found with {@link java.util.ServiceLoader}), {@link dev.pacer.engine.op.Outcome}s, and the built-in
 * ops ({@code noop}, {@code sleep}, {@code cpu}); {@code op.http} holds the HTTP op.
 */
package dev.pacer.engine.op;
