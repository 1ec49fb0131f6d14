package dev.pacer.engine.control;

import com.sun.net.httpserver.Headers;

/**
 * Who a request to the control endpoint comes from, by its headers: the checks that keep a page of
 * another site from steering a run through the visitor's browser (a cross-site request forgery) or
 * from reaching a loopback endpoint by rebinding its own name to 127.0.0.1. Stateless.
 */
final class Origins {

    private Origins() {
    }

    /**
     * True unless the browser says the request comes from another origin: {@code Sec-Fetch-Site}, when
     * sent, is {@code same-origin} or {@code none} (typed in, a bookmark), and {@code Origin}, when
     * sent, is {@code http://} and the request's {@code Host}. Clients that are not browsers (curl,
     * {@code pacer control}) send neither and pass.
     */
    static boolean sameOrigin(Headers headers, String host) {
        String site = headers.getFirst("Sec-Fetch-Site");
        if (site != null && !site.equalsIgnoreCase("same-origin") && !site.equalsIgnoreCase("none")) {
            return false;
        }
        String origin = headers.getFirst("Origin");
        return origin == null || host != null && origin.equalsIgnoreCase("http://" + host.strip());
    }

    /** A header value fit to quote in a one-line answer: at most 100 printable ASCII characters. */
    static String printable(String value) {
        String s = value.replaceAll("[^\\x20-\\x7e]", "?");
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
