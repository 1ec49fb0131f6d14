package dev.pacer.engine.workload;

import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.op.WarmUpDeadline;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One pgjdbc connection and its prepared statements, running a SQL workload's cycles one at a time: each op's
 * statements in order as server-side prepared statements ({@code prepareThreshold=1}), each {@code {name}} bound
 * typed (a whole-number binding as bigint, a decimal as double precision, text and saved values as text the server
 * types), in a transaction when the op says so, rolled back at the first failure. A connection that broke is
 * dropped; the next cycle connects again (counted {@code refused} while it cannot).
 *
 * <p>Not thread-safe: one thread uses a session at a time, and whoever hands it to another thread orders that hand-off
 * (a queue, a thread's end).
 */
final class JdbcSession {

    /** How long the warm-up may run at most. */
    static final Duration WARM_UP_TIME = Duration.ofSeconds(3);
    /** The rows pgjdbc reads at a time from a statement's result, in a transaction; pacer counts them. */
    static final int FETCH_ROWS = 1_000;
    /** How long past its deadline a warm-up's statement may run before it is cancelled. */
    static final Duration CANCEL_AFTER = Duration.ofMillis(200);
    /** How long a stopped warm-up waits for its threads' cycles in flight. */
    static final Duration STOP_WAIT = Duration.ofSeconds(2);

    private final PgWorkload w;
    private final PgServer server;
    /** The connection, or null once dropped (the next cycle connects). */
    private Connection connection;
    /**
     * {@link #connection} as another thread may see it, to cancel the statement it runs ({@link #cancelStatement}):
     * written by the session's thread when it attaches or drops a connection (a volatile write, not per cycle).
     */
    private volatile Connection cancelable;
    /** The prepared statements by op and step, made on first use; reset with the connection. */
    private PreparedStatement[][] statements;
    /** The connection's auto-commit mode as last set (pgjdbc's default: on). */
    private boolean autoCommit = true;

    /** A session over {@code c}, or with none yet when {@code c} is null (the first cycle connects). */
    JdbcSession(PgWorkload w, PgServer server, Connection c) {
        this.w = w;
        this.server = server;
        if (c != null) {
            attach(c);
        }
    }

    private void attach(Connection c) {
        connection = c;
        cancelable = c;
        autoCommit = true;
        statements = new PreparedStatement[w.ops.size()][];
        for (int i = 0; i < statements.length; i++) {
            statements[i] = new PreparedStatement[w.ops.get(i).steps().size()];
        }
    }

    /**
     * Runs one cycle of op {@code index}; its outcome, null for ok. {@code warm}: in a transaction that is rolled
     * back at the end, whatever the op.
     */
    Outcome run(int index, long cycle, boolean warm) {
        return run(index, cycle, warm, null);
    }

    /** As {@link #run(int, long, boolean)}, calling {@code stepEnded} (when given) as each step but the last ends. */
    Outcome run(int index, long cycle, boolean warm, Runnable stepEnded) {
        if (connection == null) {
            try {
                attach(server.connect());
            } catch (SQLException e) {
                return PgOutcomes.of(e, true);
            }
        }
        SqlWorkload.Op op = w.ops.get(index);
        Object[] saved = op.savedNames().isEmpty() ? null : new Object[op.savedNames().size()];
        boolean transaction = op.transaction() || warm;
        try {
            if (transaction == autoCommit) {
                connection.setAutoCommit(!transaction);
                autoCommit = !transaction;
            }
            for (int step = 0; step < op.steps().size(); step++) {
                Outcome o = step(op.steps().get(step), statement(index, step, op), cycle, saved);
                if (o != null) {
                    if (transaction) {
                        connection.rollback();
                    }
                    return o;
                }
                if (stepEnded != null && step + 1 < op.steps().size()) {
                    stepEnded.run();
                }
            }
            if (warm) {
                connection.rollback();
            } else if (transaction) {
                connection.commit();
            }
            return null;
        } catch (SQLException e) {
            Outcome o = PgOutcomes.of(e, false);
            if (PgOutcomes.lostConnection(o)) {
                drop();
            } else if (transaction) {
                try {
                    connection.rollback();
                } catch (SQLException again) {
                    drop();
                }
            }
            return o;
        } catch (RuntimeException | Error e) { // a binding's value, a driver's bug: the transaction is in doubt
            drop(); // closing ends it, rolled back, and the next cycle connects again
            throw e;
        }
    }

    private PreparedStatement statement(int op, int step, SqlWorkload.Op o) throws SQLException {
        PreparedStatement ps = statements[op][step];
        if (ps == null) {
            ps = connection.prepareStatement(o.steps().get(step).sql());
            // in a transaction pgjdbc reads a result this many rows at a time (outside one, whole: it has no cursor)
            ps.setFetchSize(FETCH_ROWS);
            statements[op][step] = ps;
        }
        return ps;
    }

    private Outcome step(SqlWorkload.Step s, PreparedStatement ps, long cycle, Object[] saved) throws SQLException {
        List<SqlWorkload.Slot> params = s.params();
        for (int i = 0; i < params.size(); i++) {
            SqlWorkload.Slot p = params.get(i);
            if (p.binding() >= 0) {
                Fn f = w.bindings[p.binding()];
                switch (f.kind()) {
                    case LONG -> ps.setLong(i + 1, f.asLong(cycle));
                    case DOUBLE -> ps.setDouble(i + 1, Double.parseDouble(f.text(cycle)));
                    default -> ps.setString(i + 1, f.text(cycle));
                }
            } else if (p.saved() >= 0) {
                ps.setObject(i + 1, saved[p.saved()]);
            } else {
                ps.setLong(i + 1, cycle);
            }
        }
        long rows;
        if (ps.execute()) {
            rows = 0;
            try (ResultSet rs = ps.getResultSet()) {
                while (rs.next()) {
                    if (rows == 0) {
                        for (SqlWorkload.Save sv : s.saves()) {
                            saved[sv.slot()] = rs.getObject(sv.column());
                        }
                    }
                    rows++;
                }
            }
        } else {
            rows = ps.getUpdateCount();
        }
        if (s.rows() >= 0 && rows != s.rows()) {
            return PgOutcomes.CHECK_ROWS;
        }
        if (rows == 0 && !s.saves().isEmpty()) {
            return CheckOutcomes.EXTRACT_MISSING;
        }
        return null;
    }

    /** Closes the connection (it broke, or the run is over); the next cycle connects again. */
    void drop() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // it is being dropped because it broke, or closed at the end
            }
            connection = null;
            cancelable = null;
        }
    }

    /**
     * From another thread: asks the server to cancel the statement this session's thread runs (pgjdbc's cancel
     * request, on a connection of its own); the statement then fails (SQLSTATE 57014, counted a timeout) and the
     * session drops its connection. Nothing when it has none.
     */
    void cancelStatement() {
        Connection c = cancelable;
        if (c != null) {
            try {
                c.unwrap(org.postgresql.PGConnection.class).cancelQuery();
            } catch (SQLException e) {
                // the connection broke or closed meanwhile: its statement has ended
            }
        }
    }

    /**
     * Runs up to {@code cycles} cycles (for at most {@link #WARM_UP_TIME}) over every session, a platform thread each,
     * each cycle in a transaction that is rolled back, so that the first measured cycles pay neither for the JIT nor
     * for preparing the statements: the server commits nothing (its {@code xact_rollback} moves, {@code xact_commit}
     * does not, and no row stays), but it does the work. A session stops at its first lost connection; a statement
     * still running {@link #CANCEL_AFTER} past the deadline is cancelled on the server, and its session's connection
     * dropped (the run's first cycle on it connects again). The caller owns the sessions and gets them back, used,
     * when this returns.
     *
     * @return the warm-up's line for the run's start ({@link #warmUpLine})
     */
    static String warmUp(PgWorkload w, List<JdbcSession> sessions, long cycles, WarmUpDeadline end) throws Exception {
        // the warm-up is for the JIT and the server's plans: real time, whatever the run's clock
        RunClock real = RunClock.system();
        long began = real.nanoTime();
        long deadline = end.within(WARM_UP_TIME.toNanos(), 0);
        java.util.concurrent.atomic.LongAdder ran = new java.util.concurrent.atomic.LongAdder();
        List<Thread> threads = new ArrayList<>();
        // the first failure of a warm-up thread (its session's own fault, not the server's): set once, by a CAS
        AtomicReference<Throwable> failed = new AtomicReference<>();
        // set when the caller is interrupted (the run stops): each thread ends after its cycle in flight
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        for (int k = 0; k < sessions.size(); k++) {
            JdbcSession s = sessions.get(k);
            int first = k;
            threads.add(Thread.ofPlatform().daemon().name("pacer-pg-warm-up-" + k).start(() -> {
                try {
                    for (long cycle = first; cycle < cycles && real.nanoTime() < deadline && !stop.get();
                         cycle += sessions.size()) {
                        int index = w.opToSend(cycle);
                        if (index >= 0) {
                            Outcome o = s.run(index, cycle, true);
                            ran.increment();
                            if (PgOutcomes.lostConnection(o)) {
                                return;
                            }
                        }
                    }
                } catch (RuntimeException | Error e) { // an Error too (a result too large for the heap): one line
                    failed.compareAndSet(null, e);
                }
            }));
        }
        try {
            for (Thread t : threads) { // each ends by its deadline, or at its session's first lost connection
                t.join(Duration.ofNanos(Math.max(1, deadline + CANCEL_AFTER.toNanos() - real.nanoTime())));
            }
            for (int k = 0; k < threads.size(); k++) {
                if (threads.get(k).isAlive()) { // a statement past the deadline: blocked on a lock, a slow plan
                    sessions.get(k).cancelStatement();
                }
            }
            for (Thread t : threads) {
                t.join(); // a cancelled statement ends at once; one the server does not answer, at the read timeout
            }
        } catch (InterruptedException e) {
            // the caller hands the sessions back (then closes them): their threads must be done with them first
            stop.set(true);
            long until = real.nanoTime() + STOP_WAIT.toNanos();
            for (Thread t : threads) {
                t.join(Duration.ofNanos(Math.max(1, until - real.nanoTime())));
            }
            throw e;
        }
        if (failed.get() instanceof RuntimeException e) {
            throw e;
        }
        if (failed.get() != null) {
            throw new IllegalStateException(String.valueOf(failed.get()), failed.get());
        }
        return warmUpLine(ran.sum(), real.nanoTime() - began);
    }

    /**
     * A postgres warm-up's line for the run's start: unlike the http ones it reaches the server under test (its
     * {@code xact_rollback} moves), which the line says.
     */
    static String warmUpLine(long cycles, long nanos) {
        return String.format(java.util.Locale.ROOT, "pacer: postgres warm-up %.2fs against the server, in rolled-back "
                + "transactions (%,d cycles; nothing committed)", nanos / 1e9, cycles);
    }
}
