package dev.pacer.engine.workload;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * pgbench's built-in scripts as SQL workloads ({@code tpcb-like}, {@code simple-update}, {@code select-only}: the
 * same statements and the same {@code random(lo, hi)} ranges at a scale), and its tables ({@link #init}, the
 * equivalent of {@code pgbench -i -I dtGvp}: server-side generated rows, then primary keys).
 */
public final class PgBench {

    /** The built-in workloads' names. */
    public static final List<String> BUILTINS = List.of("tpcb-like", "simple-update", "select-only");

    private PgBench() {
    }

    /** The workload text of a built-in at a scale (pgbench's script, statement for statement). */
    static String script(String name, long scale) {
        String bindings = """
                bindings:
                  aid: uniform(1, %d)
                  bid: uniform(1, %d)
                  tid: uniform(1, %d)
                  delta: uniform(-5000, 5000)
                """.formatted(100_000 * scale, scale, 10 * scale);
        String head = "name: " + name + "\ndriver: postgres\n" + bindings + "ops:\n";
        return head + switch (name) {
            case "tpcb-like" -> """
                      tpcb-like:
                        transaction:
                          - sql: UPDATE pgbench_accounts SET abalance = abalance + {delta} WHERE aid = {aid}
                          - sql: SELECT abalance FROM pgbench_accounts WHERE aid = {aid}
                          - sql: UPDATE pgbench_tellers SET tbalance = tbalance + {delta} WHERE tid = {tid}
                          - sql: UPDATE pgbench_branches SET bbalance = bbalance + {delta} WHERE bid = {bid}
                          - sql: INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ({tid}, {bid}, \
                    {aid}, {delta}, CURRENT_TIMESTAMP)
                    """;
            case "simple-update" -> """
                      simple-update:
                        transaction:
                          - sql: UPDATE pgbench_accounts SET abalance = abalance + {delta} WHERE aid = {aid}
                          - sql: SELECT abalance FROM pgbench_accounts WHERE aid = {aid}
                          - sql: INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ({tid}, {bid}, \
                    {aid}, {delta}, CURRENT_TIMESTAMP)
                    """;
            case "select-only" -> """
                      select-only:
                        sql: SELECT abalance FROM pgbench_accounts WHERE aid = {aid}
                    """;
            default -> throw new IllegalArgumentException("no built-in workload '" + name + "' (built in: "
                    + String.join(", ", BUILTINS) + ")");
        };
    }

    /**
     * The scale of the pgbench tables at a URL (pgbench_branches' row count), as pgbench finds it; read in a
     * transaction that is rolled back, so that it commits nothing.
     */
    static long scale(Connection c) {
        try {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pgbench_branches")) {
                rs.next();
                long n = rs.getLong(1);
                if (n < 1) {
                    throw new IllegalArgumentException("postgres: pgbench_branches is empty: pacer pg-init --scale N"
                            + " --url ... first");
                }
                return n;
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalArgumentException("postgres: no pgbench tables ("
                    + e.getMessage().lines().findFirst().orElse("")
                    + "): pacer pg-init --scale N --url ... (or pgbench -i -s N) first");
        }
    }

    /**
     * Creates pgbench's four tables at a scale and fills them, replacing any there (see {@link Init}).
     *
     * @throws IllegalArgumentException one line: a bad URL, a refused login, a server error
     */
    public static void init(String url, long scale) {
        new Init(url, scale).run();
    }

    /**
     * One {@code pg-init}: creates pgbench's four tables at a scale and fills them, replacing any there (as
     * {@code pgbench -i -s scale} does: 1 branch, 10 tellers and 100 000 accounts per unit of scale, balances 0, an
     * empty history), adds their primary keys, then analyzes them. All but the analysis is one transaction, so an init
     * stopped before its commit leaves the tables as they were.
     *
     * <p>{@link #run()} runs on one thread; {@link #stop(String)} may come from any other (a signal handler), as often
     * as it likes: the first cancels the statement running (the server rolls it back), a later one also closes the
     * connection, for a server that does not answer the cancel.
     */
    public static final class Init {

        private static final String ANALYZE =
                "VACUUM ANALYZE pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history";

        private final String url;
        private final long scale;
        /** Set by {@link #stop} (any thread), once; {@link #run} reads it before each statement and on a failure. */
        private volatile String stoppedBy;
        /** Written by {@link #run} when it has its connection and statement; {@link #stop} reads them to cancel. */
        private volatile Connection connection;
        private volatile Statement running;

        /** @throws IllegalArgumentException a scale out of 1 to 100 000 */
        public Init(String url, long scale) {
            if (scale < 1 || scale > 100_000) {
                throw new IllegalArgumentException("scale " + scale + " is out of range: expected 1 to 100000");
            }
            this.url = url;
            this.scale = scale;
        }

        /**
         * Runs it to the end, or until {@link #stop}.
         *
         * @return empty when done; else what a stop left, in words (the tables as they were, or filled but not
         *         analyzed), beginning with who stopped it
         * @throws IllegalArgumentException one line: a bad URL, a refused login, a server error
         */
        public Optional<String> run() {
            Properties props = new Properties();
            String jdbc = PgServer.jdbcUrl(url, props);
            boolean committed = false;
            try (Connection c = DriverManager.getConnection(jdbc, props); Statement s = c.createStatement()) {
                connection = c;
                running = s;
                c.setAutoCommit(false);
                for (String q : fill(scale)) {
                    if (stoppedBy != null) {
                        c.rollback();
                        return left(false);
                    }
                    s.execute(q);
                }
                if (stoppedBy != null) {
                    c.rollback();
                    return left(false);
                }
                c.commit();
                committed = true;
                c.setAutoCommit(true); // VACUUM runs outside a transaction block
                if (stoppedBy != null) {
                    return left(true);
                }
                s.execute(ANALYZE);
                return Optional.empty();
            } catch (SQLException e) {
                if (stoppedBy != null) { // the cancel, or the closed connection: the server rolls back what is open
                    return left(committed);
                }
                throw new IllegalArgumentException("postgres: pg-init at " + PgServer.redacted(url) + ": "
                        + (e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("")));
            } finally {
                running = null;
                connection = null;
            }
        }

        /**
         * Stops it, by {@code who} (a signal's name): the first call cancels the running statement, a later one
         * closes the connection too. Returns at once; {@link #run} returns what was left.
         */
        public void stop(String who) {
            boolean again;
            synchronized (this) { // two signals at once: one is first
                again = stoppedBy != null;
                if (!again) {
                    stoppedBy = who;
                }
            }
            try {
                Statement s = running;
                Connection c = connection;
                if (again && c != null) {
                    c.abort(Runnable::run);
                } else if (s != null) {
                    s.cancel();
                }
            } catch (SQLException | RuntimeException e) {
                // the statement or connection ended meanwhile: run() sees stoppedBy at its next step
            }
        }

        /** Who stopped it first ({@link #stop}'s word), or null. */
        public String stoppedBy() {
            return stoppedBy;
        }

        private Optional<String> left(boolean committed) {
            return Optional.of("stopped by " + stoppedBy + (committed
                    ? ": pgbench's tables at scale " + scale + " are filled and keyed, not yet analyzed"
                    : ": pgbench's tables were left as they were (nothing was committed)"));
        }

        private static List<String> fill(long scale) {
            return List.of(
                    "DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
                    "CREATE TABLE pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler "
                            + "char(22))",
                    "CREATE TABLE pgbench_tellers (tid int not null, bid int, tbalance int, filler char(84)) WITH "
                            + "(fillfactor=100)",
                    "CREATE TABLE pgbench_accounts (aid int not null, bid int, abalance int, filler char(84)) WITH "
                            + "(fillfactor=100)",
                    "CREATE TABLE pgbench_branches (bid int not null, bbalance int, filler char(88)) WITH "
                            + "(fillfactor=100)",
                    "INSERT INTO pgbench_branches (bid, bbalance) SELECT bid, 0 FROM generate_series(1, " + scale
                            + ") bid",
                    "INSERT INTO pgbench_tellers (tid, bid, tbalance) SELECT tid, (tid - 1) / 10 + 1, 0 FROM "
                            + "generate_series(1, " + 10 * scale + ") tid",
                    "INSERT INTO pgbench_accounts (aid, bid, abalance, filler) SELECT aid, (aid - 1) / 100000 + 1, 0, "
                            + "'' FROM generate_series(1, " + 100_000 * scale + ") aid",
                    "ALTER TABLE pgbench_branches ADD PRIMARY KEY (bid)",
                    "ALTER TABLE pgbench_tellers ADD PRIMARY KEY (tid)",
                    "ALTER TABLE pgbench_accounts ADD PRIMARY KEY (aid)");
        }
    }
}
