package dev.pacer.engine.workload;

import dev.pacer.engine.time.RunClock;
import dev.pacer.engine.op.AsyncOp;
import dev.pacer.engine.op.Completion;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.op.Outcome;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A SQL workload as an op, over PostgreSQL's JDBC driver (pgjdbc): one connection per in-flight slot, the cycles run
 * on a platform thread per connection (or a virtual thread each). {@link #capacity()} is the connection count, so the run never starts more cycles than there are
 * connections; a cycle that finds none free waits for an in-flight slot before it starts, and that wait is its wait
 * time (coordinated omission stays corrected). Each cycle runs the op the mix gives it on one of those threads: its
 * statements in order as server-side prepared statements ({@code prepareThreshold=1}), each {@code {name}} bound
 * typed (a whole-number binding as bigint, a decimal as double precision, text and saved values as text the server
 * types), in a transaction when the op says so (rolled back at the first failure).
 *
 * <p>Outcomes: {@code ok}; {@code check-rows} (a step returned or changed another number of rows);
 * {@code extract-missing} (a saved column with no row); {@code sql-SQLSTATE} (the server's error, e.g.
 * {@code sql-23505}); {@code refused} (no connection could be made), {@code reset} (the connection broke),
 * {@code timeout} (no answer within the request timeout). A broken connection is dropped and made again by the next
 * cycle that takes its slot.
 *
 * <p>It is a mix ({@link OpMix}): the run records each cycle under its op's name too.
 *
 * <p>Thread-safety: {@link #start} is called by the run's workers concurrently; each cycle owns the {@link Conn} it
 * took from {@link #idle} until it puts it back (the queue's hand-off orders one cycle's use before the next's).
 */
final class PostgresOp implements AsyncOp, OpMix {

    static final Outcome CHECK_ROWS = Outcome.of("check-rows", true);
    private static final ConcurrentHashMap<String, Outcome> BY_STATE = new ConcurrentHashMap<>();

    private final SqlWorkload workload;
    private final Mix mix;
    private final Fn[] bindings;
    private final String jdbcUrl;
    private final Properties props;
    private final int connections;
    private final long warmUpCycles;
    /** Connections not used by a cycle; a cycle takes one, uses it alone and puts it back. */
    private final ArrayBlockingQueue<Conn> idle;
    /** Runs the cycles: a virtual thread each, or a platform thread per connection ({@code platformThreads}). */
    private final ExecutorService threads;
    private final List<String> opNames;

    /**
     * Connects, checks every statement on the server (it must prepare; its parameters must take the bound values;
     * a saved column must exist) and opens the connections.
     *
     * @throws IllegalArgumentException one line: a bad URL, a refused login, a statement that cannot prepare
     */
    PostgresOp(SqlWorkload workload, String url, int shards, int connections, Duration connectTimeout,
               Duration timeout, boolean platformThreads, long warmUpCycles) throws SQLException {
        this.workload = workload;
        this.warmUpCycles = warmUpCycles;
        this.threads = platformThreads
                ? Executors.newFixedThreadPool(connections, Thread.ofPlatform().daemon().name("pacer-pg-", 0).factory())
                : Executors.newVirtualThreadPerTaskExecutor();
        this.mix = Mix.of(workload.ops().stream().mapToLong(SqlWorkload.Op::weight).toArray(), shards);
        this.opNames = workload.ops().stream().map(SqlWorkload.Op::name).toList();
        this.bindings = workload.bindings().stream().map(Workload.Binding::fn).toArray(Fn[]::new);
        this.connections = connections;
        this.props = new Properties();
        this.jdbcUrl = jdbcUrl(url, props);
        props.setProperty("prepareThreshold", "1");
        props.setProperty("stringtype", "unspecified");
        props.setProperty("connectTimeout", String.valueOf(Math.max(1, connectTimeout.toSeconds())));
        props.setProperty("socketTimeout", String.valueOf(Math.max(1, timeout.toSeconds())));
        props.setProperty("ApplicationName", "pacer");
        props.setProperty("tcpKeepAlive", "true");
        this.idle = new ArrayBlockingQueue<>(connections);
        Connection first;
        try {
            first = DriverManager.getConnection(jdbcUrl, props);
        } catch (SQLException e) {
            throw new IllegalArgumentException("postgres: cannot connect to " + redacted(url) + ": " + oneLine(e));
        }
        try {
            check(first);
            idle.add(new Conn(first));
            for (int i = 1; i < connections; i++) {
                idle.add(new Conn(DriverManager.getConnection(jdbcUrl, props)));
            }
        } catch (SQLException e) {
            close();
            throw new IllegalArgumentException("postgres: cannot open " + connections + " connections to "
                    + redacted(url) + ": " + oneLine(e));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Prepares every statement on the server and checks its parameters and saved columns. */
    private void check(Connection c) {
        for (SqlWorkload.Op op : workload.ops()) {
            for (SqlWorkload.Step s : op.steps()) {
                try (PreparedStatement ps = c.prepareStatement(s.sql())) {
                    try {
                        for (int i = 0; i < s.params().size(); i++) { // the types the run binds; text the server infers
                            SqlWorkload.Slot slot = s.params().get(i);
                            Fn.Kind kind = slot.binding() >= 0 ? bindings[slot.binding()].kind()
                                    : slot.isCycle() ? Fn.Kind.LONG : null;
                            if (kind == Fn.Kind.LONG) {
                                ps.setLong(i + 1, 0);
                            } else if (kind == Fn.Kind.DOUBLE) {
                                ps.setDouble(i + 1, 0);
                            } else {
                                ps.setNull(i + 1, Types.OTHER);
                            }
                        }
                    } catch (SQLException e) { // pgjdbc found fewer parameters than the text has {name}s
                        throw new WorkloadException(workload.source(), s.line(), "the statement has fewer parameters "
                                + "than {name}s: a {name} inside a quoted string? ('text ' || {name})");
                    }
                    ParameterMetaData pm = ps.getParameterMetaData(); // a round trip: the server parses it
                    if (pm.getParameterCount() != s.params().size()) {
                        throw new WorkloadException(workload.source(), s.line(), "the statement has "
                                + pm.getParameterCount() + " parameters, " + s.params().size() + " {name}s");
                    }
                    for (int i = 0; i < s.params().size(); i++) {
                        SqlWorkload.Slot slot = s.params().get(i);
                        if (slot.binding() >= 0 && bindings[slot.binding()].kind() != Fn.Kind.LONG
                                && isWhole(pm.getParameterType(i + 1))) {
                            throw new WorkloadException(workload.source(), s.line(), "{" + slot.name() + "} is "
                                    + bindings[slot.binding()].kind().name().toLowerCase(Locale.ROOT)
                                    + " but parameter $" + (i + 1) + " is " + pm.getParameterTypeName(i + 1));
                        }
                    }
                    if (!s.saves().isEmpty()) {
                        ResultSetMetaData md = ps.getMetaData();
                        for (SqlWorkload.Save sv : s.saves()) {
                            if (md == null || column(md, sv.column()) < 0) {
                                throw new WorkloadException(workload.source(), s.line(), "save '" + sv.name()
                                        + "': the statement returns no column '" + sv.column() + "'");
                            }
                        }
                    }
                } catch (SQLException e) {
                    throw new WorkloadException(workload.source(), s.line(), "the statement does not prepare: "
                            + oneLine(e));
                }
            }
        }
    }

    private static boolean isWhole(int type) {
        return type == Types.INTEGER || type == Types.BIGINT || type == Types.SMALLINT || type == Types.NUMERIC;
    }

    private static int column(ResultSetMetaData md, String name) throws SQLException {
        for (int i = 1; i <= md.getColumnCount(); i++) {
            if (md.getColumnLabel(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public List<String> opNames() {
        return opNames;
    }

    @Override
    public int opOf(long cycle) {
        return mix.op(cycle);
    }

    @Override
    public void start(long cycle, Completion completion) {
        for (Fn f : bindings) {
            if (!f.has(cycle)) {
                completion.complete(CheckOutcomes.DATA_EXHAUSTED);
                return;
            }
        }
        int index = mix.op(cycle);
        threads.execute(() -> {
            Conn c = idle.poll();
            if (c == null) { // more cycles in flight than connections (--max-in-flight above it): wait
                try {
                    c = idle.take();
                } catch (InterruptedException e) {
                    completion.complete(Outcome.CANCELLED);
                    return;
                }
            }
            Outcome o;
            try {
                o = c.run(workload.ops().get(index), index, cycle, false);
            } catch (RuntimeException e) {
                idle.add(c);
                completion.fail(e);
                return;
            }
            idle.add(c); // before completing: the next cycle this completion lets start finds a connection
            completion.complete(o);
        });
    }

    /**
     * Runs up to {@link #warmUpCycles} cycles (for at most {@link #WARM_UP_TIME}) over every connection, each in a
     * transaction that is rolled back, so that the first measured cycles pay neither for the JIT nor for preparing
     * the statements: the server commits nothing (its {@code xact_rollback} moves, {@code xact_commit} does not,
     * and no row stays), but it does the work. {@code warm-up=0} turns it off.
     */
    @Override
    public void warmUp() throws Exception {
        if (warmUpCycles <= 0) {
            return;
        }
        List<Conn> all = new ArrayList<>();
        idle.drainTo(all);
        // the warm-up is for the JIT and the server's plans: real time, whatever the run's clock
        RunClock real = RunClock.system();
        long deadline = real.nanoTime() + WARM_UP_TIME.toNanos();
        List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        for (int k = 0; k < all.size(); k++) {
            Conn c = all.get(k);
            int first = k;
            done.add(threads.submit(() -> {
                for (long cycle = first; cycle < warmUpCycles && real.nanoTime() < deadline; cycle += all.size()) {
                    int index = mix.op(cycle);
                    Outcome o = c.run(workload.ops().get(index), index, cycle, true);
                    if (o == REFUSED || o == RESET || o == TIMEOUT) {
                        return;
                    }
                }
            }));
        }
        try {
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
        } finally {
            idle.addAll(all);
        }
    }

    static final Duration WARM_UP_TIME = Duration.ofSeconds(3);

    @Override
    public int capacity() {
        return connections;
    }

    @Override
    public void close() {
        threads.shutdownNow();
        for (Conn c; (c = idle.poll()) != null; ) {
            c.drop();
        }
    }

    /** One connection and its prepared statements; used by one cycle at a time. */
    private final class Conn {
        private Connection connection;
        private PreparedStatement[][] statements;
        private boolean autoCommit = true;

        Conn(Connection c) {
            attach(c);
        }

        private void attach(Connection c) {
            connection = c;
            autoCommit = true;
            statements = new PreparedStatement[workload.ops().size()][];
            for (int i = 0; i < statements.length; i++) {
                statements[i] = new PreparedStatement[workload.ops().get(i).steps().size()];
            }
        }

        /** Runs one cycle of an op; its outcome (null: ok). {@code warm}: in a transaction rolled back at the end. */
        Outcome run(SqlWorkload.Op op, int index, long cycle, boolean warm) {
            if (connection == null) {
                try {
                    attach(DriverManager.getConnection(jdbcUrl, props));
                } catch (SQLException e) {
                    return outcomeOf(e, true);
                }
            }
            Object[] saved = op.savedNames().isEmpty() ? null : new Object[op.savedNames().size()];
            int step = 0;
            boolean transaction = op.transaction() || warm;
            try {
                if (transaction == autoCommit) {
                    connection.setAutoCommit(!transaction);
                    autoCommit = !transaction;
                }
                for (; step < op.steps().size(); step++) {
                    Outcome o = step(op.steps().get(step), statement(index, step, op), cycle, saved);
                    if (o != null) {
                        if (transaction) {
                            connection.rollback();
                        }
                        return o;
                    }
                }
                if (warm) {
                    connection.rollback();
                } else if (transaction) {
                    connection.commit();
                }
                return null;
            } catch (SQLException e) {
                Outcome o = outcomeOf(e, false);
                if (o == REFUSED || o == RESET || o == TIMEOUT) {
                    drop();
                } else if (transaction) {
                    try {
                        connection.rollback();
                    } catch (SQLException again) {
                        drop();
                    }
                }
                return o;
            }
        }

        private PreparedStatement statement(int op, int step, SqlWorkload.Op o) throws SQLException {
            PreparedStatement ps = statements[op][step];
            if (ps == null) {
                ps = connection.prepareStatement(o.steps().get(step).sql());
                statements[op][step] = ps;
            }
            return ps;
        }

        private Outcome step(SqlWorkload.Step s, PreparedStatement ps, long cycle, Object[] saved) throws SQLException {
            List<SqlWorkload.Slot> params = s.params();
            for (int i = 0; i < params.size(); i++) {
                SqlWorkload.Slot p = params.get(i);
                if (p.binding() >= 0) {
                    Fn f = bindings[p.binding()];
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
                return CHECK_ROWS;
            }
            if (rows == 0 && !s.saves().isEmpty()) {
                return CheckOutcomes.EXTRACT_MISSING;
            }
            return null;
        }

        void drop() {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // it is being dropped because it broke
                }
                connection = null;
            }
        }
    }

    private static final Outcome REFUSED = CheckOutcomes.REFUSED;
    private static final Outcome RESET = CheckOutcomes.RESET;
    private static final Outcome TIMEOUT = CheckOutcomes.TIMEOUT;

    /** An error's outcome: the transport's (refused, reset, timeout) or the server's SQLSTATE. */
    static Outcome outcomeOf(SQLException e, boolean connecting) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return TIMEOUT;
            }
            if (t instanceof ConnectException) {
                return REFUSED;
            }
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
            // 08: connection exception; 57P01-03: the server is shutting down, crashed, or not yet accepting
            return connecting || state.equals("08001") || state.equals("57P03") ? REFUSED : RESET;
        }
        if (state.equals("57014")) {
            return TIMEOUT; // query_canceled: a statement timeout
        }
        if (state.isEmpty()) {
            return connecting ? REFUSED : RESET;
        }
        return BY_STATE.computeIfAbsent(state, s -> Outcome.of("sql-" + s, true));
    }

    /**
     * A {@code postgresql://user:password@host:port/db?param=value} URL as pgjdbc's {@code jdbc:postgresql:} URL;
     * the user and password go into {@code props}. {@code jdbc:postgresql:} URLs are taken as they are.
     */
    static String jdbcUrl(String url, Properties props) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("postgres: give the server's URL: --url postgresql://user:password@host:port/db");
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return url;
        }
        URI u;
        try {
            u = new URI(url.strip());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("postgres: URL '" + redacted(url) + "' is not a URL: " + e.getReason());
        }
        if (!"postgresql".equals(u.getScheme()) && !"postgres".equals(u.getScheme()) || u.getHost() == null) {
            throw new IllegalArgumentException("postgres: URL '" + redacted(url)
                    + "' is not postgresql://user:password@host:port/db");
        }
        if (u.getRawUserInfo() != null) {
            String[] up = u.getRawUserInfo().split(":", 2);
            props.setProperty("user", URLDecoder.decode(up[0], StandardCharsets.UTF_8));
            if (up.length > 1) {
                props.setProperty("password", URLDecoder.decode(up[1], StandardCharsets.UTF_8));
            }
        } else if (System.getenv("PGUSER") != null) {
            props.setProperty("user", System.getenv("PGUSER"));
        }
        if (!props.containsKey("password") && System.getenv("PGPASSWORD") != null) {
            props.setProperty("password", System.getenv("PGPASSWORD"));
        }
        String host = u.getHost().contains(":") && !u.getHost().startsWith("[") ? "[" + u.getHost() + "]" : u.getHost();
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        return "jdbc:postgresql://" + host + (u.getPort() < 0 ? "" : ":" + u.getPort()) + path
                + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }

    /** The URL without its password, for messages. */
    static String redacted(String url) {
        return url == null ? "" : url.replaceFirst("(//[^:/@]*:)[^@/]*@", "$1***@");
    }

    private static String oneLine(SQLException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        String first = nl < 0 ? m : m.substring(0, nl);
        return first.strip() + (e.getSQLState() == null ? "" : " (SQLSTATE " + e.getSQLState() + ")");
    }

    /** The statements' texts, for {@code pacer show}-like listings and tests. */
    List<String> statements() {
        List<String> out = new ArrayList<>();
        workload.ops().forEach(op -> op.steps().forEach(s -> out.add(s.sql())));
        return out;
    }
}
