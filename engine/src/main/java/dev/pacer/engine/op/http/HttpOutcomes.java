package dev.pacer.engine.op.http;

import dev.pacer.engine.text.SettingException;
import dev.pacer.engine.op.Outcome;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
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
        return c >= 1 && c <= 5 ? byClass[c] : Outcome.of("status-" + status, true);
    }

    /** The outcome of a failed exchange. */
    static Outcome forFailure(IOException e) {
        if (e instanceof HttpTimeoutException) { // also HttpConnectTimeoutException
            return TIMEOUT;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return REFUSED;
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (t instanceof EOFException || m.contains("connection reset") || m.contains("broken pipe")
                    || m.contains("closed")) {
                return RESET;
            }
        }
        return Outcome.forThrowable(e);
    }
}
