/**
 * Workload files: a weighted mix of operations (HTTP requests, or steps of them) with generated data
 * ({@code bindings}), checks of what came back and values saved between a cycle's steps. Everything is
 * compiled when the file is loaded; a bad file is one {@code file:line: what is wrong} line.
 *
 * <p>Contracts (see docs/workloads.md): a binding's value is a pure function of (seed, binding name,
 * global cycle); the op mix is exact in every window of {@code L} cycles of every shard; checks are
 * errors by default and a cycle has one outcome; saved values live within their cycle.
 */
package dev.pacer.engine.workload;
