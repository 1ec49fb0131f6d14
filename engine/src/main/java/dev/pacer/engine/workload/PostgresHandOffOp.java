package dev.pacer.engine.workload;

import dev.pacer.engine.op.WarmUpDeadline;
import dev.pacer.engine.api.AsyncOp;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.Outcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A SQL workload over pgjdbc with a hand-off per cycle ({@code jdbc-threads=platform} or
 * {@code jdbc-threads=virtual}): the run's worker starts each cycle by handing it to an executor (a platform thread
 * per connection, or a virtual thread per cycle), which takes an idle connection, runs the op's statements
 * ({@link JdbcSession}), puts the connection back and completes. {@link #capacity()} is the connection count, so the
 * run never starts more cycles than there are connections; a cycle that finds none free waits for an in-flight slot
 * before it starts, and that wait is its wait time (coordinated omission stays corrected). The default mode runs the
 * cycles on the workers themselves, with no hand-off ({@link PostgresWorkersOp}).
 *
 * <p>It is a mix ({@link OpMix}): the run records each cycle under its op's name too.
 *
 * <p>Thread-safety: {@link #start} is called by the run's workers concurrently; each cycle owns the session it
 * took from {@link #idle} until it puts it back (the queue's hand-off orders one cycle's use before the next's).
 */
final class PostgresHandOffOp implements AsyncOp, OpMix {

    private final PgWorkload w;
    private final int connections;
    private final long warmUpCycles;
    /** Sessions not used by a cycle; a cycle takes one, uses it alone and puts it back. */
    private final ArrayBlockingQueue<JdbcSession> idle;
    /** Runs the cycles: a virtual thread each, or a platform thread per connection ({@code platformThreads}). */
    private final ExecutorService threads;
    /**
     * Set (volatile) by {@link #close}: a cycle that ends after it drops its session rather than leave it in
     * {@link #idle} (a platform thread's cycle is not stopped by the close's interrupt: pgjdbc's read ignores it).
     */
    private volatile boolean closed;

    /**
     * Connects, checks every statement on the server ({@link PgServer#check}) and opens the connections.
     *
     * @throws IllegalArgumentException one line: a refused login, a connection that cannot be opened
     * @throws WorkloadException        a statement that does not prepare, a bind or a saved column the server refuses
     */
    PostgresHandOffOp(PgWorkload w, PgServer server, int connections, boolean platformThreads, long warmUpCycles)
            throws SQLException {
        this.w = w;
        this.connections = connections;
        this.warmUpCycles = warmUpCycles;
        this.idle = new ArrayBlockingQueue<>(connections);
        Connection first = server.connectFirst();
        this.threads = platformThreads
                ? Executors.newFixedThreadPool(connections, Thread.ofPlatform().daemon().name("pacer-pg-", 0).factory())
                : Executors.newVirtualThreadPerTaskExecutor();
        try {
            PgServer.check(first, w);
            idle.add(new JdbcSession(w, server, first));
            for (int i = 1; i < connections; i++) {
                idle.add(new JdbcSession(w, server, server.connect()));
            }
        } catch (SQLException e) {
            close();
            quietly(first);
            throw new IllegalArgumentException("postgres: cannot open " + connections + " connections to "
                    + PgServer.redacted(server.url) + ": " + PgServer.oneLine(e));
        } catch (RuntimeException e) {
            close();
            quietly(first);
            throw e;
        }
    }

    /** Closes a connection that a failed construction leaves behind (it may be closed already). */
    static void quietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // the construction's own failure is the one reported
        }
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
        try {
            threads.execute(new Cycle(index, cycle, completion));
        } catch (java.util.concurrent.RejectedExecutionException e) { // closed
            completion.complete(Outcome.CANCELLED);
        }
    }

    /** One cycle on a thread of {@link #threads}; a task {@link #close} drops before it ran completes cancelled. */
    private final class Cycle implements Runnable {
        final int index;
        final long cycle;
        final Completion completion;

        Cycle(int index, long cycle, Completion completion) {
            this.index = index;
            this.cycle = cycle;
            this.completion = completion;
        }

        @Override
        public void run() {
            JdbcSession s = idle.poll();
            if (s == null) { // more cycles in flight than connections (--max-in-flight above it): wait
                try {
                    s = idle.take();
                } catch (InterruptedException e) {
                    completion.complete(Outcome.CANCELLED);
                    return;
                }
            }
            Outcome o;
            try {
                o = s.run(index, cycle, false, completion::stepEnded);
            } catch (RuntimeException | Error e) {
                giveBack(s);
                completion.fail(e);
                return;
            }
            giveBack(s); // before completing: the next cycle this completion lets start finds a connection
            completion.complete(o);
        }
    }

    /** Puts a session back; after {@link #close} (seen here or by the close's own drain) it is dropped. */
    private void giveBack(JdbcSession s) {
        idle.add(s);
        if (closed) {
            dropIdle();
        }
    }

    private void dropIdle() {
        for (JdbcSession s; (s = idle.poll()) != null; ) {
            s.drop();
        }
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
        List<JdbcSession> all = new ArrayList<>();
        idle.drainTo(all);
        try {
            warmUpLine = JdbcSession.warmUp(w, all, warmUpCycles, WarmUpDeadline.in(atMost));
        } finally {
            idle.addAll(all);
        }
    }

    @Override
    public int capacity() {
        return connections;
    }

    @Override
    public void close() {
        closed = true;
        for (Runnable dropped : threads.shutdownNow()) {
            if (dropped instanceof Cycle c) {
                c.completion.complete(Outcome.CANCELLED);
            }
        }
        dropIdle();
    }
}
