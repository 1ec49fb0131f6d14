package dev.pacer.engine.op.http;

import dev.pacer.engine.op.AsyncOp;
import dev.pacer.engine.op.Completion;

/**
 * One HTTP request per op, asynchronous: {@link #start} hands the request to a connection's event loop
 * and returns; the response (or failure, or timeout) completes the op there. HTTP/1.1 over a pool of
 * keep-alive connections, each carrying one request at a time, so the op's capacity is the number of
 * connections; HTTP/2 multiplexes streams on a few connections. Thread-safe.
 *
 * <p>Built on Netty (an event loop per I/O thread, epoll on Linux): a fixed request is encoded once and
 * resent from the same buffer, responses are read by a small parser that discards bodies, so a request
 * allocates next to nothing.
 */
final class HttpOp implements AsyncOp {

    private final HttpTransport transport;
    private final HttpSender sender;
    private final HttpRequestTemplate template;
    private final HttpWarmUp warmUp;

    HttpOp(HttpTransport transport, HttpSender sender, HttpRequestTemplate template, HttpWarmUp warmUp) {
        this.transport = transport;
        this.sender = sender;
        this.template = template;
        this.warmUp = warmUp;
    }

    /** The request's size as HTTP/1.1 sends it (head and body), for a limiter that meters bytes. */
    @Override
    public long bytes(long cycle) {
        return template.size(cycle);
    }

    @Override
    public void start(long cycle, Completion completion) {
        sender.send(cycle, completion);
    }

    @Override
    public int capacity() {
        return sender.capacity();
    }

    /**
     * Runs the client against a private server on loopback, never the target, so the JIT has compiled the
     * client's paths before the first measured request; the op's own connections stay unopened.
     */
    @Override
    public void warmUp() throws Exception {
        if (warmUp != null) {
            warmUp.run();
        }
    }

    @Override
    public void close() {
        try {
            sender.close();
        } finally {
            transport.close();
        }
    }
}
