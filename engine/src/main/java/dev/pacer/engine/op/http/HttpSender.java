package dev.pacer.engine.op.http;

import dev.pacer.engine.api.Completion;

/** Sends an http op's requests over one protocol's connections (HTTP/1.1 pool, HTTP/2 streams). Thread-safe. */
interface HttpSender extends AutoCloseable {

    /** Sends the request for {@code cycle}; {@code completion} is completed exactly once, on an event loop. */
    void send(long cycle, Completion completion);

    /** How many requests may be in flight at once (HTTP/1.1: the connections). */
    int capacity();

    /**
     * Opens up to {@code connections} of its connections ahead of the first request (a TCP connect, and TLS where
     * the URL asks for it; no request is sent), waiting at most {@code timeoutMillis}; a connection that fails to
     * open is opened again by its first request. Default: nothing (connections open on first use).
     */
    default void open(int connections, long timeoutMillis) throws InterruptedException {
    }

    /** Requests sent a second time (after a reused connection closed unanswered), so far. Default: none. */
    default long resent() {
        return 0;
    }

    /** Completes the requests queued for a connection (none of their bytes written) as not-sent. Default: none. */
    default void abandonQueued() {
    }

    /** Closes the connections; requests in flight complete as cancelled, those still queued as not-sent. */
    @Override
    void close();
}
