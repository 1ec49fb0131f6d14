package dev.pacer.engine.op.http;

import io.netty.channel.Channel;

/** The warm-up's private servers' pipelines beyond HTTP/1.1. */
final class WarmUpServers {

    private WarmUpServers() {
    }

    /** HTTP/2 with prior knowledge (h2c): answers every request with 200 "ok". */
    static void h2c(Channel ch) {
        throw new UnsupportedOperationException("h2c");
    }
}
