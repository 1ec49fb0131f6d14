package dev.pacer.engine.op.http;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * An HTTP/1.1 response reader that keeps what a load test needs and discards the rest: the status, and
 * where the response ends (Content-Length, chunked, or the connection's close), and whether the
 * connection may be reused. Bodies are skipped, never copied; a line (status, header, chunk size) is
 * copied into a reused array, so nothing is allocated per response. Interim 1xx responses (except 101)
 * are skipped; HEAD, 204 and 304 responses have no body. Header values are read as comma-separated
 * tokens ({@code Connection: x-noclose} is not {@code close}); a malformed or conflicting Content-Length
 * is a protocol error; a 101 ends the connection's HTTP/1.1 (it must close). A Transfer-Encoding frames the body
 * whatever a Content-Length says (RFC 9112 6.3): chunked when that is its last coding, else to the connection's
 * close; with both, the connection is not reused.
 *
 * <p>Asked to (a workload's checks and saves), it keeps the header lines or the body (de-chunked) in an
 * {@link H1Response}, whose arrays are reused from response to response: still nothing allocated per response
 * once they have grown to the responses' size.
 *
 * <p>Not thread-safe: one per connection, used on its event loop only.
 */
final class H1ResponseParser {

    private static final int NO_FIELD = 0;
    private static final int FRAMING_FIELD = 1;
    private static final int CONNECTION_FIELD = 2;
    private static final int OTHER_FIELD = 3;

    /** More than this in one line (status or header) is a protocol error. */
    static final int MAX_LINE = 64 * 1024;

    private static final int STATUS = 0;
    private static final int HEADERS = 1;
    private static final int BODY = 2;
    private static final int CHUNK_SIZE = 3;
    private static final int CHUNK_DATA = 4;
    private static final int CHUNK_END = 5;
    private static final int TRAILERS = 6;
    private static final int UNTIL_CLOSE = 7;
    private static final int DONE = 8;

    /** How many bytes {@link #readLines} copies at once. */
    static final int WINDOW = 2048;

    /**
     * What {@link #readLines} scans, a copy of the buffer's next bytes: one per thread, not per parser (a connection's
     * parser runs on its event loop, and the window holds nothing between calls), so 50 000 connections do not carry
     * 100 MB of windows.
     */
    private static final FastThreadLocal<byte[]> WINDOWS = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[WINDOW];
        }
    };

    private int state;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean head;
    private int status;
    private long contentLength;
    private boolean chunked;
    /** A Transfer-Encoding line was read: it, not a Content-Length, frames the body (RFC 9112 6.3). */
    private boolean transferEncoded;
    private boolean close;
    private boolean http10KeepAlive;
    private boolean http10;
    /** The kind of the last header line read ({@code *_FIELD}), which a folded line goes on with. */
    private int lastField;
    private long remaining;
    private boolean sawByte;
    /** Where the kept parts go, or null; which parts. */
    private H1Response keep;
    private boolean keepHeaders;
    private boolean keepBody;

    static {
        // loaded with the parser: the http op never keeps a response, and on a loaded machine the first run of the
        // compiled reset() loaded this class on the event loop after a run's clock had started (JFR jdk.ClassLoad)
        H1Response.class.getName();
    }

    /** Starts reading the response to a new request; {@code head}: it was a HEAD request (no body follows). */
    void reset(boolean head) {
        reset(head, null, false, false);
    }

    /**
     * Starts reading the response to a new request, keeping its header lines ({@code headers}) or its body
     * ({@code body}) in {@code keep}, which is cleared.
     *
     * @throws IllegalStateException (from {@link #read}) when a kept body outgrows {@link H1Response#maxBody()}
     */
    void reset(boolean head, H1Response keep, boolean headers, boolean body) { // keep is cleared by clearHeaders
        this.head = head;
        this.keep = keep;
        this.keepHeaders = headers && keep != null;
        this.keepBody = body && keep != null;
        state = STATUS;
        lineLength = 0;
        status = 0;
        sawByte = false;
        clearHeaders();
    }

    private void clearHeaders() {
        lastField = NO_FIELD;
        contentLength = -1;
        chunked = false;
        transferEncoded = false;
        close = false;
        http10 = false;
        http10KeepAlive = false;
        if (keep != null) {
            keep.clear();
        }
    }

    /** True while not one byte of the response has been read since {@link #reset}. */
    boolean nothingRead() {
        return state == STATUS && lineLength == 0 && status == 0 && !sawByte;
    }

    /** The response's status (after the status line was read), else 0. */
    int status() {
        return status;
    }

    /** True when the server said (or HTTP/1.0 implies) that the connection closes after this response. */
    boolean mustClose() {
        return close || (http10 && !http10KeepAlive);
    }

    /** True when the response's body runs until the connection closes: its close completes the response. */
    boolean endsAtClose() {
        return state == UNTIL_CLOSE;
    }

    /**
     * Reads what {@code in} holds (advancing its reader index). True when the response is complete; bytes
     * after it are left unread.
     *
     * @throws IllegalStateException on a malformed response (the connection must be closed)
     */
    boolean read(ByteBuf in) {
        sawByte |= in.isReadable();
        while (in.isReadable()) {
            switch (state) {
                case BODY, CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, in.readableBytes());
                    body(in, n);
                    remaining -= n;
                    if (remaining == 0) {
                        state = state == BODY ? DONE : CHUNK_END;
                    }
                }
                case UNTIL_CLOSE -> body(in, in.readableBytes());
                case DONE -> {
                    return true;
                }
                default -> readLines(in);
            }
            if (state == DONE) {
                return true;
            }
        }
        return state == DONE;
    }

    /** Skips {@code n} bytes of the body, or keeps them. */
    private void body(ByteBuf in, int n) {
        if (keepBody) {
            keep.appendBody(in, n);
        } else {
            in.skipBytes(n);
        }
    }

    /**
     * Reads lines (status, headers, chunk sizes, trailers) while the response is in a line: copies up to
     * {@link #WINDOW} bytes of {@code in} into {@link #window} with one bulk read and scans them there, then gives back
     * what it did not use (a body, the next response). A direct buffer read byte by byte checks every access (without
     * Unsafe, Netty's default on JDK 25, each is a checked {@code ByteBuffer.get}): scanning nginx's 7 lines that way,
     * and copying each line with a read of its own, was the largest part of the event loop's own (user) CPU per request
     * at 40 000 req/s (async-profiler: 29 % of it).
     */
    private void readLines(ByteBuf in) {
        byte[] window = WINDOWS.get();
        int n = Math.min(in.readableBytes(), WINDOW);
        in.readBytes(window, 0, n);
        int pos = 0;
        while (pos < n && inLine()) {
            int lf = pos;
            while (lf < n && window[lf] != '\n') {
                lf++;
            }
            append(window, pos, lf - pos);
            if (lf == n) {
                pos = n;
                break; // the line goes on in the next read
            }
            pos = lf + 1;
            if (lineLength > 0 && line[lineLength - 1] == '\r') {
                lineLength--;
            }
            onLine();
        }
        if (pos < n) {
            in.readerIndex(in.readerIndex() - (n - pos));
        }
    }

    /** Whether the response is in a line (status, header, chunk size or end, trailer) rather than a body or done. */
    private boolean inLine() {
        return state == STATUS || state == HEADERS || state == CHUNK_SIZE || state == CHUNK_END || state == TRAILERS;
    }

    /** Appends window[from, from + n) to {@link #line}. */
    private void append(byte[] window, int from, int n) {
        if (lineLength + n > MAX_LINE) {
            throw new IllegalStateException("a response line longer than " + MAX_LINE + " bytes");
        }
        if (lineLength + n > line.length) {
            byte[] bigger = new byte[Math.max(line.length * 2, lineLength + n)];
            System.arraycopy(line, 0, bigger, 0, lineLength);
            line = bigger;
        }
        System.arraycopy(window, from, line, lineLength, n);
        lineLength += n;
    }

    private void onLine() {
        int n = lineLength;
        lineLength = 0;
        switch (state) {
            case STATUS -> {
                if (n == 0) {
                    return; // tolerated: an empty line before the status line
                }
                // HTTP/1.x SP 3DIGIT [SP reason]
                if (n < 12 || !startsWith("HTTP/1.", n) || line[8] != ' ' || !digit(9) || !digit(10) || !digit(11)) {
                    throw new IllegalStateException("not an HTTP/1.x status line");
                }
                http10 = line[7] == '0';
                status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
                if (keep != null) {
                    keep.status = status;
                }
                if (status == 101) {
                    close = true; // the connection now speaks another protocol: never reused for HTTP/1.1
                }
                state = HEADERS;
            }
            case HEADERS -> {
                if (n > 0) {
                    if (line[0] == ' ' || line[0] == '\t') {
                        fold(n);
                    } else {
                        header(n);
                    }
                    return;
                }
                if (status >= 100 && status < 200 && status != 101) {
                    state = STATUS; // interim response (100 Continue): the real one follows
                    clearHeaders();
                } else if (head || status == 204 || status == 304 || (status >= 100 && status < 200)) {
                    state = DONE;
                } else if (chunked) {
                    state = CHUNK_SIZE;
                    // with a Content-Length too, the framing is in doubt (RFC 9112 6.3: smuggling): not reused
                    close |= contentLength >= 0;
                } else if (transferEncoded) { // a coding other than chunked last: the body runs to the close
                    state = UNTIL_CLOSE;
                    close = true;
                } else if (contentLength >= 0) {
                    remaining = contentLength;
                    state = contentLength == 0 ? DONE : BODY;
                } else {
                    state = UNTIL_CLOSE;
                    close = true;
                }
            }
            case CHUNK_SIZE -> {
                long size = 0;
                int digits = 0;
                int i = 0;
                for (; i < n; i++) {
                    int d = Character.digit(line[i], 16);
                    if (d < 0) {
                        break;
                    }
                    if (digits == 0 && d == 0 && i + 1 < n && Character.digit(line[i + 1], 16) >= 0) {
                        continue; // a leading zero: worth nothing, and no limit on how many
                    }
                    if (++digits > 15) {
                        throw new IllegalStateException("a chunk size too large");
                    }
                    size = size * 16 + d;
                }
                int rest = skipSpaces(i, n);
                if (i == 0 || (rest < n && line[rest] != ';')) { // only ';' chunk extensions may follow
                    throw new IllegalStateException("a malformed chunk size");
                }
                remaining = size;
                state = size == 0 ? TRAILERS : CHUNK_DATA;
            }
            case CHUNK_END -> {
                if (n != 0) {
                    throw new IllegalStateException("no CRLF after a chunk");
                }
                state = CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (n == 0) {
                    state = DONE;
                }
            }
            default -> throw new IllegalStateException("unexpected state " + state);
        }
    }

    private void header(int n) {
        int colon = indexOf((byte) ':', n);
        if (colon <= 0) {
            throw new IllegalStateException("a malformed header line");
        }
        int end = colon;
        while (end > 0 && line[end - 1] == ' ') {
            end--;
        }
        for (int i = 0; i < end; i++) { // a name is visible ASCII: a CR or a space in it is no name (RFC 9110 5.1)
            if (line[i] <= ' ' || line[i] >= 0x7f) {
                throw new IllegalStateException("a malformed header name");
            }
        }
        if (keepHeaders) {
            keep.appendHeader(line, n);
        }
        lastField = OTHER_FIELD;
        if (nameIs("content-length", colon)) {
            lastField = FRAMING_FIELD;
            long v = contentLengthValue(colon + 1, n);
            if (contentLength >= 0 && contentLength != v) {
                throw new IllegalStateException("conflicting Content-Lengths");
            }
            contentLength = v;
        } else if (nameIs("transfer-encoding", colon)) {
            lastField = FRAMING_FIELD;
            // chunked is the last coding when the body is chunked (RFC 9112 6.1); a list may span several lines
            chunked = lastTokenIs("chunked", colon + 1, n);
            transferEncoded = true;
        } else if (nameIs("connection", colon)) {
            lastField = CONNECTION_FIELD;
            close |= hasToken("close", colon + 1, n);
            http10KeepAlive |= hasToken("keep-alive", colon + 1, n);
        }
    }

    /**
     * A line that begins with a space or a tab: the previous field's value goes on (obs-fold), which a client takes
     * as one space and the rest (RFC 9112 5.2). A fold of a Content-Length or Transfer-Encoding would leave the
     * framing in doubt: refused, as one before any field.
     */
    private void fold(int n) {
        if (lastField == NO_FIELD || lastField == FRAMING_FIELD) {
            throw new IllegalStateException(lastField == NO_FIELD ? "a folded line before any header"
                    : "a folded Content-Length or Transfer-Encoding");
        }
        int from = skipSpaces(0, n);
        while (from < n && line[from] == '\t') {
            from = skipSpaces(from + 1, n);
        }
        if (lastField == CONNECTION_FIELD) {
            close |= hasToken("close", from, n);
            http10KeepAlive |= hasToken("keep-alive", from, n);
        }
        if (keepHeaders) {
            keep.appendFold(line, from, n);
        }
    }

    /** A Content-Length value: digits and nothing else but surrounding spaces ({@code 2abc} is malformed). */
    private long contentLengthValue(int from, int n) {
        int i = skipSpaces(from, n);
        int start = i;
        long v = 0;
        for (; i < n && line[i] >= '0' && line[i] <= '9'; i++) {
            v = v * 10 + (line[i] - '0');
            if (v > Long.MAX_VALUE / 20) {
                throw new IllegalStateException("a Content-Length too large");
            }
        }
        if (i == start || skipSpaces(i, n) != n) {
            throw new IllegalStateException("a malformed Content-Length");
        }
        return v;
    }

    private boolean startsWith(String prefix, int n) {
        if (n < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (line[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean digit(int i) {
        return line[i] >= '0' && line[i] <= '9';
    }

    private int indexOf(byte b, int n) {
        for (int i = 0; i < n; i++) {
            if (line[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private int skipSpaces(int i, int n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t')) {
            i++;
        }
        return i;
    }

    /** Case-insensitive: is the header name (line[0, colon), trailing spaces ignored) {@code lowerName}? */
    private boolean nameIs(String lowerName, int colon) {
        int end = colon;
        while (end > 0 && line[end - 1] == ' ') {
            end--;
        }
        if (end != lowerName.length()) {
            return false;
        }
        for (int i = 0; i < end; i++) {
            if ((line[i] | 0x20) != lowerName.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Case-insensitive: is {@code lowerWord} one of the comma-separated tokens of line[from, to)? */
    private boolean hasToken(String lowerWord, int from, int to) {
        int start = from;
        for (int i = from; i <= to; i++) {
            if (i == to || line[i] == ',') {
                if (tokenIs(lowerWord, start, i)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    /** Case-insensitive: is {@code lowerWord} the last comma-separated token of line[from, to)? */
    private boolean lastTokenIs(String lowerWord, int from, int to) {
        int start = from;
        for (int i = from; i < to; i++) {
            if (line[i] == ',') {
                start = i + 1;
            }
        }
        return tokenIs(lowerWord, start, to);
    }

    /** Case-insensitive: is line[from, to), spaces around it ignored, exactly {@code lowerWord}? */
    private boolean tokenIs(String lowerWord, int from, int to) {
        int i = skipSpaces(from, to);
        int end = to;
        while (end > i && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
            end--;
        }
        if (end - i != lowerWord.length()) {
            return false;
        }
        for (int j = 0; j < lowerWord.length(); j++) {
            int c = line[i + j];
            if (c >= 'A' && c <= 'Z') {
                c |= 0x20;
            }
            if (c != lowerWord.charAt(j)) {
                return false;
            }
        }
        return true;
    }
}
