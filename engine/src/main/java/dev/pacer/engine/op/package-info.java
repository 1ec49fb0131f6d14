/**
 * The ops pacer brings and how an op is found: the built-in ops ({@code noop}, {@code sleep}, {@code cpu}), a mix
 * of named ops, {@link dev.pacer.engine.op.Ops} (which finds every {@link dev.pacer.engine.api.OpProvider} with
 * {@link java.util.ServiceLoader}); {@code op.http} holds the HTTP op. The op interfaces are in the API package.
 */
package dev.pacer.engine.op;
