package dev.pacer.engine.op.http;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The parts of an HTTP/1.1 response that {@link H1ResponseParser} was asked to keep: the status, the header lines
 * and the body (de-chunked). Its arrays are reused from one response to the next, grown when a response needs more:
 * reading into it allocates nothing once they fit. Not thread-safe: one per connection, used on its event loop;
 * what it holds is valid until the next response is read into it.
 */
public final class H1Response {

    private final int maxBody;
    int status;
    private byte[] body = new byte[256];
    private int bodyLength;
    /** The header lines as read (name, colon, value), each followed by a LF. */
    private byte[] headers = new byte[256];
    private int headersLength;

    /** A response whose body may be up to {@code maxBody} bytes long. */
    public H1Response(int maxBody) {
        this.maxBody = maxBody;
    }

    /** The status. */
    public int status() {
        return status;
    }

    /** The body's bytes: {@code [0, bodyLength())} of this array (empty when the body was not kept). */
    public byte[] body() {
        return body;
    }

    public int bodyLength() {
        return bodyLength;
    }

    /** The most body bytes kept: a longer body is a failure of its request. */
    public int maxBody() {
        return maxBody;
    }

    /**
     * The first value of the header {@code name} (any case), spaces and tabs around it removed, or null when the
     * response has none (or its headers were not kept). Allocates the value's string.
     */
    public String header(String name) {
        int colon = colonOfNext(name, 0);
        return colon < 0 ? null : trimmed(colon + 1, lineEnd(colon));
    }

    /**
     * The value of the cookie {@code name} (case-sensitive) that a {@code Set-Cookie} header of the response sets, the
     * last when several do, or null: a header's text up to its first {@code ;} is {@code NAME=VALUE}, spaces and tabs
     * around each removed (RFC 6265 5.2). Allocates the value's string.
     */
    public String cookie(String name) {
        String value = null;
        for (int colon = colonOfNext("Set-Cookie", 0); colon >= 0;
                colon = colonOfNext("Set-Cookie", lineEnd(colon) + 1)) {
            int end = colon + 1;
            while (headers[end] != ';' && headers[end] != '\n') {
                end++;
            }
            int eq = colon + 1;
            while (eq < end && headers[eq] != '=') {
                eq++;
            }
            if (eq < end && trimmed(colon + 1, eq).equals(name)) {
                value = trimmed(eq + 1, end);
            }
        }
        return value;
    }

    /** The colon of the first kept header line at or after {@code from} named {@code name} (any case), or -1. */
    private int colonOfNext(String name, int from) {
        int start = from;
        for (int i = from; i < headersLength; i++) {
            if (headers[i] != '\n') {
                continue;
            }
            int colon = start;
            while (headers[colon] != ':') {
                colon++;
            }
            int nameEnd = colon;
            while (nameEnd > start && (headers[nameEnd - 1] == ' ' || headers[nameEnd - 1] == '\t')) {
                nameEnd--;
            }
            if (nameIs(name, start, nameEnd)) {
                return colon;
            }
            start = i + 1;
        }
        return -1;
    }

    /** The end (its line feed) of the kept header line holding {@code at}. */
    private int lineEnd(int at) {
        int i = at;
        while (headers[i] != '\n') {
            i++;
        }
        return i;
    }

    /** The header bytes from {@code from} to {@code to}, spaces and tabs around them removed. */
    private String trimmed(int from, int to) {
        while (from < to && (headers[from] == ' ' || headers[from] == '\t')) {
            from++;
        }
        while (to > from && (headers[to - 1] == ' ' || headers[to - 1] == '\t')) {
            to--;
        }
        return new String(headers, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private boolean nameIs(String name, int from, int to) {
        if (to - from != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            char b = (char) (headers[from + i] & 0xff);
            if (b != c && Character.toLowerCase(b) != Character.toLowerCase(c)) {
                return false;
            }
        }
        return true;
    }

    void clear() {
        status = 0;
        bodyLength = 0;
        headersLength = 0;
    }

    /** The last header line kept goes on with {@code line[from, n)}, after one space (a folded line, obs-fold). */
    void appendFold(byte[] line, int from, int n) {
        if (headersLength == 0) {
            return;
        }
        headers[headersLength - 1] = ' '; // the previous line's end becomes the one space
        append(line, from, n);
    }

    /** Keeps a header line ({@code n} bytes of {@code line}, which holds a colon). */
    void appendHeader(byte[] line, int n) {
        append(line, 0, n);
    }

    /** Appends {@code line[from, to)} and a line end. */
    private void append(byte[] line, int from, int to) {
        int n = to - from;
        if (headersLength + n + 1 > headers.length) {
            headers = Arrays.copyOf(headers, Math.max(headers.length * 2, headersLength + n + 1));
        }
        System.arraycopy(line, from, headers, headersLength, n);
        headersLength += n;
        headers[headersLength++] = '\n';
    }

    /**
     * Keeps the next {@code n} bytes of {@code in} as body.
     *
     * @throws BodyTooLargeException when the body would outgrow {@link #maxBody()}
     */
    void appendBody(ByteBuf in, int n) {
        if ((long) bodyLength + n > maxBody) {
            throw new BodyTooLargeException(maxBody);
        }
        if (bodyLength + n > body.length) {
            body = Arrays.copyOf(body, (int) Math.min(maxBody, Math.max(body.length * 2L, bodyLength + n)));
        }
        in.readBytes(body, bodyLength, n);
        bodyLength += n;
    }

    /** A kept body longer than the most kept: its request fails (the connection is closed). */
    public static final class BodyTooLargeException extends IllegalStateException {
        BodyTooLargeException(int max) {
            super("a response body over " + max + " bytes");
        }
    }
}
