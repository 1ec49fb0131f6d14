package dev.pacer.engine.workload;

import dev.pacer.engine.api.Outcome;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The postgres driver's outcomes, whatever the client: the transport's ({@code refused}, {@code reset},
 * {@code timeout}), the server's errors typed by SQLSTATE ({@code sql-23505}), and the checks'. Each is made once
 * (an SQLSTATE's on its first sight) and shared.
 */
final class PgOutcomes {

    static final Outcome CHECK_ROWS = Outcome.of("check-rows", true);
    static final Outcome REFUSED = CheckOutcomes.REFUSED;
    static final Outcome RESET = CheckOutcomes.RESET;
    static final Outcome TIMEOUT = CheckOutcomes.TIMEOUT;
    /** {@code sql-SQLSTATE} by SQLSTATE; filled on first sight, from any thread. */
    private static final ConcurrentHashMap<String, Outcome> BY_STATE = new ConcurrentHashMap<>();

    private PgOutcomes() {
    }

    /** True for the outcomes after which the connection is gone: it is dropped and made again. */
    static boolean lostConnection(Outcome o) {
        return o == REFUSED || o == RESET || o == TIMEOUT;
    }

    /** A pgjdbc error's outcome: the transport's (refused, reset, timeout) or the server's SQLSTATE. */
    static Outcome of(SQLException e, boolean connecting) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return TIMEOUT;
            }
            if (t instanceof ConnectException) {
                return REFUSED;
            }
        }
        return ofState(e.getSQLState(), connecting);
    }

    /**
     * An asynchronous client's error: a {@link ConnectException} (Netty's included) is refused, the server's error
     * (any exception with a {@code getSqlState()}, as vertx-pg-client's {@code PgException}) is typed by its
     * SQLSTATE, a closed connection or another I/O failure is reset (refused while connecting); anything else (the
     * client's own failure) is an error named after its class, as an op's throwable is.
     */
    static Outcome of(Throwable e, boolean connecting) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException || t instanceof io.netty.channel.ConnectTimeoutException) {
                return TIMEOUT;
            }
            if (t instanceof ConnectException) {
                return REFUSED;
            }
            if (t instanceof SQLException s) {
                return of(s, connecting);
            }
            if (t instanceof io.vertx.sqlclient.DatabaseException d) {
                return ofState(d.getSqlState(), connecting);
            }
            if (t instanceof IOException || t instanceof io.vertx.sqlclient.ClosedConnectionException) {
                return connecting ? REFUSED : RESET;
            }
        }
        return connecting ? REFUSED : Outcome.forThrowable(e);
    }

    private static Outcome ofState(String sqlState, boolean connecting) {
        String state = sqlState == null ? "" : sqlState;
        if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
            // 08: connection exception; 57P01-03: the server is shutting down, crashed, or not yet accepting
            return connecting || state.equals("08001") || state.equals("57P03") ? REFUSED : RESET;
        }
        if (state.equals("57014")) {
            return TIMEOUT; // query_canceled: a statement timeout
        }
        if (state.isEmpty()) {
            return connecting ? REFUSED : RESET;
        }
        return BY_STATE.computeIfAbsent(state, s -> Outcome.of("sql-" + s, true));
    }
}
