/** The {@code http} op: an HTTP request per op, outcomes by status class and failure type. */
package dev.pacer.engine.op.http;
