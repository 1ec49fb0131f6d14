package dev.pacer.engine.workload;

import dev.pacer.engine.Fixtures;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A private PostgreSQL cluster for one test class: {@code initdb} in a temp folder, a free loopback port, its Unix
 * socket in the folder, started with {@code pg_ctl}, removed by {@link #close}. As root (CI) every server command runs
 * as the package's {@code postgres} system user ({@code runuser}), since PostgreSQL refuses to run as root. The
 * superuser is {@code pacer} with password {@value #PASSWORD} (scram over TCP, trust on the socket). Skips when
 * PostgreSQL is not installed, unless {@code PACER_REQUIRE_POSTGRES} is set (CI, after {@code .ci/postgres.sh}).
 */
final class PgCluster implements AutoCloseable {

    static final String USER = "pacer";
    static final String PASSWORD = "pacer-secret";

    private final Path bin;
    private final Path dir;
    private final int port;
    private final boolean asRoot;

    private PgCluster(Path bin, Path dir, int port, boolean asRoot) {
        this.bin = bin;
        this.dir = dir;
        this.port = port;
        this.asRoot = asRoot;
    }

    /** Makes and starts a cluster (or skips the test when PostgreSQL is absent and not required). */
    static PgCluster start() throws Exception {
        Path bin = findBin();
        if (bin == null) {
            String msg = "PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb): .ci/postgres.sh installs it";
            if (System.getenv("PACER_REQUIRE_POSTGRES") != null) {
                fail(msg);
            }
            Assumptions.abort(msg);
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("pacer-pg");
        if (root) {
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            Files.setOwner(dir, users.lookupPrincipalByName("postgres"));
        }
        PgCluster pg = new PgCluster(bin, dir, Fixtures.freePort(), root);
        try {
            Files.writeString(dir.resolve("pw"), PASSWORD + "\n");
            if (root) {
                Files.setOwner(dir.resolve("pw"), dir.getFileSystem().getUserPrincipalLookupService()
                        .lookupPrincipalByName("postgres"));
            }
            pg.exec(120, bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER,
                    "--pwfile", dir.resolve("pw").toString(), "--auth-local=trust", "--auth-host=scram-sha-256",
                    "-E", "UTF8", "--no-sync", "--no-instructions");
            pg.startServer();
            return pg;
        } catch (Exception | Error e) {
            pg.close();
            throw e;
        }
    }

    /** postgresql://pacer:PASSWORD@127.0.0.1:PORT/postgres */
    String url() {
        return url("postgres");
    }

    /** postgresql://pacer:PASSWORD@127.0.0.1:PORT/DB */
    String url(String db) {
        return "postgresql://" + USER + ":" + PASSWORD + "@127.0.0.1:" + port + "/" + db;
    }

    int port() {
        return port;
    }

    Path socketDir() {
        return dir;
    }

    /** Starts the server (again, after {@link #stopServer}). */
    void startServer() throws Exception {
        // the JVM's time zone, which pgjdbc sessions set too: every client's timestamps read alike; no autovacuum,
        // whose workers' transactions would count in pg_stat_database beside the tests' own
        exec(120, bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                dir.resolve("log").toString(), "-w", "-t", "90", "-o",
                "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60"
                        + " -c timezone=" + java.util.TimeZone.getDefault().getID() + " -c autovacuum=off",
                "start");
    }

    /** Stops the server at once (fast shutdown: sessions are ended). */
    void stopServer() throws Exception {
        exec(120, bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-w", "-t", "90",
                "-m", "fast", "stop");
    }

    /** A JDBC connection as the superuser. */
    Connection connect() throws SQLException {
        return connect("postgres");
    }

    /** A JDBC connection to database {@code db} as the superuser. */
    Connection connect(String db) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("password", PASSWORD);
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + db, p);
    }

    /** Runs statements, one after another. */
    void sql(String... statements) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String q : statements) {
                s.execute(q);
            }
        }
    }

    /** The first column of the first row, as a long. */
    long queryLong(String query) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The first column of the first row of a query in database {@code db}, as a long. */
    long queryLong(String db, String query) throws SQLException {
        try (Connection c = connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Every row of a two-column query in database {@code db}, as pairs of longs, in order. */
    List<long[]> queryPairs(String db, String query) throws SQLException {
        List<long[]> rows = new ArrayList<>();
        try (Connection c = connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            while (rs.next()) {
                rows.add(new long[] {rs.getLong(1), rs.getLong(2)});
            }
        }
        return rows;
    }

    /**
     * Waits (at most {@code timeoutSeconds}) until no session but the asking one is connected to database {@code db};
     * false if some still are then. A backend's statistics reach {@code pg_stat_database} before it leaves
     * {@code pg_stat_activity} (its statistics are flushed by a before-exit hook, its activity entry cleared by a later
     * one), so after this the database's counters hold every ended session's work.
     */
    boolean awaitNoSessions(String db, long timeoutSeconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        String q = "SELECT count(*) FROM pg_stat_activity WHERE datname = '" + db + "' AND pid <> pg_backend_pid()";
        while (queryLong(q) > 0) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /** The first column of the first row, as text. */
    String queryText(String query) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Runs a PostgreSQL client program (pgbench, psql) against this cluster's socket; returns its output. */
    String client(long timeoutSeconds, String program, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(program, "-h", dir.toString(), "-p", String.valueOf(port), "-U",
                USER));
        cmd.addAll(List.of(args));
        return exec(timeoutSeconds, cmd.toArray(String[]::new));
    }

    private String exec(long timeoutSeconds, String... command) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (asRoot) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": still running after " + timeoutSeconds + " s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited " + p.exitValue() + ": " + text + log());
        }
        return text;
    }

    private String log() {
        try {
            return Files.exists(dir.resolve("log")) ? "\nserver log:\n" + Files.readString(dir.resolve("log")) : "";
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (Files.exists(dir.resolve("data/postmaster.pid"))) {
                exec(120, bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-w", "-m",
                        "immediate", "stop");
            }
        } finally {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static Path findBin() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparing(b -> versionOf(b.getParent())))
                    .orElse(null);
        }
    }

    private static int versionOf(Path p) {
        try {
            return Integer.parseInt(p.getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
