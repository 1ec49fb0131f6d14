package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the postgres driver says of a URL before it connects: no password, and a bad port in one line. */
class PgServerTest {

    /** A password given as a URL parameter was printed in clear (an adversary's pass): pgjdbc reads it there too. */
    @Test
    void aPasswordIsHiddenWhereverTheUrlGivesIt() {
        assertEquals("postgresql://u:***@h:5432/db", PgServer.redacted("postgresql://u:secret@h:5432/db"));
        assertEquals("postgresql://u@h/db?password=***", PgServer.redacted("postgresql://u@h/db?password=secret"));
        assertEquals("jdbc:postgresql://h/db?user=u&PASSWORD=***&sslmode=disable",
                PgServer.redacted("jdbc:postgresql://h/db?user=u&PASSWORD=secret&sslmode=disable"));
        assertEquals("postgresql://u:***@h/db?password=***", PgServer.redacted("postgresql://u:a@h/db?password=b"));
        String said = PgServer.oneLine(new SQLException("Unable to parse URL jdbc:postgresql://h/db?password=secret",
                "08001"));
        assertEquals("Unable to parse URL jdbc:postgresql://h/db?password=*** (SQLSTATE 08001)", said);
    }

    /** vertx-pg-client's statement: pacer's own $n cast where a text binding meets another type, nothing quoted. */
    @Test
    void aTextParameterIsCastOnlyWhereItIsPacersOwn() {
        String[] casts = new String[10];
        casts[0] = "date";
        casts[9] = "inet";
        assertEquals("SELECT $1::text::date, '$1', \"$1\", $10::text::inet -- $1\n, $$ $1 $$, /* $10 */ $2::int8",
                PgServer.cast("SELECT $1, '$1', \"$1\", $10 -- $1\n, $$ $1 $$, /* $10 */ $2::int8", casts));
        assertEquals("'$1'", PgServer.cast("'$1'", casts));
    }

    /** pgjdbc logged a two-line warning about it, then failed with a line of its own. */
    @Test
    void aPortOver65535IsOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PgServer(
                "postgresql://u:secret@127.0.0.1:99999/db", Duration.ofSeconds(5), Duration.ofSeconds(30)));
        assertEquals("postgres: URL 'postgresql://u:***@127.0.0.1:99999/db': port 99999 is over 65535",
                e.getMessage());
        assertTrue(!e.getMessage().contains("secret"));
    }

    /**
     * A server that takes the connection and never answers its startup: the connect timeout ends the wait (it took
     * the request timeout, the socket's, before). The port is a listening socket nobody accepts on: the kernel
     * completes the handshake and holds what pgjdbc sends.
     */
    @Test
    @Timeout(60)
    void aServerThatNeverAnswersTheStartupTakesTheConnectTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            PgServer server = new PgServer("postgresql://u:secret@127.0.0.1:" + silent.getLocalPort() + "/db",
                    Duration.ofSeconds(1), Duration.ofSeconds(40));
            long t0 = System.nanoTime();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, server::connectFirst);
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(e.getMessage().startsWith("postgres: cannot connect to postgresql://u:***@127.0.0.1:"),
                    e.getMessage());
            assertTrue(seconds < 20, seconds + " s: the connect timeout (1 s), not the request timeout (40 s)");
        }
    }
}
