package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.op.OpSpec;
import dev.pacer.engine.result.OpSummary;
import dev.pacer.engine.result.Summary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The postgres driver against a private PostgreSQL cluster ({@link PgCluster}), judged by the server's tables. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PostgresOpTest {

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

    private static OpSpec postgres(String workload, String... options) {
        Map<String, List<String>> m = new java.util.LinkedHashMap<>();
        m.put("url", List.of(pg.url()));
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

    @Test
    void tpcbLikeAt200PerSecondCommitsExactlyTheOkCount() throws Exception {
        long before = pg.queryLong("SELECT count(*) FROM pgbench_history");
        String gap = "SELECT (SELECT sum(abalance) FROM pgbench_accounts) - (SELECT sum(tbalance) FROM pgbench_tellers)";
        long gapBefore = pg.queryLong(gap); // simple-update (another test) moves accounts only
        Summary s = LoadTest.rate(200).op(postgres("tpcb-like")).duration(Duration.ofSeconds(10)).run().summary();
        long added = pg.queryLong("SELECT count(*) FROM pgbench_history") - before;
        long ok = s.outcomes().getOrDefault("ok", 0L);
        assertEquals(s.ops(), ok, "every transaction committed: " + s.outcomes());
        assertEquals(ok, added, "pgbench_history gained one row per ok cycle");
        assertTrue(Math.abs(s.ops() - 2000) <= 20, "200 tps for 10 s: " + s.ops());
        assertEquals(gapBefore, pg.queryLong(gap), "each transaction moved the same delta in accounts and tellers");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"platform", "virtual"})
    void eachThreadKindRunsSimpleUpdateExactly(String threads) throws Exception {
        long before = pg.queryLong("SELECT count(*) FROM pgbench_history");
        Summary s = LoadTest.rate(500).op(postgres("simple-update", "threads", threads, "connections", "4"))
                .cycles(500).run().summary();
        assertEquals(500L, s.outcomes().get("ok"), s.outcomes().toString());
        assertEquals(500, pg.queryLong("SELECT count(*) FROM pgbench_history") - before);
    }

    @Test
    void theWarmUpRunsTheStatementsAndLeavesNoRow() throws Exception {
        long rows = pg.queryLong("SELECT count(*) FROM pgbench_history");
        String inserted = "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'pgbench_history'";
        long inserts = pg.queryLong(inserted);
        try (dev.pacer.engine.op.Op op = new PostgresOpProvider().create(postgres("tpcb-like", "warm-up", "500"))) {
            op.warmUp();
        }
        assertEquals(rows, pg.queryLong("SELECT count(*) FROM pgbench_history"), "every warm-up cycle rolled back");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (pg.queryLong(inserted) - inserts < 500 && System.nanoTime() < deadline) {
            Thread.sleep(200); // the backends report their counters within a second or when they end
        }
        assertEquals(500, pg.queryLong(inserted) - inserts, "the warm-up ran its 500 cycles' inserts");
    }

    @Test
    void aFailingStepRollsItsTransactionBackAndIsTypedBySqlstate() throws Exception {
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
        Summary s = LoadTest.rate(400).op(postgres(f.toString())).cycles(400).run().summary();
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
        for (String[] c : new String[][] {
                {"{sql: 'SELECT * FROM nosuch WHERE id = {id}'}", "relation \"nosuch\" does not exist"},
                {"{sql: 'SELECT nosuch FROM bi WHERE id = {id}'}", "column \"nosuch\" does not exist"},
                {"{sql: 'SELEKT id FROM bi WHERE id = {id}'}", "syntax error"},
                {"{sql: \"SELECT id FROM bi WHERE name = 'x{id}'\"}", "a {name} inside a quoted string?"},
                {"{sql: 'SELECT id FROM bi WHERE id = {word}'}", "{word} is text but parameter $1 is int4"},
                {"{sql: 'SELECT id FROM bi WHERE id = {id}', save: {x: nosuch}}", "returns no column 'nosuch'"}}) {
            Path f = file("bindings: {id: 'uniform(1, 9)', word: 'alnum(3, 5)'}\nops:\n  one: " + c[0] + "\n");
            WorkloadException w = assertThrows(WorkloadException.class,
                    () -> p.create(postgres(f.toString())).close());
            assertTrue(w.getMessage().startsWith(f + ":4: ") && w.getMessage().contains(c[1])
                    && !w.getMessage().contains("\n"), w.getMessage());
        }
        Path f = file("ops:\n  one: {sql: 'SELECT {nosuch}'}\n");
        WorkloadException w = assertThrows(WorkloadException.class, () -> p.create(postgres(f.toString())));
        assertTrue(w.getMessage().contains(":3: {nosuch} is not a binding"), w.getMessage());
    }

    @Test
    void aServerStoppedMidRunIsCountedAndTheRunRecoversOnSchedule() throws Exception {
        LoadTest.Running run = LoadTest.rate(100).op(postgres("tpcb-like", "connect-timeout", "2s"))
                .duration(Duration.ofSeconds(12)).start();
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
        assertTrue(Math.abs(s.ops() - 1200) <= 24, "the schedule went on through the stop: " + s.ops());
        long after = pg.queryLong("SELECT count(*) FROM pgbench_history WHERE mtime > '" + restarted + "'");
        assertTrue(after > 200, "it recovered: " + after + " transactions after the restart; " + o);
    }
}
