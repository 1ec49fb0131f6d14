package dev.pacer.engine.op.http;

import dev.pacer.engine.text.SettingException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The request an http op sends, as the flags describe it: method, URL (with an optional
 * {@code {cycle}} placeholder replaced by the cycle number), headers, body, request timeout. Validated
 * when built: a bad URL, header or method is one line naming it.
 */
final class HttpRequestTemplate {

    static final String CYCLE = "{cycle}";

    private final String url;
    private final String method;
    private final List<String[]> headers;
    private final byte[] body;
    private final Duration timeout;

    HttpRequestTemplate(String url, String method, List<String> headerLines, byte[] body, Duration timeout) {
        this.url = checkUrl(url);
        this.method = method.toUpperCase(Locale.ROOT);
        if (!this.method.matches("[A-Z]+")) {
            throw new SettingException("method", method, "expected a method name such as GET or POST");
        }
        this.headers = headerLines.stream().map(HttpRequestTemplate::header).toList();
        this.body = body;
        this.timeout = timeout;
        request(0); // the JDK validates headers (restricted names) here, once, with the flag named
    }

    boolean isFixed() {
        return !url.contains(CYCLE);
    }

    HttpRequest request(long cycle) {
        String u = isFixed() ? url : url.replace(CYCLE, Long.toString(cycle));
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(u)).timeout(timeout)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        for (String[] h : headers) {
            try {
                b.header(h[0], h[1]);
            } catch (IllegalArgumentException e) {
                throw new SettingException("header", h[0] + ": " + h[1], e.getMessage());
            }
        }
        return b.build();
    }

    private static String[] header(String line) {
        int colon = line.indexOf(':');
        if (colon <= 0) {
            throw new SettingException("header", line, "expected 'Name: value'");
        }
        return new String[] {line.substring(0, colon).strip(), line.substring(colon + 1).strip()};
    }

    private static String checkUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new SettingException("url", null, "the http op needs one, e.g. http://127.0.0.1:8080/");
        }
        try {
            URI uri = new URI(url.replace(CYCLE, "0"));
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw new SettingException("url", url, "expected http:// or https://");
            }
            if (uri.getHost() == null) {
                throw new SettingException("url", url, "no host");
            }
        } catch (URISyntaxException e) {
            throw new SettingException("url", url, e.getReason());
        }
        return url;
    }
}
