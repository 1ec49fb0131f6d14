package dev.pacer.engine.workload;

import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.op.http.H1Response;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;

/**
 * A workload cycle's outcomes, created once: ok, the typed check failures (errors; their {@code warn-} forms are
 * counted and are not errors), a used-up {@code csv(..., once)} file, and the transport's failures by the labels
 * the http op uses (and {@code body-too-large}).
 */
final class CheckOutcomes {

    static final Outcome CHECK_STATUS = Outcome.of("check-status", true);
    static final Outcome CHECK_BODY = Outcome.of("check-body", true);
    static final Outcome CHECK_JSON = Outcome.of("check-json", true);
    static final Outcome EXTRACT_MISSING = Outcome.of("extract-missing", true);
    static final Outcome WARN_STATUS = Outcome.of("warn-check-status", false);
    static final Outcome WARN_BODY = Outcome.of("warn-check-body", false);
    static final Outcome WARN_JSON = Outcome.of("warn-check-json", false);
    /** A {@code csv(..., once)} binding has no row left for the cycle: nothing was sent. */
    static final Outcome DATA_EXHAUSTED = Outcome.of("data-exhausted", true);
    static final Outcome TIMEOUT = Outcome.of("timeout", true);
    static final Outcome REFUSED = Outcome.of("refused", true);
    static final Outcome RESET = Outcome.of("reset", true);
    /** The TLS handshake failed (e.g. an untrusted certificate without --insecure). */
    static final Outcome TLS = Outcome.of("tls", true);
    /** A response that is not HTTP/1.x (the connection is closed). */
    static final Outcome PROTOCOL = Outcome.of("protocol-error", true);
    /** A body a check or save needs, longer than the client keeps. */
    static final Outcome BODY_TOO_LARGE = Outcome.of("body-too-large", true);

    private CheckOutcomes() {
    }

    static Outcome warn(Outcome check) {
        return check == CHECK_STATUS ? WARN_STATUS : check == CHECK_JSON ? WARN_JSON : WARN_BODY;
    }

    /** The outcome of a failed exchange. */
    static Outcome forFailure(Throwable e) {
        if (e instanceof java.util.concurrent.CancellationException) {
            return Outcome.CANCELLED;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof H1Response.BodyTooLargeException) {
                return BODY_TOO_LARGE;
            }
            if (t instanceof java.net.ProtocolException) {
                return PROTOCOL;
            }
            if (t instanceof HttpTimeoutException || t instanceof io.netty.channel.ConnectTimeoutException) {
                return TIMEOUT;
            }
            if (t instanceof ConnectException) {
                return REFUSED;
            }
            if (t instanceof javax.net.ssl.SSLException) {
                return TLS;
            }
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (t instanceof EOFException || t instanceof ClosedChannelException || m.contains("connection reset")
                    || m.contains("broken pipe") || m.contains("closed")) {
                return RESET;
            }
        }
        Throwable root = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                ? e.getCause() : e;
        return Outcome.forThrowable(root);
    }
}
