package dev.pacer.engine.text;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Lines of UTF-8 text from a stream, each at most {@code maxBytes} long, so that input without newlines
 * ({@code head -c 4G /dev/zero}) costs a bounded buffer, never the heap. A line that is too long, or is
 * not UTF-8, is returned as a {@link Line} with a problem instead of text, and reading goes on with the
 * next line, unless the line runs past a second bound with no end in sight ({@code /dev/zero}): then
 * that is the last line returned. Line ends are {@code \n}, with or without a {@code \r} before it; the
 * last line needs none. Not thread-safe: one reader thread.
 */
public final class BoundedLineReader implements Closeable {

    /**
     * One line: its text, or why it has none.
     *
     * @param number  1-based
     * @param text    the line without its end, or null when {@code problem} is set
     * @param problem {@code over 4096 bytes} or {@code not UTF-8 text (byte 0xff)}, or null
     */
    public record Line(long number, String text, String problem) {
    }

    private final InputStream in;
    private final int maxBytes;
    private final long giveUpBytes;
    private final byte[] buffer = new byte[8192];
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
    private byte[] line = new byte[256];
    private int bufferStart;
    private int bufferEnd;
    private long number;
    private boolean gaveUp;

    /** Lines of at most {@code maxBytes}; a longer one is skipped to its end, however far. */
    public BoundedLineReader(InputStream in, int maxBytes) {
        this(in, maxBytes, Long.MAX_VALUE);
    }

    /**
     * Lines of at most {@code maxBytes}; a longer one is skipped to its end unless that lies past
     * {@code giveUpBytes}, where reading ends with that line's problem.
     */
    public BoundedLineReader(InputStream in, int maxBytes, long giveUpBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
        this.giveUpBytes = giveUpBytes;
    }

    /** The next line, or null at the end of the input. */
    public Line next() throws IOException {
        if (gaveUp) {
            return null;
        }
        int length = 0;
        long skipped = 0;
        boolean tooLong = false;
        boolean any = false;
        while (true) {
            if (bufferStart == bufferEnd) {
                bufferEnd = in.read(buffer);
                bufferStart = 0;
                if (bufferEnd <= 0) {
                    bufferEnd = 0;
                    return any ? line(length, tooLong) : null;
                }
            }
            any = true;
            int end = bufferStart;
            while (end < bufferEnd && buffer[end] != '\n') {
                end++;
            }
            int n = end - bufferStart;
            if (!tooLong && length + n <= maxBytes + 1) { // +1: a '\r' before the '\n'
                if (length + n > line.length) {
                    line = Arrays.copyOf(line, Math.min(maxBytes + 1, Math.max(length + n, line.length * 2)));
                }
                System.arraycopy(buffer, bufferStart, line, length, n);
                length += n;
            } else {
                tooLong = true;
                skipped += n;
                if (skipped > giveUpBytes && end == bufferEnd) {
                    gaveUp = true;
                    number++;
                    return new Line(number, null, "over " + maxBytes + " bytes, no line end in its first "
                            + (length + skipped) + " bytes");
                }
            }
            bufferStart = end;
            if (end < bufferEnd) {
                bufferStart++; // past the '\n'
                return line(length, tooLong);
            }
        }
    }

    private Line line(int length, boolean tooLong) {
        number++;
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        if (tooLong || length > maxBytes) {
            return new Line(number, null, "over " + maxBytes + " bytes");
        }
        ByteBuffer bytes = ByteBuffer.wrap(line, 0, length);
        CharBuffer chars = CharBuffer.allocate(length);
        CoderResult result = utf8.reset().decode(bytes, chars, true);
        if (result.isError()) {
            return new Line(number, null, String.format("not UTF-8 text (byte 0x%02x)", line[bytes.position()] & 0xff));
        }
        return new Line(number, chars.flip().toString(), null);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
