package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.OpSummary;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.SettingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The postgres driver against a private PostgreSQL cluster ({@link PgCluster}), judged by the server's tables and
 * counters; the behaviour tests run once per client: pgjdbc run by the workers ({@code jdbc-threads=workers}, the
 * default), pgjdbc with a hand-off ({@code jdbc-threads=platform}), vertx-pg-client, and vertx-pg-client pipelined.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PostgresOpTest {

    /** The clients every behaviour test runs with: the op's options, as {@code key=value} words. */
    private static final String JDBC = "client=jdbc";
    private static final String HAND_OFF = "client=jdbc jdbc-threads=platform";
    private static final String VERTX = "client=vertx";
    private static final String VERTX_PIPELINED = "client=vertx pipelining=on";

    private static PgCluster pg;

    @TempDir
    Path dir;

    @BeforeAll
    static void cluster() throws Exception {
        pg = PgCluster.start();
        PgBench.init(pg.url(), 1);
    }

    @AfterAll
    static void removeCluster() throws Exception {
        if (pg != null) {
            pg.close();
        }
    }

    /** The postgres op on {@code workload} in database postgres, with a client's words and more options. */
    private static OpSpec postgres(String workload, String client, String... options) {
        return postgresIn("postgres", workload, client, options);
    }

    private static OpSpec postgresIn(String db, String workload, String client, String... options) {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("url", List.of(pg.url(db)));
        for (String word : client.split(" ")) {
            String[] kv = word.split("=", 2);
            m.put(kv[0], List.of(kv[1]));
        }
        for (int i = 0; i < options.length; i += 2) {
            m.put(options[i], List.of(options[i + 1]));
        }
        return OpSpec.parse("postgres:" + workload, m);
    }

    private Path file(String text) throws Exception {
        Path f = dir.resolve("w.yaml");
        Files.writeString(f, "driver: postgres\n" + text);
        return f;
    }

    /** A database of its own with pgbench's tables at scale 1, no session left on it. */
    private static String freshDatabase(String name) throws Exception {
        pg.sql("DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name);
        PgBench.init(pg.url(name), 1);
        assertTrue(pg.awaitNoSessions(name, 20), "pg-init's session ended");
        return name;
    }

    private static long stat(String db, String column) throws Exception {
        return pg.queryLong("SELECT " + column + " FROM pg_stat_database WHERE datname = '" + db + "'");
    }

    /**
     * Transactions per whole second of {@code pgbench_history.mtime} (the server's clock at each transaction's
     * start), as (epoch second, count), from the first to the last second with a row.
     */
    private static List<long[]> perSecond(String db) throws Exception {
        return pg.queryPairs(db, "SELECT floor(extract(epoch FROM mtime AT TIME ZONE current_setting('TimeZone')))"
                + "::bigint AS s, count(*) FROM pgbench_history GROUP BY 1 ORDER BY 1");
    }

    /**
     * How far a whole second's count may be from {@code rate}: 2 %, or (when more) what the run's own lateness
     * explains: a cycle that started its transaction late by up to the run's largest response time may have moved
     * into the next second, so a second may lose or gain that many cycles at the rate (on a loaded machine a stall
     * of tens of milliseconds at a second's edge does that; the run records it).
     */
    private static long slack(double rate, Summary s) {
        double lateSeconds = s.latencies().get(Metric.RESPONSE).max() / 1e9;
        return Math.max(Math.round(rate * 0.02), (long) Math.ceil(rate * lateSeconds) + 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {JDBC, HAND_OFF, VERTX, VERTX_PIPELINED})
    void tpcbLikeAt200PerSecondCommitsExactlyTheOkCount(String client) throws Exception {
        String db = freshDatabase("exact");
        long commits = stat(db, "xact_commit");
        long sessions = stat(db, "sessions");
        long rollbacks = stat(db, "xact_rollback");
        String gap = "SELECT (SELECT sum(abalance) FROM pgbench_accounts) - (SELECT sum(tbalance) FROM "
                + "pgbench_tellers)";
        Summary s = LoadTest.rate(200).op(postgresIn(db, "tpcb-like", client, "warm-up", "300"))
                .duration(Duration.ofSeconds(5)).run().summary();
        assertTrue(pg.awaitNoSessions(db, 20), "the op's sessions ended with the run");
        long logins = stat(db, "sessions") - sessions;
        commits = stat(db, "xact_commit") - commits; // before this test's own sessions on the database
        rollbacks = stat(db, "xact_rollback") - rollbacks;
        long ok = s.outcomes().getOrDefault("ok", 0L);
        assertEquals(s.ops(), ok, "every transaction committed: " + s.outcomes());
        assertEquals(ok + logins, commits, "xact_commit moved by the ok count and one per session (its login's"
                + " catalog read): the warm-up's and the checks' transactions rolled back; " + logins + " sessions");
        assertEquals(300 + 2, rollbacks, "xact_rollback moved by the warm-up's 300 cycles, the checks' transaction and"
                + " the scale query's");
        assertTrue(Math.abs(s.ops() - 1000) <= 10, "200 tps for 5 s: " + s.ops() + ", response max "
                + s.latencies().get(Metric.RESPONSE).max() / 1e6 + " ms");
        assertEquals(ok, pg.queryLong(db, "SELECT count(*) FROM pgbench_history"),
                "pgbench_history gained one row per ok cycle");
        assertEquals(0, pg.queryLong(db, gap), "each transaction moved the same delta in accounts and tellers");
        List<long[]> seconds = perSecond(db);
        long slack = slack(200, s);
        for (long[] sec : seconds.subList(1, seconds.size() - 1)) { // the first and last are partial
            assertTrue(Math.abs(sec[1] - 200) <= slack, "second " + sec[0] + " of " + seconds.size() + " had " + sec[1]
                    + " transactions by mtime; 200 +- " + slack + " (2 %, or the run's own lateness: response max "
                    + s.latencies().get(Metric.RESPONSE).max() / 1e6 + " ms)");
        }
        assertTrue(seconds.size() >= 5, "5 s of seconds: " + seconds.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {JDBC, VERTX})
    void aLiveRateChangeMovesTheServersCommitRateWithinOneInterval(String client) throws Exception {
        String db = freshDatabase("live");
        CountDownLatch third = new CountDownLatch(3);
        LoadTest.Running run = LoadTest.rate(100).op(postgresIn(db, "tpcb-like", client, "warm-up", "300"))
                .onInterval(i -> third.countDown()).duration(Duration.ofSeconds(8)).start();
        assertTrue(third.await(60, TimeUnit.SECONDS), "three intervals");
        double before = System.currentTimeMillis() / 1e3;
        run.rate("400");
        double after = System.currentTimeMillis() / 1e3;
        Summary s = run.await().summary();
        List<long[]> seconds = perSecond(db);
        List<String> old = new ArrayList<>();
        List<String> moved = new ArrayList<>();
        long slackOld = slack(100, s);
        long slackNew = slack(400, s);
        for (long[] sec : seconds.subList(1, seconds.size() - 1)) { // the first and last are partial
            if (sec[0] + 1 <= before) {
                old.add(sec[0] + ":" + sec[1]);
                assertTrue(Math.abs(sec[1] - 100) <= slackOld, "before the change: " + old + "; 100 +- " + slackOld);
            } else if (sec[0] >= Math.ceil(after)) { // starts within one interval (1 s) of the change
                moved.add(sec[0] + ":" + sec[1]);
                assertTrue(Math.abs(sec[1] - 400) <= slackNew, "from the first whole second after the change ("
                        + after + "): " + moved + "; 400 +- " + slackNew);
            }
        }
        assertTrue(old.size() >= 1 && moved.size() >= 2, "seconds judged: before " + old + ", after " + moved);
        assertEquals(s.ops(), s.outcomes().getOrDefault("ok", 0L), s.outcomes().toString());
        assertEquals(s.ops(), pg.queryLong(db, "SELECT count(*) FROM pgbench_history"));
    }

    @ParameterizedTest
    @ValueSource(strings = {JDBC, HAND_OFF, "client=jdbc jdbc-threads=virtual", VERTX, VERTX_PIPELINED})
    void eachClientRunsSimpleUpdateExactly(String client) throws Exception {
        long before = pg.queryLong("SELECT count(*) FROM pgbench_history");
        Summary s = LoadTest.rate(500).op(postgres("simple-update", client, "connections", "4"))
                .cycles(500).run().summary();
        assertEquals(500L, s.outcomes().get("ok"), s.outcomes().toString());
        assertEquals(500, pg.queryLong("SELECT count(*) FROM pgbench_history") - before);
    }

    /**
     * pg-init stopped while the server fills the accounts (a signal's handler calls stop): the statement is cancelled,
     * nothing is committed, and the tables of the init before, marked, are there as they were.
     */
    @Test
    void aStoppedInitLeavesTheTablesAsTheyWere() throws Exception {
        String db = freshDatabase("stopped_init");
        assertEquals(1, pg.queryLong(db, "WITH u AS (UPDATE pgbench_branches SET bbalance = 42 RETURNING 1) "
                + "SELECT count(*) FROM u"));
        PgBench.Init init = new PgBench.Init(pg.url(db), 100); // 10 million accounts: minutes, were it not stopped
        CompletableFuture<Optional<String>> run = CompletableFuture.supplyAsync(init::run);
        String filling = "SELECT count(*) FROM pg_stat_activity WHERE datname = '" + db + "' AND state = 'active' "
                + "AND query LIKE 'INSERT INTO pgbench_accounts%'";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (pg.queryLong(filling) == 0) {
            assertTrue(System.nanoTime() < deadline && !run.isDone(), "the server started filling the accounts");
            Thread.sleep(20);
        }
        init.stop("SIGINT");
        assertEquals(Optional.of("stopped by SIGINT: pgbench's tables were left as they were (nothing was committed)"),
                run.get(60, TimeUnit.SECONDS));
        assertEquals("SIGINT", init.stoppedBy());
        assertTrue(pg.awaitNoSessions(db, 20), "the init's session ended");
        assertEquals(42, pg.queryLong(db, "SELECT bbalance FROM pgbench_branches"), "the marked branch is there");
        assertEquals(100_000, pg.queryLong(db, "SELECT count(*) FROM pgbench_accounts"), "scale 1's accounts");
    }

    /** A stop before the init connects: it commits nothing and says so. */
    @Test
    void anInitStoppedBeforeItsFirstStatementTouchesNothing() throws Exception {
        String db = freshDatabase("stopped_early");
        PgBench.Init init = new PgBench.Init(pg.url(db), 2);
        init.stop("SIGTERM");
        init.stop("SIGINT");
        assertEquals(Optional.of("stopped by SIGTERM: pgbench's tables were left as they were (nothing was "
                + "committed)"), init.run());
        assertEquals(1, pg.queryLong(db, "SELECT count(*) FROM pgbench_branches"), "scale 1 still");
    }

    @Test
    void theWorkersModeRunsOneWorkerPerConnectionUnlessTheRunSaysOtherwise() throws Exception {
        String db = freshDatabase("workers");
        long sessions = stat(db, "sessions");
        Summary s = LoadTest.rate(300).op(postgresIn(db, "select-only", JDBC, "connections", "3", "scale", "1"))
                .cycles(300)
                .run().summary();
        assertEquals(3, s.threads(), "one worker per connection");
        assertEquals(300L, s.outcomes().get("ok"), s.outcomes().toString());
        assertTrue(pg.awaitNoSessions(db, 20));
        assertEquals(3, stat(db, "sessions") - sessions, "three sessions on the server, the checks' first among them");
        s = LoadTest.rate(300).op(postgresIn(db, "select-only", JDBC, "connections", "3", "scale", "1"))
                .threads(5).cycles(300)
                .run().summary();
        assertEquals(5, s.threads(), "the run's own thread count wins");
        assertEquals(300L, s.outcomes().get("ok"), s.outcomes().toString());
        assertTrue(pg.awaitNoSessions(db, 20));
        assertEquals(3 + 5, stat(db, "sessions") - sessions, "the two workers beyond the three opened their own");
    }

    @Test
    void aWorkerAddedMidRunTakesTheConnectionOfOneThatLeft() throws Exception {
        String db = freshDatabase("rejoin");
        long sessions = stat(db, "sessions");
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch second = new CountDownLatch(2);
        LoadTest.Running run = LoadTest.rate(300).op(postgresIn(db, "select-only", JDBC, "connections", "3", "scale",
                "1")).onInterval(i -> {
                    first.countDown();
                    second.countDown();
                }).duration(Duration.ofSeconds(4)).start();
        assertTrue(first.await(60, TimeUnit.SECONDS), "one interval");
        run.threads(1); // two workers leave, their connections stay open
        assertTrue(second.await(60, TimeUnit.SECONDS), "two intervals");
        run.threads(3); // a second later both have ended: the new workers take their connections
        Summary s = run.await().summary();
        assertEquals(s.ops(), s.outcomes().getOrDefault("ok", 0L), s.outcomes().toString());
        assertTrue(pg.awaitNoSessions(db, 20));
        assertEquals(3, stat(db, "sessions") - sessions, "no connection beyond the three");
    }

    /**
     * A pgjdbc warm-up whose statements wait on a lock another session holds: at the warm-up's bound (3 s) they are
     * cancelled on the server, and the warm-up returns; it waited for the request timeout (60 s here) before.
     */
    @ParameterizedTest
    @ValueSource(strings = {JDBC, HAND_OFF})
    void aWarmUpStatementBlockedOnALockIsCancelledAtItsBound(String client) throws Exception {
        String db = freshDatabase("blocked_warm_up");
        try (Op op = new PostgresOpProvider().create(postgresIn(db, "select-only", client, "connections", "2",
                "request-timeout", "60s"));
             java.sql.Connection locker = pg.connect(db)) {
            locker.setAutoCommit(false);
            try (java.sql.Statement lock = locker.createStatement()) {
                lock.execute("LOCK TABLE pgbench_accounts IN ACCESS EXCLUSIVE MODE");
            }
            long t0 = System.nanoTime();
            op.warmUp();
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(seconds < 20, "the warm-up ended " + seconds + " s after it began: its bound is 3 s, the "
                    + "request timeout 60 s");
            assertEquals(0, pg.queryLong("SELECT count(*) FROM pg_stat_activity WHERE datname = '" + db + "' AND "
                    + "wait_event_type = 'Lock'"), "no statement of the warm-up still waits on the lock");
            locker.rollback();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {JDBC, HAND_OFF, VERTX, VERTX_PIPELINED})
    void theWarmUpRunsTheStatementsAndLeavesNoRow(String client) throws Exception {
        long rows = pg.queryLong("SELECT count(*) FROM pgbench_history");
        String inserted = "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'pgbench_history'";
        long inserts = pg.queryLong(inserted);
        try (Op op = new PostgresOpProvider().create(postgres("tpcb-like", client, "warm-up", "500"))) {
            op.warmUp();
            assertTrue(op.warmUpLine().matches("pacer: postgres warm-up [0-9.]+s against the server, in rolled-back "
                    + "transactions \\(500 cycles; nothing committed\\)"), "the start says so: " + op.warmUpLine());
        }
        assertEquals(rows, pg.queryLong("SELECT count(*) FROM pgbench_history"), "every warm-up cycle rolled back");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (pg.queryLong(inserted) - inserts < 500 && System.nanoTime() < deadline) {
            Thread.sleep(200); // the backends report their counters within a second or when they end
        }
        assertEquals(500, pg.queryLong(inserted) - inserts, "the warm-up ran its 500 cycles' inserts");
    }

    /**
     * Each statement of a multi-step op records its own service time, for every client: a slow first statement shows
     * in step 1's figures only (pipelined, the answers come in order: step 2's is from step 1's answer to its own).
     */
    @ParameterizedTest
    @ValueSource(strings = {JDBC, HAND_OFF, VERTX, VERTX_PIPELINED})
    void eachStatementOfAnOpRecordsItsOwnServiceTime(String client) throws Exception {
        Path f = file("""
                ops:
                  slow-then-fast:
                    weight: 1
                    transaction:
                      - sql: SELECT pg_sleep(0.06)
                      - sql: SELECT {cycle} AS c
                """);
        Summary s = LoadTest.rate(20).op(postgres(f.toString(), client, "connections", "2")).cycles(10).run()
                .summary();
        assertEquals(10L, s.outcomes().get("ok"), s.outcomes().toString());
        List<dev.pacer.engine.api.LatencySummary> steps = s.perOp().get(0).steps();
        assertEquals(2, steps.size(), client);
        assertEquals(10, steps.get(0).count());
        assertEquals(10, steps.get(1).count());
        assertTrue(steps.get(0).at("50") >= 60_000_000, client + ": the sleep is step 1's: " + steps);
        assertTrue(steps.get(1).at("50") < 60_000_000, client + ": not step 2's: " + steps);
    }

    /**
     * jsonb's {@code ?}, {@code ?|} and {@code ?&} are written as PostgreSQL reads them: pgjdbc took each {@code ?} for
     * a parameter ("syntax error at or near $1"); a {@code ?} in a string or a comment stays as it is.
     */
    @ParameterizedTest
    @ValueSource(strings = {JDBC, VERTX})
    void questionMarkOperatorsAreOperatorsNotParameters(String client) throws Exception {
        Path f = file("""
                bindings: {n: "uniform(1, 9)"}
                ops:
                  has:
                    sql: "SELECT '?' AS q, {n} AS n FROM (SELECT jsonb_build_object('a', {n}) AS j) t WHERE j ? 'a' \
                AND j ?| array['a', 'b'] AND NOT j ?& array['a', 'b'] AND (j->>'a')::int = {n} /* or? */"
                    check: {rows: 1}
                """);
        Summary s = LoadTest.rate(200).op(postgres(f.toString(), client)).cycles(100).run().summary();
        assertEquals(Map.of("ok", 100L), s.outcomes(), "every cycle found its row");
    }

    @ParameterizedTest
    @ValueSource(strings = {JDBC, HAND_OFF, VERTX, VERTX_PIPELINED})
    void aFailingStepRollsItsTransactionBackAndIsTypedBySqlstate(String client) throws Exception {
        pg.sql("DROP TABLE IF EXISTS rb", "CREATE TABLE rb (id bigint PRIMARY KEY, note text)",
                "DROP TABLE IF EXISTS uq", "CREATE TABLE uq (id int PRIMARY KEY)", "INSERT INTO uq VALUES (1)");
        Path f = file("""
                bindings: {n: "uniform(1, 1000)"}
                ops:
                  div:
                    weight: 1
                    transaction:
                      - {sql: "INSERT INTO rb (id, note) VALUES ({cycle}, 'div')", check: {rows: 1}}
                      - sql: SELECT 1 / ({n} - {n}) AS x
                  dup:
                    weight: 1
                    transaction:
                      - {sql: "INSERT INTO rb (id, note) VALUES ({cycle}, 'dup')", check: {rows: 1}}
                      - sql: INSERT INTO uq VALUES (1)
                  rows:
                    weight: 1
                    transaction:
                      - {sql: "INSERT INTO rb (id, note) VALUES ({cycle}, 'rows')", check: {rows: 1}}
                      - {sql: "UPDATE uq SET id = id WHERE id = -{n}", check: {rows: 1}}
                  saved:
                    weight: 1
                    transaction:
                      - sql: SELECT id * 1000 AS big FROM uq WHERE id = 1
                        save: {big: big}
                      - {sql: "INSERT INTO rb (id, note) VALUES ({big} + {cycle}, 'saved')", check: {rows: 1}}
                """);
        Summary s = LoadTest.rate(400).op(postgres(f.toString(), client)).cycles(400).run().summary();
        Map<String, Long> o = s.outcomes();
        assertEquals(100L, o.get("sql-22012"), "division by zero: " + o);
        assertEquals(100L, o.get("sql-23505"), "unique violation: " + o);
        assertEquals(100L, o.get("check-rows"), "an update that changed no row: " + o);
        assertEquals(100L, o.get("ok"), "the saving op committed: " + o);
        assertEquals(List.of("div", "dup", "rows", "saved"), s.perOp().stream().map(OpSummary::op).toList());
        assertEquals(List.of(Map.of("sql-22012", 100L), Map.of("sql-23505", 100L), Map.of("check-rows", 100L),
                Map.of()), s.perOp().stream().map(OpSummary::errorsByType).toList(), "each op's errors are its own");
        assertEquals(Map.of("ok", 100L), s.perOp().get(3).outcomes());
        assertEquals(0, pg.queryLong("SELECT count(*) FROM rb WHERE note <> 'saved'"),
                "a failed step left no row of its transaction");
        assertEquals(100, pg.queryLong("SELECT count(*) FROM rb WHERE note = 'saved' AND id >= 1000"),
                "the saved column was bound in the later step");
    }

    /**
     * A text binding into a parameter the server types as a date, an inet, a bool, a uuid: pgjdbc sends it untyped for
     * the server to read, vertx-pg-client as text the server casts (it refused a Java string for a date, every cycle).
     */
    @ParameterizedTest
    @ValueSource(strings = {JDBC, VERTX})
    void aTextBindingReachesADateAnInetABoolAndAUuidParameterWithEitherClient(String client) throws Exception {
        Path f = file("""
                bindings: {d: "pick('2024-02-29':1)", ip: "pick('10.1.2.3':1)", b: "pick('yes':1)", u: "uuid()"}
                ops:
                  typed:
                    sql: "SELECT '$1' AS q WHERE {d} = DATE '2024-02-29' AND {ip} << '10.0.0.0/8'::inet AND {b} \
                AND {u} <> '00000000-0000-0000-0000-000000000000'::uuid"
                    check: {rows: 1}
                """);
        Summary s = LoadTest.rate(200).op(postgres(f.toString(), client)).cycles(50).run().summary();
        assertEquals(Map.of("ok", 50L), s.outcomes(), "every cycle found its row");
    }

    @Test
    void badInputIsOneLineBeforeTheRun() throws Exception {
        PostgresOpProvider p = new PostgresOpProvider();
        String wrongPassword = pg.url().replace(PgCluster.PASSWORD, "wrong");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.create(
                OpSpec.parse("postgres:select-only", Map.of("url", List.of(wrongPassword)))));
        assertTrue(e.getMessage().contains("password authentication failed") && !e.getMessage().contains("wrong@")
                && !e.getMessage().contains("\n"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> p.create(
                OpSpec.parse("postgres:select-only", Map.of("url", List.of("http://127.0.0.1:1/x")))));
        assertTrue(e.getMessage().contains("is not postgresql://"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> p.create(OpSpec.parse("postgres:select-only",
                Map.of("url", List.of("postgresql://pacer:x@127.0.0.1:" + pg.port() + "/nosuchdb")))));
        assertTrue(e.getMessage().startsWith("postgres: cannot connect to"), e.getMessage());
        pg.sql("DROP TABLE IF EXISTS bi", "CREATE TABLE bi (id int, name text)");
        for (String client : List.of(JDBC, VERTX)) {
            for (String[] c : new String[][] {
                    {"{sql: 'SELECT * FROM nosuch WHERE id = {id}'}", "relation \"nosuch\" does not exist"},
                    {"{sql: 'SELECT nosuch FROM bi WHERE id = {id}'}", "column \"nosuch\" does not exist"},
                    {"{sql: 'SELEKT id FROM bi WHERE id = {id}'}", "syntax error"},
                    {"{sql: \"SELECT id FROM bi WHERE name = 'x{id}'\"}", "a {name} inside a quoted string?"},
                    {"{sql: 'SELECT id FROM bi WHERE id = {word}'}", "{word} is text but parameter $1 is int4"},
                    {"{sql: 'SELECT id FROM bi WHERE id = {id}', save: {x: nosuch}}", "returns no column 'nosuch'"},
                    // an adversary's pass: the first crashed the check (ArrayIndexOutOfBoundsException, exit 1), the
                    // second ran with $1 taking {id}'s value, the third failed every cycle on client=vertx
                    {"{sql: 'SELECT $1::int'}", "a parameter is written {name} (a binding, a saved value or {cycle}), "
                            + "not $1"},
                    {"{sql: 'SELECT $1::int + {id}'}", "not $1"},
                    {"{sql: 'SELECT {id}; SELECT 2'}", "one statement per sql: (several: steps: or transaction:"}}) {
                Path f = file("bindings: {id: 'uniform(1, 9)', word: 'alnum(3, 5)'}\nops:\n  one: " + c[0] + "\n");
                WorkloadException w = assertThrows(WorkloadException.class,
                        () -> p.create(postgres(f.toString(), client)).close());
                assertTrue(w.getMessage().startsWith(f + ":4: ") && w.getMessage().contains(c[1])
                        && !w.getMessage().contains("\n") && !w.getMessage().substring(1).contains(f + ":"),
                        client + ": " + w.getMessage());
            }
        }
        Path quoted = file("ops:\n  one: {sql: \"SELECT '$1; x' || $$ $2 $$ -- $3\\n\"}\n");
        p.create(postgres(quoted.toString(), JDBC)).close(); // $n and ; in strings, dollar quotes, comments: taken
        Path f = file("ops:\n  one: {sql: 'SELECT {nosuch}'}\n");
        WorkloadException w = assertThrows(WorkloadException.class, () -> p.create(postgres(f.toString(), JDBC)));
        assertTrue(w.getMessage().contains(":3: {nosuch} is not a binding"), w.getMessage());
    }

    @Test
    void badClientOptionsAreOneLineBeforeAnythingConnects() {
        PostgresOpProvider p = new PostgresOpProvider();
        String nowhere = "postgresql://pacer:x@127.0.0.1:1/db"; // nothing listens: an option refused first says so
        for (String[] c : new String[][] {
                {"client=nosuch", "client", "expected jdbc (pgjdbc, the default) or vertx"},
                {"client=jdbc jdbc-threads=green", "jdbc-threads", "expected workers"},
                {"client=jdbc request-timeout=2900ms", "request-timeout", "pgjdbc times out in whole seconds"},
                {"connect-timeout=500ms", "connect-timeout", "give 1s, 2s, ... (client=vertx takes milliseconds)"},
                {"client=jdbc pipelining=on", "pipelining", "is client=vertx's"},
                {"client=jdbc io-threads=2", "io-threads", "is client=vertx's"},
                {"client=vertx jdbc-threads=platform", "jdbc-threads", "is client=jdbc's"},
                {"client=vertx pipelining=maybe", "pipelining", "expected on or off"},
                {"client=vertx io-threads=0", "io-threads", "expected 1 to 256"}}) {
            Map<String, List<String>> m = new LinkedHashMap<>();
            m.put("url", List.of(nowhere));
            m.put("scale", List.of("1"));
            for (String word : c[0].split(" ")) {
                m.put(word.split("=")[0], List.of(word.split("=")[1]));
            }
            SettingException e = assertThrows(SettingException.class,
                    () -> p.create(OpSpec.parse("postgres:select-only", m)), c[0]);
            assertEquals(c[1], e.setting(), c[0]);
            assertTrue(e.getMessage().contains(c[2]) && !e.getMessage().contains("\n"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.create(OpSpec.parse(
                "postgres:select-only", Map.of("url", List.of(pg.url() + "?sslmode=require"),
                        "client", List.of("vertx"), "scale", List.of("1")))));
        assertTrue(e.getMessage().contains("client=vertx takes no URL parameter 'sslmode'"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {JDBC, HAND_OFF, VERTX, VERTX_PIPELINED})
    void aServerStoppedMidRunIsCountedAndTheRunRecoversOnSchedule(String client) throws Exception {
        LoadTest.Running run = LoadTest.rate(100).op(postgres("tpcb-like", client, "connect-timeout", "2s"))
                .duration(Duration.ofSeconds(9)).start();
        Thread.sleep(3000);
        pg.stopServer();
        Thread.sleep(1500);
        pg.startServer();
        String restarted = pg.queryText("SELECT now()::text");
        Summary s = run.await().summary();
        Map<String, Long> o = s.outcomes();
        long failed = o.getOrDefault("refused", 0L) + o.getOrDefault("reset", 0L);
        assertTrue(failed > 0, "the stopped server's cycles were counted refused or reset: " + o);
        assertEquals(s.ops(), o.getOrDefault("ok", 0L) + failed, "no other outcome: " + o);
        assertTrue(Math.abs(s.ops() - 900) <= 18, "the schedule went on through the stop: " + s.ops());
        long after = pg.queryLong("SELECT count(*) FROM pgbench_history WHERE mtime > '" + restarted + "'");
        assertTrue(after > 200, "it recovered: " + after + " transactions after the restart; " + o);
    }

    /** client=vertx ran every connection on one event loop (its contexts were one), whatever io-threads said. */
    @Test
    void theVertxClientsConnectionsAreSpreadOverItsIoThreads() throws Exception {
        try (PostgresVertxOp op = (PostgresVertxOp) new PostgresOpProvider().create(postgres("select-only", VERTX,
                "scale", "1", "io-threads", "2", "connections", "4", "warm-up", "0"))) {
            assertEquals(2, op.sessionThreads().size(), "two event loops: " + op.sessionThreads());
        }
    }

    /**
     * client=vertx's warm-up with a csv(..., once) of 5 rows: each warm-up cycle past them (20 000 by default) called
     * the next from itself, on the event loop, until the stack overflowed; the warm-up then waited out its bound.
     */
    @Test
    void theVertxWarmUpEndsAtTheEndOfACsvOnce() throws Exception {
        Path csv = dir.resolve("ids.csv");
        Files.writeString(csv, "id\n1\n2\n3\n4\n5\n");
        Path w = file("bindings: {id: \"csv(" + csv + ", id, once)\"}\nops:\n  one: {sql: 'SELECT length({id})'}\n");
        try (Op op = new PostgresOpProvider().create(postgres(w.toString(), VERTX, "connections", "1",
                "request-timeout", "3s", "connect-timeout", "1s"))) {
            long t0 = System.nanoTime();
            op.warmUp();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 2500, "the warm-up took " + ms + " ms, its 5 cycles a few");
        }
    }

    /**
     * jdbc-threads=platform, closed (the run's end, after its grace) with two cycles running: a platform thread's
     * cycle is not stopped by the close, and its session went back to the queue after the close had emptied it,
     * connected for good.
     */
    @Test
    void theHandOffClientClosedWithCyclesRunningLeavesNoConnection() throws Exception {
        String running = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pacer' AND query LIKE "
                + "'SELECT pg_sleep%' AND state = 'active'";
        Path w = file("ops:\n  slow: {sql: 'SELECT pg_sleep(1)'}\n");
        Op op = new PostgresOpProvider().create(postgres(w.toString(), HAND_OFF, "connections", "2", "warm-up", "0"));
        java.util.concurrent.CompletableFuture<Outcome> c0 = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CompletableFuture<Outcome> c1 = new java.util.concurrent.CompletableFuture<>();
        ((dev.pacer.engine.api.AsyncOp) op).start(0, c0::complete);
        ((dev.pacer.engine.api.AsyncOp) op).start(1, c1::complete);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pg.queryLong(running) < 2 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(2, pg.queryLong(running), "both cycles running at the server");
        op.close();
        c0.get(10, TimeUnit.SECONDS);
        c1.get(10, TimeUnit.SECONDS);
        String pacers = "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pacer'";
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (pg.queryLong(pacers) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50); // a closed connection's backend leaves shortly after
        }
        assertEquals(0, pg.queryLong(pacers), "the closed op's connections are gone");
    }
}
