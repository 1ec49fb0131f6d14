package dev.pacer.engine.op.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The HTTP/1.1 response reader, whole and split at every byte (as TCP may deliver it). */
@Timeout(30)
class H1ResponseParserTest {

    /**
     * Feeds {@code text} in pieces of {@code piece} bytes; returns the parser once the response is complete,
     * checking it ends exactly there.
     */
    static H1ResponseParser parse(String text, int piece, boolean head) {
        H1ResponseParser p = new H1ResponseParser();
        p.reset(head);
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < bytes.length; i += piece) {
            ByteBuf b = Unpooled.wrappedBuffer(bytes, i, Math.min(piece, bytes.length - i));
            boolean done = p.read(b);
            if (done) {
                assertEquals(bytes.length, i + b.readerIndex(), "complete exactly at the response's end: " + text);
                return p;
            }
        }
        throw new AssertionError("incomplete: " + text);
    }

    static void both(String text, int status, boolean close) {
        for (int piece : new int[] {1, 2, 7, 1000}) {
            H1ResponseParser p = parse(text, piece, false);
            assertEquals(status, p.status(), text);
            assertEquals(close, p.mustClose(), text);
        }
    }

    @Test
    void contentLengthChunkedInterimAndClose() {
        both("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nServer: x\r\n\r\nok\n", 200, false);
        both("HTTP/1.1 404 Not Found\r\ncontent-length:0\r\n\r\n", 404, false);
        both("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n0\r\n\r\n", 200, false);
        both("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\nTrailer: t\r\n\r\n",
                200, false);
        both("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", 201, false);
        both("HTTP/1.1 204 No Content\r\n\r\n", 204, false);
        both("HTTP/1.1 500 Oops\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx", 500, true);
        both("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", 200, true);
        both("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx", 200, false);
        H1ResponseParser head = parse("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", 3, true);
        assertEquals(200, head.status());
    }

    /**
     * Lines are scanned in a window of {@link H1ResponseParser#WINDOW} bytes copied at once: a header block longer than
     * the window, lines across its edge, and a second response in the same buffer (left unread, for the connection's
     * next request) are read the same from a direct buffer as from a heap one, in any pieces.
     */
    @Test
    void headersLongerThanTheWindowAndTheNextResponseInTheSameBuffer() {
        StringBuilder headers = new StringBuilder("HTTP/1.1 200 OK\r\nX-Long: " + "v".repeat(3000) + "\r\n");
        for (int i = 0; headers.length() < 3 * H1ResponseParser.WINDOW; i++) {
            headers.append("X-").append(i).append(": ").append("w".repeat(i % 50)).append("\r\n");
        }
        String first = headers + "Content-Length: 5\r\n\r\nhello";
        String second = "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n";
        byte[] bytes = (first + second).getBytes(StandardCharsets.ISO_8859_1);
        int w = H1ResponseParser.WINDOW;
        for (int piece : new int[] {1, 13, w - 1, w, w + 1, bytes.length}) {
            for (boolean direct : new boolean[] {false, true}) {
                H1ResponseParser p = new H1ResponseParser();
                p.reset(false);
                int at = 0;
                int responses = 0;
                while (at < bytes.length) {
                    int n = Math.min(piece, bytes.length - at);
                    ByteBuf b = direct ? Unpooled.directBuffer(n) : Unpooled.buffer(n);
                    b.writeBytes(bytes, at, n);
                    while (b.isReadable()) {
                        int from = b.readerIndex();
                        boolean done = p.read(b);
                        at += b.readerIndex() - from;
                        if (done) {
                            responses++;
                            assertEquals(responses == 1 ? first.length() : bytes.length, at,
                                    "response " + responses + " ends where it ends, piece " + piece + ", " + direct);
                            assertEquals(responses == 1 ? 200 : 201, p.status());
                            p.reset(false);
                        }
                    }
                    b.release();
                }
                assertEquals(2, responses, "piece " + piece);
            }
        }
    }

    @Test
    void aBodyUntilCloseEndsWithTheConnection() {
        H1ResponseParser p = new H1ResponseParser();
        p.reset(false);
        assertFalse(p.read(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\n\r\nsome body", StandardCharsets.US_ASCII)));
        assertTrue(p.endsAtClose());
        assertEquals(200, p.status());
    }

    /**
     * RFC 9112 6.3: a Transfer-Encoding frames the body whatever a Content-Length says; one whose last coding is not
     * chunked runs to the close (a proxy's {@code gzip} beside a Content-Length was framed by the length, and the
     * rest of its body read as the next response); chunked beside a Content-Length leaves the connection unused.
     */
    @Test
    void aTransferEncodingOverridesAContentLength() {
        H1ResponseParser p = new H1ResponseParser();
        p.reset(false);
        assertFalse(p.read(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nContent-Length: 2\r\n"
                + "\r\nok" + "HTTP/1.1 200 OK\r\n", StandardCharsets.US_ASCII)), "not framed by the Content-Length");
        assertTrue(p.endsAtClose());
        both("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", 200,
                true);
        both("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n", 200, false);
    }

    @Test
    void garbageIsAProtocolError() {
        for (String bad : new String[] {"SSH-2.0-OpenSSH\r\n", "HTTP/1.1 2x0 OK\r\n", "HTTP/1.1 200 OK\r\nno colon\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"}) {
            H1ResponseParser p = new H1ResponseParser();
            p.reset(false);
            assertThrows(IllegalStateException.class,
                    () -> p.read(Unpooled.copiedBuffer(bad, StandardCharsets.US_ASCII)), bad);
        }
    }

    static void protocolError(String bad) {
        for (int piece : new int[] {1, 1000}) {
            H1ResponseParser p = new H1ResponseParser();
            p.reset(false);
            byte[] bytes = bad.getBytes(StandardCharsets.ISO_8859_1);
            assertThrows(IllegalStateException.class, () -> {
                for (int i = 0; i < bytes.length; i += piece) {
                    p.read(Unpooled.wrappedBuffer(bytes, i, Math.min(piece, bytes.length - i)));
                }
            }, bad);
        }
    }

    @Test
    void headerValuesAreMatchedAsTokensNotSubstrings() {
        // not chunked: a coding of its own, whose body runs to the close (as chunked, "abc" is a bad chunk size)
        H1ResponseParser p = new H1ResponseParser();
        p.reset(false);
        assertFalse(p.read(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nTransfer-Encoding: notchunked\r\n"
                + "Content-Length: 3\r\n\r\nabc", StandardCharsets.US_ASCII)));
        assertTrue(p.endsAtClose());
        both("HTTP/1.1 200 OK\r\nConnection: x-noclose\r\nContent-Length: 1\r\n\r\nx", 200, false);
        both("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 1\r\n\r\nx", 200, true);
        both("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n", 200, false);
        both("HTTP/1.0 200 OK\r\nConnection: not-keep-alive\r\nContent-Length: 1\r\n\r\nx", 200, true);
    }

    /**
     * A folded line (obs-fold) goes on with its field's value after one space (RFC 9112 5.2): it was a protocol error.
     * One that folds a framing field, or comes before any field, is refused; so is a header name with a CR or a space
     * in it, which matched Content-Length ({@code '\r' | 0x20 == '-'}).
     */
    @Test
    void aFoldedLineGoesOnWithItsFieldAndANameIsVisibleAscii() {
        both("HTTP/1.1 200 OK\r\nX-Folded: a\r\n  b\r\n\tc\r\nContent-Length: 1\r\n\r\nx", 200, false);
        both("HTTP/1.1 200 OK\r\nConnection: keep-alive,\r\n close\r\nContent-Length: 1\r\n\r\nx", 200, true);
        H1Response r = new H1Response(1 << 20);
        for (int piece : new int[] {1, 1000}) {
            keep("HTTP/1.1 201 Created\r\nLocation: /orders\r\n  /7\r\nX-After: y\r\nContent-Length: 0\r\n\r\n",
                    piece, r, true, false);
            assertEquals("/orders /7", r.header("Location"), "one space for the fold");
            assertEquals("y", r.header("X-After"));
        }
        protocolError("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n 0\r\n\r\nx");
        protocolError("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip,\r\n chunked\r\n\r\n");
        protocolError("HTTP/1.1 200 OK\r\n folded: first\r\nContent-Length: 0\r\n\r\n");
        protocolError("HTTP/1.1 200 OK\r\nContent\rLength: 2\r\n\r\nok");
        protocolError("HTTP/1.1 200 OK\r\nContent Length: 2\r\n\r\nok");
    }

    @Test
    void aMalformedOrConflictingContentLengthIsAProtocolError() {
        protocolError("HTTP/1.1 200 OK\r\nContent-Length: 2abc\r\n\r\nok");
        protocolError("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\nok");
        protocolError("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 2\r\n\r\nok");
        both("HTTP/1.1 200 OK\r\nContent-Length: 2 \r\nContent-Length: 2\r\n\r\nok", 200, false);
    }

    @Test
    void aChunkSizeWithLeadingZerosIsValid() {
        both("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0000000000000000005\r\nhello\r\n000\r\n\r\n",
                200, false);
        protocolError("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5x\r\nhello\r\n0\r\n\r\n");
    }

    @Test
    void aConnectionIsNotReusedAfter101() {
        both("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", 101, true);
    }

    /** Feeds {@code text} in pieces, keeping headers and body in {@code keep}; returns the parser once complete. */
    static H1ResponseParser keep(String text, int piece, H1Response keep, boolean headers, boolean body) {
        H1ResponseParser p = new H1ResponseParser();
        p.reset(false, keep, headers, body);
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < bytes.length; i += piece) {
            if (p.read(Unpooled.wrappedBuffer(bytes, i, Math.min(piece, bytes.length - i)))) {
                return p;
            }
        }
        throw new AssertionError("incomplete: " + text);
    }

    static String body(H1Response r) {
        return new String(r.body(), 0, r.bodyLength(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void aKeptBodyIsTheBodyDechunkedWhateverTheSplit() {
        String big = "x".repeat(3000); // over the kept body's first array
        String[][] cases = {
                {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", "hello"},
                {"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\n6\r\n world\r\n"
                        + "0\r\nTrailer: t\r\n\r\n", "hello world"},
                {"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "ok"},
                {"HTTP/1.1 200 OK\r\nContent-Length: 3000\r\n\r\n" + big, big},
                {"HTTP/1.1 204 No Content\r\n\r\n", ""},
        };
        H1Response r = new H1Response(1 << 20); // one for all: each response clears what the last one kept
        for (String[] c : cases) {
            for (int piece : new int[] {1, 3, 64, 100_000}) {
                keep(c[0], piece, r, true, true);
                assertEquals(c[1], body(r), c[0] + " in pieces of " + piece);
                assertEquals(Integer.parseInt(c[0].substring(c[0].lastIndexOf("HTTP/1.1 ") + 9).substring(0, 3)),
                        r.status(), "the final response's status");
            }
        }
    }

    @Test
    void aBodyNotAskedForIsNotKeptAndHeadersAreFoundInAnyCase() {
        H1Response r = new H1Response(1 << 20);
        String text = "HTTP/1.1 100 Continue\r\nLocation: /interim\r\n\r\n"
                + "HTTP/1.1 201 Created\r\nlocation:  /orders/7 \r\nX-Two: a\r\nX-Two: b\r\nContent-Length: 4\r\n\r\n"
                + "body";
        for (int piece : new int[] {1, 5, 1000}) {
            keep(text, piece, r, true, false);
            assertEquals("/orders/7", r.header("Location"), "the final response's, spaces removed");
            assertEquals("/orders/7", r.header("LOCATION"));
            assertEquals("a", r.header("x-two"), "the first value");
            assertEquals(null, r.header("Server"));
            assertEquals(0, r.bodyLength(), "the body was not asked for");
        }
        keep("HTTP/1.1 200 OK\r\nLocation: /x\r\nContent-Length: 1\r\n\r\nx", 1000, r, false, true);
        assertEquals(null, r.header("Location"), "headers not asked for are not kept");
        assertEquals("x", body(r));
    }

    @Test
    void aBodyUntilCloseIsKeptAsItComes() {
        H1Response r = new H1Response(1 << 20);
        H1ResponseParser p = new H1ResponseParser();
        p.reset(false, r, false, true);
        assertFalse(p.read(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\n\r\nsome ", StandardCharsets.US_ASCII)));
        assertFalse(p.read(Unpooled.copiedBuffer("body", StandardCharsets.US_ASCII)));
        assertTrue(p.endsAtClose());
        assertEquals("some body", body(r));
    }

    @Test
    void aKeptBodyOverTheMostIsRefusedAndASkippedOneIsNot() {
        String text = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world";
        H1Response r = new H1Response(10);
        assertThrows(H1Response.BodyTooLargeException.class, () -> keep(text, 4, r, false, true));
        assertEquals(200, keep(text, 4, r, true, false).status(), "a body not kept has no limit");
        H1Response exact = new H1Response(11);
        keep(text, 4, exact, false, true);
        assertEquals("hello world", body(exact));
    }

    @Test
    void aHeadResponseKeepsNoBody() {
        H1Response r = new H1Response(1 << 20);
        H1ResponseParser p = new H1ResponseParser();
        p.reset(true, r, true, true);
        assertTrue(p.read(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n",
                StandardCharsets.US_ASCII)));
        assertEquals(0, r.bodyLength());
        assertEquals("1000", r.header("content-length"));
    }
}
