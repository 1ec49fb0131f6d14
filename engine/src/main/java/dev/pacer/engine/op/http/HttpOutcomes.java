package dev.pacer.engine.op.http;

import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.api.Outcome;
import java.io.EOFException;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLException;
import java.net.ConnectException;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * How HTTP results count: responses by status class ({@code 2xx} ... {@code 5xx}), unexpected ones as
 * errors ({@code unexpected-5xx}), failures by type ({@code timeout}, {@code refused}, {@code reset}, or
 * the exception's class).
 *
 * <p>With no {@code --expect} every status class is a non-error outcome (a load test of an endpoint that
 * answers 404 is still a load test); {@code --expect 2xx} or {@code --expect 2xx,3xx} makes every other
 * class an error. An outcome label is either always an error or never, hence the distinct
 * {@code unexpected-} labels. All outcomes are created here, once.
 */
final class HttpOutcomes {

    static final Outcome TIMEOUT = Outcome.of("timeout", true);
    static final Outcome REFUSED = Outcome.of("refused", true);
    static final Outcome RESET = Outcome.of("reset", true);
    /** A response the client could not read as HTTP (the connection is closed). */
    static final Outcome PROTOCOL = Outcome.of("protocol-error", true);
    /** The TLS handshake failed (e.g. an untrusted certificate without --insecure). */
    static final Outcome TLS = Outcome.of("tls", true);

    private final Outcome[] byClass = new Outcome[6]; // index = status / 100

    HttpOutcomes(Set<Integer> expectedClasses) {
        for (int c = 1; c <= 5; c++) {
            boolean expected = expectedClasses.isEmpty() || expectedClasses.contains(c);
            byClass[c] = expected ? Outcome.of(c + "xx", false) : Outcome.of("unexpected-" + c + "xx", true);
        }
    }

    /** Parses {@code --expect}: {@code 2xx}, {@code 2xx,3xx}; empty means every class is fine. */
    static Set<Integer> parseExpect(String text) {
        Set<Integer> classes = new TreeSet<>();
        if (text == null || text.isBlank()) {
            return classes;
        }
        for (String part : text.split(",")) {
            String p = part.strip().toLowerCase(Locale.ROOT);
            if (!p.matches("[1-5]xx")) {
                throw new SettingException("expect", text, "expected status classes such as 2xx or 2xx,3xx");
            }
            classes.add(p.charAt(0) - '0');
        }
        return classes;
    }

    Outcome forStatus(int status) {
        int c = status / 100;
        return c >= 1 && c <= 5 ? byClass[c] : Outcome.of(String.format(Locale.ROOT, "status-%03d", status), true);
    }

    /**
     * Whether {@code e} is how a write meets a connection its server closed (a reset, a broken pipe, a TLS session
     * the server ended with close_notify): on a reused keep-alive connection, most likely closed as idle.
     */
    static boolean idleClose(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof io.netty.handler.ssl.SslClosedEngineException) {
                return true;
            }
        }
        return forFailure(e) == RESET;
    }

    /** The outcome of a failed exchange (connect, write, read). */
    static Outcome forFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectTimeoutException || t instanceof java.net.http.HttpTimeoutException) {
                return TIMEOUT;
            }
            if (t instanceof ConnectException) {
                return REFUSED;
            }
            if (t instanceof SSLException || t instanceof DecoderException && t.getCause() instanceof SSLException) {
                return TLS;
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (t instanceof EOFException || t instanceof ClosedChannelException || m.contains("connection reset")
                    || m.contains("broken pipe") || m.contains("closed")) {
                return RESET;
            }
        }
        return Outcome.forThrowable(e);
    }
}
