package dev.pacer.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The postgres driver's bad input through the command line: one line, exit 2, before the run. These need no server
 * (a URL that is not PostgreSQL's, a port nothing listens on, a bad file); the ones that do (a wrong password, an
 * unknown table or column, a bind type) are the engine's PostgresOpTest, against a private cluster.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PostgresCliTest {

    @TempDir
    Path dir;

    private void refused(String expected, String... args) throws Exception {
        PacerProcess.Result r = PacerProcess.run(dir, 60, args);
        assertEquals(2, r.exitCode(), r.stdout() + r.stderr());
        String err = r.stderr().strip();
        assertTrue(err.startsWith("pacer: ") && err.contains(expected) && !err.contains("\n")
                && !err.contains("Exception"),
                err);
    }

    @Test
    void badUrlsWorkloadsAndFilesAreOneLineAndExitTwo() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        refused("is not postgresql://user:password@host:port/db",
                "run", "--workload", "tpcb-like", "--url", "http://127.0.0.1:1/x", "--rate", "10", "--duration", "1s");
        refused("cannot connect to postgresql://u:***@127.0.0.1:" + closed + "/db",
                "run", "--workload", "select-only", "--url", "postgresql://u:secret@127.0.0.1:" + closed + "/db",
                "--rate", "10", "--duration", "1s");
        refused("invalid --workload 'nosuch': no workload file nosuch (built in: tpcb-like, simple-update, "
                + "select-only)",
                "run", "--workload", "nosuch", "--url", "postgresql://127.0.0.1:" + closed + "/db", "--rate", "10");
        Path f = dir.resolve("w.yaml");
        Files.writeString(f, "driver: postgres\nops:\n  one: {sql: 'SELECT {nosuch}'}\n");
        refused("w.yaml:3: {nosuch} is not a binding", "run", f.toString(), "--url", "postgresql://127.0.0.1:1/db",
                "--rate", "10", "--duration", "1s");
        refused("give --workload or --op", "run", "--workload", "select-only", "--op", "noop", "--rate", "10");
        refused("scale 0 is out of range", "pg-init", "--scale", "0", "--url", "postgresql://127.0.0.1:1/db");
    }

    @Test
    void badClientFlagsAreOneLineAndExitTwoBeforeAnythingConnects() throws Exception {
        String[] run = {"run", "--workload", "select-only", "--url", "postgresql://u:secret@127.0.0.1:1/db",
                "--rate", "10", "--duration", "1s"};
        refused("invalid --client 'nosuch': expected jdbc (pgjdbc, the default) or vertx",
                with(run, "--client", "nosuch"));
        refused("invalid --jdbc-threads 'green': expected workers", with(run, "--jdbc-threads", "green"));
        refused("invalid --pipelining 'on': is client=vertx's", with(run, "--pipelining", "on"));
        refused("invalid --pipelining 'maybe': expected on or off",
                with(run, "--client", "vertx", "--pipelining", "maybe"));
        refused("invalid --jdbc-threads 'workers': is client=jdbc's",
                with(run, "--client", "vertx", "--jdbc-threads", "workers"));
        refused("invalid --client 'vertx': only the postgres op takes it",
                "run", "--op", "noop", "--client", "vertx", "--rate", "10", "--duration", "1s");
        refused("invalid --pipelining 'on': only the postgres op takes it",
                "run", "--op", "http", "--url", "http://127.0.0.1:1/", "--pipelining", "on", "--rate", "10");
    }

    private static String[] with(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }
}
