package dev.pacer.engine.op.http;

import dev.pacer.engine.api.SettingException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The request an http op sends, as the flags describe it: method, URL (with an optional
 * {@code {cycle}} placeholder replaced by the cycle number), headers, body. Validated when built: a bad
 * URL, header or method is one line naming it.
 *
 * <p>HTTP/1.1: the request's head is encoded once into byte segments split at each {@code {cycle}}; a
 * head without one is a single segment, {@link #fixedHead()}, that connections copy once and resend.
 * The body is one direct buffer for the whole op, shared by every connection and both protocols: each
 * send writes a {@link #body() duplicate} of it (its own indexes, the same bytes), never a copy, so a
 * 10 MB body costs 10 MB whatever the connections. Nobody writes to it; the JDK frees it with the op.
 * Immutable, thread-safe.
 */
final class HttpRequestTemplate {

    static final String CYCLE = "{cycle}";
    /** Stands in for {@code {cycle}} while the URL is parsed ({@code {}} are not legal in a URI). */
    private static final String MARK = "pacercycle0x7f";
    /** Headers the client writes itself: a user's value would make the request ambiguous. */
    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect",
            "upgrade", "transfer-encoding");

    private final String url;
    private final String method;
    private final List<String[]> headers;
    /** The shared body (unreleasable, direct), or null; send {@link #body()}, a duplicate. */
    private final ByteBuf body;
    private final boolean tls;
    private final String host;
    private final int port;
    private final String authority;
    private final String pathTemplate;
    /** The HTTP/1.1 request split at each {@code {cycle}}: n segments, n - 1 cycle numbers between them. */
    private final byte[][] segments;

    HttpRequestTemplate(String url, String method, List<String> headerLines, byte[] body) {
        this(url, method, headerLines, body == null ? null : shared(body));
    }

    /**
     * One direct copy of {@code bytes} that every send duplicates and none may release: the JDK frees it when
     * the last template holding it is collected, so no write still in flight can outlive it.
     */
    static ByteBuf shared(byte[] bytes) {
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        return Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(direct));
    }

    /** @param body a buffer from {@link #shared} (or an equally unreleasable one), or null */
    HttpRequestTemplate(String url, String method, List<String> headerLines, ByteBuf body) {
        this.url = lowerScheme(url);
        URI uri = checkUrl(this.url);
        this.method = method.toUpperCase(Locale.ROOT);
        if (!this.method.matches("[A-Z]+")) {
            throw new SettingException("method", method, "expected a method name such as GET or POST");
        }
        this.headers = headerLines.stream().map(HttpRequestTemplate::header).toList();
        this.body = body;
        this.tls = "https".equals(uri.getScheme());
        this.host = uri.getHost();
        int defaultPort = tls ? 443 : 80;
        this.port = uri.getPort() < 0 ? defaultPort : uri.getPort();
        this.authority = (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host)
                + (port == defaultPort ? "" : ":" + port);
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        this.pathTemplate = path.replace(MARK, CYCLE);
        if (uri.getRawAuthority() != null && uri.getRawAuthority().contains(MARK)) {
            throw new SettingException("url", url, "{cycle} may be in the path or query, not in the host");
        }
        this.segments = encode();
    }

    private byte[][] encode() {
        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(pathTemplate).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(authority).append("\r\n");
        boolean userAgent = false;
        for (String[] h : headers) {
            head.append(h[0]).append(": ").append(h[1]).append("\r\n");
            userAgent |= h[0].equalsIgnoreCase("user-agent");
        }
        if (!userAgent) {
            head.append("User-Agent: pacer\r\n");
        }
        if (body != null) {
            head.append("Content-Length: ").append(body.readableBytes()).append("\r\n");
        } else if (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
            head.append("Content-Length: 0\r\n");
        }
        head.append("\r\n");
        String[] parts = head.toString().split("\\{cycle}", -1);
        byte[][] out = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.writeBytes(parts[i].getBytes(StandardCharsets.ISO_8859_1));
            out[i] = b.toByteArray();
        }
        return out;
    }

    boolean isFixed() {
        return segments.length == 1;
    }

    /** The head of a fixed template's request, in a new unpooled direct buffer (for a connection to keep). */
    ByteBuf fixedHead() {
        return Unpooled.directBuffer(segments[0].length).writeBytes(segments[0]);
    }

    /** The size in bytes of the request for one cycle, as HTTP/1.1 sends it. */
    int size(long cycle) {
        int n = 1;
        for (long v = cycle / 10; v > 0; v /= 10) {
            n++;
        }
        return size(n);
    }

    private int size(int cycleDigits) {
        int size = (segments.length - 1) * cycleDigits + bodyLength();
        for (byte[] s : segments) {
            size += s.length;
        }
        return size;
    }

    /** A template's request head for one cycle, in a buffer from {@code alloc}; {@code digits}: scratch (20 bytes). */
    ByteBuf head(ByteBufAllocator alloc, long cycle, byte[] digits) {
        int n = 0;
        long v = cycle;
        do {
            digits[digits.length - 1 - n++] = (byte) ('0' + (v % 10));
            v /= 10;
        } while (v > 0);
        ByteBuf buf = alloc.ioBuffer(size(n) - bodyLength());
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                buf.writeBytes(digits, digits.length - n, n);
            }
            buf.writeBytes(segments[i]);
        }
        return buf;
    }

    /** The request's path and query for one cycle (HTTP/2's :path). */
    String path(long cycle) {
        return isFixed() ? pathTemplate : pathTemplate.replace(CYCLE, Long.toString(cycle));
    }

    String url() {
        return url;
    }

    String method() {
        return method;
    }

    /** Whether the method is idempotent (RFC 9110 9.2.2), so a request the server may not have seen can be resent. */
    boolean isIdempotent() {
        return RequestClient.Exchange.idempotentMethod(method);
    }

    boolean isHead() {
        return method.equals("HEAD");
    }

    List<String[]> headers() {
        return headers;
    }

    /** The body to send once (a duplicate of the shared buffer: write it, never keep it), or null. */
    ByteBuf body() {
        return body == null ? null : body.duplicate();
    }

    /** The body's length in bytes (0 without one). */
    int bodyLength() {
        return body == null ? 0 : body.readableBytes();
    }

    boolean hasBody() {
        return body != null;
    }

    boolean tls() {
        return tls;
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    String authority() {
        return authority;
    }

    String scheme() {
        return tls ? "https" : "http";
    }

    /** The same request to another server (the warm-up's private one): same method, path, headers, body. */
    HttpRequestTemplate to(String scheme, String hostAndPort) {
        String u = scheme + "://" + hostAndPort + pathTemplate;
        List<String> lines = headers.stream().map(h -> h[0] + ": " + h[1]).toList();
        return new HttpRequestTemplate(u, method, lines, body);
    }

    private static String[] header(String line) {
        int colon = line.indexOf(':');
        if (colon <= 0) {
            throw new SettingException("header", line, "expected 'Name: value'");
        }
        String name = line.substring(0, colon).strip();
        String value = line.substring(colon + 1).strip();
        if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            throw new SettingException("header", line, "the name is not an HTTP token");
        }
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.chars().anyMatch(c -> c > 0xff)) {
            throw new SettingException("header", line, "the value has a line break or a character outside ISO-8859-1");
        }
        if (RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
            throw new SettingException("header", line, "the client sets " + name + " itself");
        }
        return new String[] {name, value};
    }

    /** {@code url} with its scheme in lower case: schemes are case-insensitive (RFC 3986, 3.1). */
    static String lowerScheme(String url) {
        int end = url == null ? -1 : url.indexOf("://");
        return end < 0 ? url : url.substring(0, end).toLowerCase(Locale.ROOT) + url.substring(end);
    }

    private static URI checkUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new SettingException("url", null, "the http op needs one, e.g. http://127.0.0.1:8080/");
        }
        try {
            URI uri = new URI(url.replace(CYCLE, MARK));
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw new SettingException("url", url, "expected http:// or https://");
            }
            if (uri.getHost() == null) {
                throw new SettingException("url", url, "no host");
            }
            if (uri.getPort() == 0 || uri.getPort() > 65_535) {
                throw new SettingException("url", url, "port " + uri.getPort() + " is out of range (1 to 65535)");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new SettingException("url", url, e.getReason());
        }
    }
}
