package dev.pacer.engine.op.http;

import dev.pacer.engine.op.Completion;
import dev.pacer.engine.op.Outcome;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.net.InetSocketAddress;

/** HTTP/2: not yet. */
final class H2Sender implements HttpSender {

    H2Sender(HttpTransport transport, HttpRequestTemplate template, HttpOutcomes outcomes, InetSocketAddress address,
             SslContext ssl, int connections, long timeoutNanos) {
        throw new dev.pacer.engine.text.SettingException("http-version", "2", "HTTP/2 is not supported yet");
    }

    static void alpn(SslContextBuilder b) {
    }

    @Override
    public void send(long cycle, Completion completion) {
        completion.complete(Outcome.CANCELLED);
    }

    @Override
    public int capacity() {
        return 0;
    }

    @Override
    public void close() {
    }
}
