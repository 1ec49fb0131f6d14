package dev.pacer.engine.workload;

import dev.pacer.engine.op.WarmUpDeadline;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.RunClock;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A SQL workload over vertx-pg-client ({@code client=vertx}), asynchronous on Netty's event loops: its own pool of
 * N connections, each carrying one cycle at a time, so {@link #capacity()} is N and a cycle that finds all N busy
 * waits for an in-flight slot before it starts (its wait time). A worker hands each cycle to its connection's event
 * loop, where the statements run one after another as server-side prepared statements (cached per connection),
 * between {@code BEGIN} and {@code COMMIT} when the op is a transaction, rolled back at the first failure. With
 * {@code pipelining=on} a transaction whose steps bind no saved value is sent whole ({@code BEGIN} and every step)
 * before the first answer, then {@code COMMIT} (or {@code ROLLBACK} at a failed step) once the answers are checked:
 * two round trips instead of one per statement, as pgbench's pipeline mode. Cycles are never pipelined with each
 * other: a connection carries one transaction at a time.
 *
 * <p>Parameters are bound as pgjdbc binds them: a whole number as bigint, a decimal as double precision, text as
 * text the server casts to its parameter's type, a saved value as the client read it. The statements are checked on
 * the server with pgjdbc first ({@link PgServer#check}), so bad input reads the same whatever the client.
 *
 * <p>Timeouts: a cycle with no answer within the request timeout (or a connection not made within the connect
 * timeout) is {@code timeout}, and its connection is closed; each connection checks its cycle's deadline every tenth
 * of the timeout (at least every 10 ms, at most every second). A broken connection is dropped and made again by the
 * next cycle that takes it ({@code refused} while the server is down).
 *
 * <p>It is a mix ({@link OpMix}): the run records each cycle under its op's name too.
 *
 * <p>Thread-safety: {@link #start} is called by the run's workers; a {@link Session} is taken from {@link #idle} by
 * one worker, which hands the cycle to the session's event loop ({@link Context#runOnContext}, which orders the
 * hand-off); every other read and write of a session's fields happens on that event loop, which puts the session
 * back in {@link #idle} before it completes the cycle.
 */
final class PostgresVertxOp implements AsyncOp, OpMix {

    private final PgWorkload w;
    /** Each op's statements by op and step, as this client sends them ({@link PgServer#check}). */
    private final String[][] statements;
    private final int connections;
    private final boolean pipelining;
    private final long warmUpCycles;
    private final long timeoutNanos;
    /** What the timeouts are read on: the system clock, as Vert.x's periodic timer that checks them runs on it. */
    private final RunClock timeoutClock = RunClock.system();
    private final long connectTimeoutNanos;
    private final PgConnectOptions options;
    private final Vertx vertx;
    /** Sessions not carrying a cycle; a worker takes one, its event loop puts it back. */
    private final ArrayBlockingQueue<Session> idle;
    /** Every session, fixed by the constructor. */
    private final List<Session> all = new ArrayList<>();

    /**
     * Checks every statement on the server (with pgjdbc: {@link PgServer#check}), then opens the connections.
     *
     * @throws IllegalArgumentException one line: a refused login, a connection that cannot be opened, a URL parameter
     *                                  this client does not take
     * @throws WorkloadException        a statement that does not prepare, a bind or a saved column the server refuses
     */
    PostgresVertxOp(PgWorkload w, PgServer server, int connections, Duration connectTimeout, Duration timeout,
                    int ioThreads, boolean pipelining, long warmUpCycles) throws SQLException {
        this.w = w;
        this.connections = connections;
        this.pipelining = pipelining;
        this.warmUpCycles = warmUpCycles;
        this.timeoutNanos = timeout.toNanos();
        this.connectTimeoutNanos = connectTimeout.toNanos();
        Properties p = server.parsed("client=vertx");
        try (Connection c = server.connectFirst()) {
            this.statements = PgServer.check(c, w);
        } catch (SQLException e) { // the connection broke during the checks
            throw new IllegalArgumentException("postgres: cannot check the statements at "
                    + PgServer.redacted(server.url) + ": " + PgServer.oneLine(e));
        }
        this.options = new PgConnectOptions()
                .setHost(p.getProperty("PGHOST", "localhost"))
                .setPort(Integer.parseInt(p.getProperty("PGPORT", "5432")))
                .setDatabase(p.getProperty("PGDBNAME", ""))
                .setUser(p.getProperty("user", ""))
                .setPassword(p.getProperty("password", ""))
                .setCachePreparedStatements(true)
                .setPipeliningLimit(pipelining ? PgConnectOptions.DEFAULT_PIPELINING_LIMIT : 1)
                .addProperty("application_name", "pacer");
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(ioThreads).setPreferNativeTransport(true)
                .setWorkerPoolSize(1).setInternalBlockingPoolSize(1));
        this.idle = new ArrayBlockingQueue<>(connections);
        try {
            List<CompletableFuture<Throwable>> opened = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                // a context of its own per session, on the event loops in turn (getOrCreateContext, called from this
                // thread, gave every session the same one: one event loop whatever io-threads said); Vert.x 5's
                // internal API, as no public call makes an event-loop context
                Session s = new Session(((io.vertx.core.internal.VertxInternal) vertx).createEventLoopContext());
                all.add(s);
                CompletableFuture<Throwable> f = new CompletableFuture<>();
                s.context.runOnContext(v -> s.open(f));
                opened.add(f);
            }
            for (CompletableFuture<Throwable> f : opened) {
                Throwable e = f.get(connectTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
                if (e != null) {
                    String m = String.valueOf(e.getMessage());
                    throw new IllegalArgumentException("postgres: cannot open " + connections + " connections to "
                            + PgServer.redacted(server.url) + " (client=vertx): "
                            + PgServer.scrubbed(m.lines().findFirst().orElse(m)));
                }
            }
        } catch (IllegalArgumentException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw new IllegalArgumentException("postgres: cannot open " + connections + " connections to "
                    + PgServer.redacted(server.url) + " (client=vertx): " + PgServer.scrubbed(String.valueOf(e)));
        }
        idle.addAll(all);
    }

    /** The workload's ops by name: the run keeps each one's figures. */
    @Override
    public List<String> opNames() {
        return w.names;
    }

    @Override
    public int opOf(long cycle) {
        return w.mixOp(cycle);
    }

    @Override
    public int stepsOf(int opIndex) {
        return w.ops.get(opIndex).steps().size();
    }

    @Override
    public void start(long cycle, Completion completion) {
        int index = w.opToSend(cycle);
        if (index < 0) {
            completion.complete(CheckOutcomes.DATA_EXHAUSTED);
            return;
        }
        Session s = idle.poll();
        if (s == null) { // more cycles in flight than connections (--max-in-flight above it): wait
            try {
                s = idle.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                completion.complete(Outcome.CANCELLED);
                return;
            }
        }
        Session session = s;
        session.context.runOnContext(v -> session.begin(index, cycle, false, completion));
    }

    /** What the last warm-up did, for the run's start line; null before one ran. */
    private volatile String warmUpLine;

    @Override
    public String warmUpLine() {
        return warmUpLine;
    }

    /**
     * Runs up to {@link #warmUpCycles} cycles (for at most {@link JdbcSession#WARM_UP_TIME}) over every connection,
     * each in a transaction that is rolled back, as the pgjdbc modes do: the JIT compiles the client's path and every
     * connection prepares its statements; the server commits nothing. {@code warm-up=0} turns it off.
     */
    @Override
    public void warmUp() throws Exception {
        warmUp(null);
    }

    /** As {@link #warmUp()}, within {@code atMost} when given: each session's chain ends by then. */
    @Override
    public void warmUp(java.time.Duration atMost) throws Exception {
        if (warmUpCycles <= 0) {
            return;
        }
        List<Session> taken = new ArrayList<>();
        idle.drainTo(taken);
        long began = RunClock.system().nanoTime();
        long deadline = WarmUpDeadline.in(atMost).within(JdbcSession.WARM_UP_TIME.toNanos(), 0);
        AtomicLong next = new AtomicLong();
        AtomicLong ran = new AtomicLong();
        CountDownLatch done = new CountDownLatch(taken.size());
        try {
            for (Session s : taken) {
                s.context.runOnContext(v -> warmNext(s, next, ran, deadline, done));
            }
            // each chain ends by its deadline, at its first lost connection, or a cycle's timeout after it
            if (!done.await(Math.max(0, deadline - RunClock.system().nanoTime()) + timeoutNanos + connectTimeoutNanos
                    + TimeUnit.SECONDS.toNanos(2), TimeUnit.NANOSECONDS)) {
                for (Session s : taken) { // a cycle still in its rolled-back transaction must not meet the run's
                    s.context.runOnContext(v -> s.abandonWarmUp());
                }
            }
            warmUpLine = JdbcSession.warmUpLine(ran.get(), RunClock.system().nanoTime() - began);
        } finally {
            idle.addAll(taken);
        }
    }

    /**
     * One session's next warm-up cycle, on its event loop; counts {@code done} down when its chain ends: at its
     * count, its deadline, or the first cycle with no data (a used-up {@code csv(..., once)}: none after it has any).
     */
    private void warmNext(Session s, AtomicLong next, AtomicLong ran, long deadline, CountDownLatch done) {
        long cycle = next.getAndIncrement();
        int index = cycle < warmUpCycles && RunClock.system().nanoTime() < deadline ? w.opToSend(cycle) : -1;
        if (index < 0) {
            done.countDown();
        } else {
            s.begin(index, cycle, true, o -> {
                ran.incrementAndGet();
                if (PgOutcomes.lostConnection(o)) {
                    done.countDown();
                } else {
                    s.context.runOnContext(v -> warmNext(s, next, ran, deadline, done));
                }
            });
        }
    }

    @Override
    public int capacity() {
        return connections;
    }

    /** The threads the sessions run on (asked on each session's context), for tests. */
    java.util.Set<String> sessionThreads() throws Exception {
        java.util.Set<String> names = java.util.concurrent.ConcurrentHashMap.newKeySet();
        CountDownLatch asked = new CountDownLatch(all.size());
        for (Session s : all) {
            s.context.runOnContext(v -> {
                names.add(Thread.currentThread().getName());
                asked.countDown();
            });
        }
        asked.await(5, TimeUnit.SECONDS);
        return names;
    }

    @Override
    public void close() {
        try {
            vertx.close().await(10, TimeUnit.SECONDS); // closes every connection
        } catch (Exception ignored) {
            // closing at the end: what is left goes with the process
        }
    }

    /**
     * One connection and the cycle it carries. Confined to {@link #context}'s event loop, but for the hand-off
     * described in the class doc.
     */
    private final class Session {
        final Context context;
        /** The connection, or null: the next cycle connects. */
        private PgConnection conn;
        /** Counts the cycles this session ran: a callback of an earlier one (timed out) sees another, does nothing. */
        private long run;
        /** The cycle in flight's completion, or null when none (a late callback must not reach a later cycle). */
        private Completion completion;
        private boolean warm;
        private long cycle;
        private int index;
        private SqlWorkload.Op op;
        private boolean transaction;
        private Object[] saved;
        /** When the cycle in flight (or its connecting) times out, on {@link #timeoutClock}. */
        private long deadline;
        /** The first failure of a pipelined transaction's answers, or null. */
        private Outcome pipelineFailure;
        private int pipelineAnswers;

        Session(Context context) {
            this.context = context;
        }

        /** Connects (before the run) and starts the timeout check; completes {@code f} with null or the failure. */
        void open(CompletableFuture<Throwable> f) {
            long tenth = Math.min(timeoutNanos, connectTimeoutNanos) / 10;
            long period = Math.max(10_000_000L, Math.min(1_000_000_000L, tenth));
            vertx.setPeriodic(TimeUnit.NANOSECONDS.toMillis(period), id -> expire());
            PgConnection.connect(vertx, options).onComplete(ar -> {
                if (ar.succeeded()) {
                    attach(ar.result());
                    f.complete(null);
                } else {
                    f.complete(ar.cause());
                }
            });
        }

        private void attach(PgConnection c) {
            conn = c;
            // a connection's failure reaches the cycle through its statement's answer, or the close below; without a
            // handler the client would print it
            c.exceptionHandler(e -> { });
            c.closeHandler(v -> {
                if (conn == c) {
                    conn = null; // the server closed it: the next cycle connects again
                }
            });
        }

        /** Starts a cycle, on the event loop. */
        void begin(int index, long cycle, boolean warm, Completion completion) {
            this.run++;
            this.completion = completion;
            this.warm = warm;
            this.cycle = cycle;
            this.index = index;
            this.op = w.ops.get(index);
            this.transaction = op.transaction() || warm;
            this.saved = op.savedNames().isEmpty() ? null : new Object[op.savedNames().size()];
            long now = timeoutClock.nanoTime();
            if (conn == null) {
                deadline = now + connectTimeoutNanos;
                long r = run;
                PgConnection.connect(vertx, options).onComplete(ar -> {
                    if (r != run) {
                        if (ar.succeeded()) {
                            ar.result().close(); // the cycle timed out meanwhile
                        }
                        return;
                    }
                    if (ar.failed()) {
                        finish(PgOutcomes.of(ar.cause(), true));
                        return;
                    }
                    attach(ar.result());
                    deadline = timeoutClock.nanoTime() + timeoutNanos;
                    statements();
                });
                return;
            }
            deadline = now + timeoutNanos;
            statements();
        }

        private void statements() {
            if (conn == null) { // closed by the server since the cycle began
                finish(PgOutcomes.RESET);
            } else if (!transaction) {
                step(0);
            } else if (pipelining && PgWorkload.pipelinable(op)) {
                pipeline();
            } else {
                long r = run;
                conn.query("BEGIN").execute().onComplete(ar -> {
                    if (r == run) {
                        if (ar.failed()) {
                            failed(ar.cause());
                        } else {
                            step(0);
                        }
                    }
                });
            }
        }

        /** Sends step {@code k} and goes on from its answer. */
        private void step(int k) {
            if (k == op.steps().size()) {
                end(null);
                return;
            }
            if (conn == null) { // closed by the server after the last answer
                finish(PgOutcomes.RESET);
                return;
            }
            SqlWorkload.Step s = op.steps().get(k);
            long r = run;
            conn.preparedQuery(statements[index][k]).execute(tuple(s)).onComplete(ar -> {
                if (r != run) {
                    return;
                }
                if (ar.failed()) {
                    failed(ar.cause());
                    return;
                }
                Outcome o = checked(s, ar.result());
                if (o != null) {
                    end(o);
                } else {
                    if (k + 1 < op.steps().size()) {
                        completion.stepEnded(); // its service time is its own
                    }
                    step(k + 1);
                }
            });
        }

        /** A transaction sent whole: BEGIN and every step, then COMMIT or ROLLBACK once every answer is in. */
        private void pipeline() {
            long r = run;
            pipelineFailure = null;
            pipelineAnswers = 0;
            int steps = op.steps().size();
            // the connection as sent on: a send may find it closed and run the close handler at once (conn = null);
            // the sends after it then fail, and their answers end the cycle
            PgConnection c = conn;
            c.query("BEGIN").execute().onComplete(ar -> {
                if (r == run && ar.failed()) {
                    pipelined(r, -1, ar, steps);
                }
            });
            for (int k = 0; k < steps; k++) {
                SqlWorkload.Step s = op.steps().get(k);
                int step = k;
                c.preparedQuery(statements[index][k]).execute(tuple(s)).onComplete(ar -> pipelined(r, step, ar, steps));
            }
        }

        /** One answer of a pipelined transaction; the first failure in step order is the cycle's outcome. */
        private void pipelined(long r, int step, AsyncResult<RowSet<Row>> ar, int steps) {
            if (r != run) {
                return;
            }
            if (step < 0) { // BEGIN failed: the steps' answers still come, and fail
                pipelineFailure = failure(ar.cause());
                return;
            }
            if (pipelineFailure == null) {
                pipelineFailure = ar.failed() ? failure(ar.cause()) : checked(op.steps().get(step), ar.result());
            }
            if (step + 1 < steps) { // the answers come in order: a step's time is from the answer before it to its own
                completion.stepEnded();
            }
            if (++pipelineAnswers == steps) {
                if (pipelineFailure != null && PgOutcomes.lostConnection(pipelineFailure)) {
                    lost(pipelineFailure);
                } else {
                    end(pipelineFailure);
                }
            }
        }

        private Tuple tuple(SqlWorkload.Step s) {
            List<SqlWorkload.Slot> params = s.params();
            Tuple t = Tuple.tuple();
            for (SqlWorkload.Slot p : params) {
                if (p.binding() >= 0) {
                    Fn f = w.bindings[p.binding()];
                    switch (f.kind()) {
                        case LONG -> t.addLong(f.asLong(cycle));
                        case DOUBLE -> t.addDouble(Double.parseDouble(f.text(cycle)));
                        default -> t.addString(f.text(cycle));
                    }
                } else if (p.saved() >= 0) {
                    t.addValue(saved[p.saved()]);
                } else {
                    t.addLong(cycle);
                }
            }
            return t;
        }

        /** A step's answer checked: its rows, its saved columns; null when it passed. */
        private Outcome checked(SqlWorkload.Step s, RowSet<Row> rs) {
            long rows = rs.columnsNames() == null || rs.columnsNames().isEmpty() ? rs.rowCount() : rs.size();
            if (!s.saves().isEmpty() && rows > 0) {
                Row first = rs.iterator().next();
                for (SqlWorkload.Save sv : s.saves()) {
                    saved[sv.slot()] = first.getValue(column(first, sv.column()));
                }
            }
            if (s.rows() >= 0 && rows != s.rows()) {
                return PgOutcomes.CHECK_ROWS;
            }
            if (rows == 0 && !s.saves().isEmpty()) {
                return CheckOutcomes.EXTRACT_MISSING;
            }
            return null;
        }

        private int column(Row row, String name) {
            for (int i = 0; i < row.size(); i++) {
                if (row.getColumnName(i).equalsIgnoreCase(name)) {
                    return i;
                }
            }
            return -1; // checked on the server before the run: not reached
        }

        private Outcome failure(Throwable e) {
            return PgOutcomes.of(e, false);
        }

        /** A statement failed: the connection is dropped if it was lost, else the transaction rolled back. */
        private void failed(Throwable e) {
            Outcome o = failure(e);
            if (PgOutcomes.lostConnection(o)) {
                lost(o);
            } else {
                end(o);
            }
        }

        /** Ends the cycle with {@code o} (null: ok): COMMIT (ROLLBACK when warm or failed) when in a transaction. */
        private void end(Outcome o) {
            if (!transaction) {
                finish(o);
                return;
            }
            if (conn == null) { // closed by the server after the last answer: the server rolled it back
                finish(o != null ? o : PgOutcomes.RESET);
                return;
            }
            long r = run;
            conn.query(o == null && !warm ? "COMMIT" : "ROLLBACK").execute().onComplete(ar -> {
                if (r != run) {
                    return;
                }
                if (ar.failed()) {
                    Outcome e = failure(ar.cause());
                    drop();
                    finish(o != null ? o : e);
                } else {
                    finish(o);
                }
            });
        }

        /** On the event loop, after a warm-up that outlasted its wait: a cycle still in flight goes, connection too. */
        void abandonWarmUp() {
            if (completion != null) {
                drop();
                completion = null;
                run++; // its later answers are stale
            }
        }

        private void lost(Outcome o) {
            drop();
            finish(o);
        }

        private void drop() {
            if (conn != null) {
                PgConnection c = conn;
                conn = null;
                c.close();
            }
        }

        /** Puts the session back, then completes the cycle: the next cycle it lets start finds a connection. */
        private void finish(Outcome o) {
            Completion c = completion;
            completion = null;
            run++; // whatever of this cycle still answers is stale
            if (!warm) {
                idle.add(this);
            }
            c.complete(o);
        }

        /** The periodic timeout check: a cycle past its deadline is {@code timeout} and its connection closed. */
        private void expire() {
            if (completion != null && timeoutClock.nanoTime() - deadline > 0) {
                drop();
                finish(PgOutcomes.TIMEOUT);
            }
        }
    }
}
