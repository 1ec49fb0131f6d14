package dev.pacer.engine.op.http;

import dev.pacer.engine.op.Completion;

/** Sends an http op's requests over one protocol's connections (HTTP/1.1 pool, HTTP/2 streams). Thread-safe. */
interface HttpSender extends AutoCloseable {

    /** Sends the request for {@code cycle}; {@code completion} is completed exactly once, on an event loop. */
    void send(long cycle, Completion completion);

    /** How many requests may be in flight at once (HTTP/1.1: the connections). */
    int capacity();

    /** Closes the connections; requests still in flight or queued complete as cancelled. */
    @Override
    void close();
}
