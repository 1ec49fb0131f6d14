package dev.pacer.engine.text;

import java.util.Locale;

/**
 * Whether a request's {@code Host} header names this machine: the check that keeps a page of another site from
 * reaching an endpoint bound to loopback by rebinding its own name to 127.0.0.1 (the control endpoint, the metrics
 * endpoint). Stateless.
 */
public final class LoopbackHost {

    private LoopbackHost() {
    }

    /** True when {@code host} ({@code localhost:7070}, {@code 127.0.0.1}, {@code [::1]:7070}) names this machine. */
    public static boolean names(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            return close > 0 && h.substring(1, close).equals("::1") && portOnly(h.substring(close + 1));
        }
        int colon = h.indexOf(':');
        String name = colon < 0 ? h : h.substring(0, colon);
        return (colon < 0 || portOnly(h.substring(colon)))
                && (name.equals("localhost") || name.matches("127(\\.\\d{1,3}){3}"));
    }

    private static boolean portOnly(String rest) {
        return rest.isEmpty() || rest.matches(":\\d{1,5}");
    }
}
