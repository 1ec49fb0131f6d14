package dev.pacer.engine.op.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The size an http op reports for a byte-metering limiter is the size of the request it sends. */
class HttpRequestSizeTest {

    @Test
    void theReportedSizeIsTheEncodedRequestsForEveryCycleLength() {
        HttpRequestTemplate t = new HttpRequestTemplate("http://127.0.0.1:8080/item/{cycle}?q={cycle}", "POST",
                List.of("X-Test: 1"), "body {cycle}".getBytes(StandardCharsets.UTF_8));
        byte[] digits = new byte[20];
        for (long cycle : new long[] {0, 9, 10, 99_999, 1_000_000, Long.MAX_VALUE}) {
            ByteBuf b = t.head(UnpooledByteBufAllocator.DEFAULT, cycle, digits);
            try {
                assertEquals(b.readableBytes() + t.bodyLength(), t.size(cycle), "cycle " + cycle);
            } finally {
                b.release();
            }
        }
        HttpRequestTemplate fixed = new HttpRequestTemplate("http://127.0.0.1:8080/", "GET", List.of(), (byte[]) null);
        ByteBuf f = fixed.fixedHead();
        assertEquals(f.readableBytes(), fixed.size(7));
        f.release();
    }
}
