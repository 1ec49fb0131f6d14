package dev.pacer.engine.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BoundedLineReaderTest {

    static BoundedLineReader reader(byte[] bytes, int max) {
        return new BoundedLineReader(new ByteArrayInputStream(bytes), max);
    }

    @Test
    void linesEndWithNewlineOrCrlfAndTheLastNeedsNone() throws IOException {
        BoundedLineReader r = reader("a\r\nbé\n\nlast".getBytes(StandardCharsets.UTF_8), 16);
        assertEquals(new BoundedLineReader.Line(1, "a", null), r.next());
        assertEquals(new BoundedLineReader.Line(2, "bé", null), r.next());
        assertEquals(new BoundedLineReader.Line(3, "", null), r.next());
        assertEquals(new BoundedLineReader.Line(4, "last", null), r.next());
        assertNull(r.next());
    }

    @Test
    void aLineOverTheBoundIsNamedAndSkippedWithoutHoldingIt() throws IOException {
        InputStream zeros = new InputStream() { // a gigabyte of zeros without a newline
            long left = 1L << 30;

            @Override
            public int read() {
                return left-- > 0 ? 0 : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left <= 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left);
                java.util.Arrays.fill(b, off, off + n, (byte) 0);
                left -= n;
                return n;
            }
        };
        InputStream zerosThenStop = new java.io.SequenceInputStream(zeros,
                new ByteArrayInputStream("\nstop\n".getBytes(StandardCharsets.US_ASCII)));
        BoundedLineReader r = new BoundedLineReader(zerosThenStop, 4096);
        assertEquals(new BoundedLineReader.Line(1, null, "over 4096 bytes"), r.next());
        assertEquals(new BoundedLineReader.Line(2, "stop", null), r.next());
        assertNull(r.next());
    }

    @Test
    void aLineWhoseEndLiesPastTheGiveUpBoundIsTheLastOneRead() throws IOException {
        InputStream endless = new InputStream() { // "ok\n", then zeros for ever
            long at;

            @Override
            public int read() {
                return at++ < 3 ? "ok\n".charAt((int) at - 1) : 0;
            }
        };
        BoundedLineReader r = new BoundedLineReader(endless, 16, 100_000);
        assertEquals(new BoundedLineReader.Line(1, "ok", null), r.next());
        BoundedLineReader.Line last = r.next();
        assertEquals(2, last.number());
        assertNull(last.text());
        assertTrue(last.problem().startsWith("over 16 bytes, no line end in its first "), last.problem());
        assertNull(r.next());
        assertNull(r.next());
    }

    @Test
    void aLineThatIsNotUtf8IsNamedAndTheNextIsRead() throws IOException {
        BoundedLineReader r = reader(new byte[] {'o', 'k', '\n', 'x', (byte) 0xc3, '\n', 'y'}, 16);
        assertEquals("ok", r.next().text());
        assertEquals(new BoundedLineReader.Line(2, null, "not UTF-8 text (byte 0xc3)"), r.next());
        assertEquals("y", r.next().text());
    }
}
