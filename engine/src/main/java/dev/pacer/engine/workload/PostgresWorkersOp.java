package dev.pacer.engine.workload;

import dev.pacer.engine.op.WarmUpDeadline;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A SQL workload over pgjdbc run by the run's own workers ({@code jdbc-threads=workers}, the default): a synchronous op
 * whose workers each own one connection for the run, taken on their first cycle, and run their cycles' statements
 * on it themselves ({@link JdbcSession}). A cycle costs pgjdbc's work and the socket's system calls, with no queue
 * and no thread woken per cycle, as a pgbench client's does. The op asks for one worker per connection
 * ({@link #threads()}): threads = connections, so at most that many cycles are in flight, and a cycle whose
 * scheduled start finds every worker busy starts late: its wait, so coordinated omission stays corrected as for any
 * synchronous op.
 *
 * <p>A worker added while the run goes on (threads raised) takes a connection left by a worker that has ended, or
 * opens its own on its first cycle (counted {@code refused} while it cannot); every connection is closed with the
 * op.
 *
 * <p>It is a mix ({@link OpMix}): the run records each cycle under its op's name too.
 *
 * <h2>Shared fields</h2>
 * {@code unclaimed}: sessions opened by the constructor and not yet owned; the warm-up takes them all and puts them
 * back before the schedule starts; a worker's first cycle polls one (the queue orders the hand-off). {@code all}:
 * every session made, appended by the constructor and by a worker that opens its own (copy-on-write: a worker scans
 * it without a lock), read by {@link #close} once the workers have stopped. {@link Owned#owner}: the worker that
 * owns a session, set by the claiming worker (a CAS when it takes over from a worker that has ended, whose
 * {@link Thread#isAlive()} being false orders that worker's last use before the new one's). {@code mine}: each
 * worker's own session, read and written by that worker only.
 */
final class PostgresWorkersOp implements Op, OpMix {

    private final PgWorkload w;
    private final PgServer server;
    private final int connections;
    private final long warmUpCycles;
    private final ConcurrentLinkedQueue<Owned> unclaimed = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<Owned> all = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Owned> mine = new ThreadLocal<>();

    /** A session and the worker that owns it (null while unclaimed). */
    private static final class Owned {
        final JdbcSession session;
        final AtomicReference<Thread> owner = new AtomicReference<>();

        Owned(JdbcSession session) {
            this.session = session;
        }
    }

    /**
     * Connects, checks every statement on the server ({@link PgServer#check}) and opens the connections.
     *
     * @throws IllegalArgumentException one line: a refused login, a connection that cannot be opened
     * @throws WorkloadException        a statement that does not prepare, a bind or a saved column the server refuses
     */
    PostgresWorkersOp(PgWorkload w, PgServer server, int connections, long warmUpCycles) throws SQLException {
        this.w = w;
        this.server = server;
        this.connections = connections;
        this.warmUpCycles = warmUpCycles;
        Connection first = server.connectFirst();
        try {
            PgServer.check(first, w);
            add(new JdbcSession(w, server, first));
            for (int i = 1; i < connections; i++) {
                add(new JdbcSession(w, server, server.connect()));
            }
        } catch (SQLException e) {
            close();
            PostgresHandOffOp.quietly(first);
            throw new IllegalArgumentException("postgres: cannot open " + connections + " connections to "
                    + PgServer.redacted(server.url) + ": " + PgServer.oneLine(e));
        } catch (RuntimeException e) {
            close();
            PostgresHandOffOp.quietly(first);
            throw e;
        }
    }

    private void add(JdbcSession s) {
        Owned o = new Owned(s);
        all.add(o);
        unclaimed.add(o);
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
    public Outcome run(long cycle) {
        return run(cycle, null);
    }

    @Override
    public Outcome run(long cycle, Runnable stepEnded) {
        int index = w.opToSend(cycle);
        if (index < 0) {
            return CheckOutcomes.DATA_EXHAUSTED;
        }
        Owned o = mine.get();
        if (o == null) {
            o = claim();
        }
        return o.session.run(index, cycle, false, stepEnded);
    }

    /** The calling worker's session for the rest of the run: an unclaimed one, one a worker left, or a new one. */
    private Owned claim() {
        Thread me = Thread.currentThread();
        Owned o = unclaimed.poll();
        if (o == null) {
            for (Owned left : all) {
                Thread t = left.owner.get();
                if (t != null && !t.isAlive() && left.owner.compareAndSet(t, me)) {
                    o = left;
                    break;
                }
            }
        }
        if (o == null) {
            o = new Owned(new JdbcSession(w, server, null)); // connects on its first cycle
            all.add(o);
        }
        o.owner.set(me);
        mine.set(o);
        return o;
    }

    /** One worker per connection, when the run sets no thread count. */
    @Override
    public int threads() {
        return connections;
    }

    /** What the last warm-up did, for the run's start line; null before one ran. */
    private volatile String warmUpLine;

    @Override
    public String warmUpLine() {
        return warmUpLine;
    }

    /** The warm-up over every connection, in rolled-back transactions ({@link JdbcSession#warmUp}); warm-up=0: none. */
    @Override
    public void warmUp() throws Exception {
        warmUp(null);
    }

    /** As {@link #warmUp()}, within {@code atMost} when given: each session's cycles end by then. */
    @Override
    public void warmUp(java.time.Duration atMost) throws Exception {
        if (warmUpCycles <= 0) {
            return;
        }
        List<Owned> taken = new ArrayList<>();
        for (Owned o; (o = unclaimed.poll()) != null; ) {
            taken.add(o);
        }
        try {
            warmUpLine = JdbcSession.warmUp(w, taken.stream().map(o -> o.session).toList(), warmUpCycles,
                    WarmUpDeadline.in(atMost));
        } finally {
            unclaimed.addAll(taken);
        }
    }

    @Override
    public void close() {
        for (Owned o : all) {
            o.session.drop();
        }
    }
}
