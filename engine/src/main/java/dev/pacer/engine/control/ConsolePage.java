package dev.pacer.engine.control;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /}: the console page, one self-contained file ({@code console.html} beside this class:
 * its script and styles inline, its charts drawn on canvases, nothing loaded from elsewhere). It holds
 * no data of the run: it reads {@code /events} and posts to {@code /command}, both with the token when
 * the endpoint has one. Its content security policy lets it talk to this endpoint only.
 */
final class ConsolePage {

    /** The page's bytes, read once. */
    private static final byte[] PAGE = load();

    /** Scripts and styles of the page only; connections to this endpoint only; never framed. */
    static final String POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private ConsolePage() {
    }

    private static byte[] load() {
        try (InputStream in = ConsolePage.class.getResourceAsStream("console.html")) {
            if (in == null) {
                throw new IllegalStateException("console.html is missing from pacer-engine");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void send(HttpExchange ex) throws IOException {
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", "text/html; charset=utf-8");
        h.set("Content-Security-Policy", POLICY);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Cache-Control", "no-store");
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(200, head ? -1 : PAGE.length);
        if (!head) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(PAGE);
            }
        }
    }
}
