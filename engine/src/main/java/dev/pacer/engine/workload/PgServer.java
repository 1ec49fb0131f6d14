package dev.pacer.engine.workload;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * The server a postgres op runs against: its URL as pgjdbc takes it, the login and the timeouts; it opens pgjdbc
 * connections and checks a workload's statements on the server before a run. Immutable after construction,
 * thread-safe ({@link #connect} may be called from any thread).
 */
final class PgServer {

    /** The URL as given (with its password: only {@link #redacted} goes into messages). */
    final String url;
    final String jdbcUrl;
    /** pgjdbc's connection properties: the login, the timeouts; never changed after the constructor. */
    private final Properties props = new Properties();

    /**
     * @param url            {@code postgresql://user:password@host:port/db?param=value}, or a
     *                       {@code jdbc:postgresql:} URL
     * @param connectTimeout how long a connection may take to open, its login included
     * @param timeout        the socket's read timeout: how long a statement may go unanswered
     * @throws IllegalArgumentException one line naming a URL that is not PostgreSQL's
     */
    PgServer(String url, Duration connectTimeout, Duration timeout) {
        this.url = url;
        this.jdbcUrl = jdbcUrl(url, props);
        props.setProperty("prepareThreshold", "1");
        props.setProperty("stringtype", "unspecified");
        props.setProperty("connectTimeout", String.valueOf(Math.max(1, connectTimeout.toSeconds())));
        // the whole login too (TLS, startup, authentication): a server that takes the connection and never answers
        // its startup waited out the socket's read timeout, the request timeout, once per SSL mode pgjdbc tried
        props.setProperty("loginTimeout", String.valueOf(Math.max(1, connectTimeout.toSeconds())));
        props.setProperty("socketTimeout", String.valueOf(Math.max(1, timeout.toSeconds())));
        props.setProperty("ApplicationName", "pacer");
        // the application name goes in the login packet (no SET after it: a round trip and a transaction less)
        props.setProperty("assumeMinServerVersion", "9.0");
        props.setProperty("tcpKeepAlive", "true");
    }

    /** A new pgjdbc connection. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, props);
    }

    /**
     * The first connection of a run, whose failure is the user's to fix.
     *
     * @throws IllegalArgumentException one line: the server refused, the login failed, no such database
     */
    Connection connectFirst() {
        try {
            return connect();
        } catch (SQLException e) {
            throw new IllegalArgumentException("postgres: cannot connect to " + redacted(url) + ": " + oneLine(e));
        }
    }

    /**
     * The host, port, database, user and password the URL names (pgjdbc's reading of it, defaults included), for a
     * client other than pgjdbc; the URL's other parameters are pgjdbc's and are refused here, in one line.
     */
    Properties parsed(String client) {
        Properties p = org.postgresql.Driver.parseURL(jdbcUrl, props);
        if (p == null) {
            throw new IllegalArgumentException("postgres: URL '" + redacted(url) + "' is not one pgjdbc reads");
        }
        for (String key : p.stringPropertyNames()) {
            if (!props.containsKey(key) && !key.startsWith("PG")) {
                throw new IllegalArgumentException("postgres: " + client + " takes no URL parameter '" + key
                        + "' (it reads the host, port, database, user and password)");
            }
        }
        if (p.getProperty("PGHOST", "").contains(",")) {
            throw new IllegalArgumentException("postgres: " + client + " takes one host, not '"
                    + p.getProperty("PGHOST") + "'");
        }
        return p;
    }

    /**
     * Checks every statement of a workload on the server: it must prepare, its parameters must take the values the
     * run binds, and a saved column must exist. The checks run in a transaction that is rolled back: they commit
     * nothing (a test may judge a run by the server's commit count).
     *
     * @return each op's statements (by op, then step) in PostgreSQL's {@code $1} notation for vertx-pg-client, which
     *         binds a value only as the type the server gives its parameter: a text binding whose parameter the server
     *         types otherwise (a {@code date}, {@code inet}, {@code bool}...) is sent as text and cast there
     *         ({@code $1::text::date}), as pgjdbc sends it untyped for the server to read
     * @throws WorkloadException naming the statement's line
     */
    static String[][] check(Connection c, PgWorkload w) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (java.sql.Statement begin = c.createStatement()) {
                begin.execute("SELECT 1"); // opens the transaction: pgjdbc sends BEGIN with a statement, not a describe
            }
            String[][] numbered = new String[w.ops.size()][];
            for (int i = 0; i < w.ops.size(); i++) {
                List<SqlWorkload.Step> steps = w.ops.get(i).steps();
                numbered[i] = new String[steps.size()];
                for (int k = 0; k < steps.size(); k++) {
                    numbered[i][k] = check(c, w, steps.get(k));
                }
            }
            return numbered;
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    /** A {@code $1}-style parameter, once quoted strings and comments are taken out. */
    private static final java.util.regex.Pattern DOLLAR_PARAMETER =
            java.util.regex.Pattern.compile("(?<![\\w$])\\$\\d");
    /** What {@link #DOLLAR_PARAMETER} looks past: quoted strings and identifiers, dollar quotes, comments. */
    static final java.util.regex.Pattern QUOTED = java.util.regex.Pattern.compile(
            "'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|\\$(\\w*)\\$.*?\\$\\1\\$|--[^\\n]*|/\\*.*?\\*/",
            java.util.regex.Pattern.DOTALL);

    /** The types vertx-pg-client takes a Java string for; a text binding for another is cast by the server. */
    private static final Set<String> TEXT_TYPES = Set.of("text", "varchar", "bpchar", "name", "unknown");
    /** A parameter of {@link SqlWorkload.Step#numbered()}: {@code $n}, not followed by a digit. */
    private static final java.util.regex.Pattern NUMBERED = java.util.regex.Pattern.compile("\\$(\\d+)(?!\\d)");

    /** Checks one statement; returns its text for vertx-pg-client (see {@link #check(Connection, PgWorkload)}). */
    private static String check(Connection c, PgWorkload w, SqlWorkload.Step s) {
        String source = w.workload.source();
        if (DOLLAR_PARAMETER.matcher(QUOTED.matcher(s.sql()).replaceAll(" ")).find()) {
            // pgjdbc numbers pacer's parameters $1, $2, ...: the user's own $1 would take a {name}'s value, or break
            throw new WorkloadException(source, s.line(), "a parameter is written {name} (a binding, a saved value "
                    + "or {cycle}), not $1");
        }
        try {
            if (org.postgresql.core.Parser.parseJdbcSql(s.sql(), true, true, true, false, false).size() > 1) {
                throw new WorkloadException(source, s.line(), "one statement per sql: (several: steps: or "
                        + "transaction:, a sql: each)");
            }
        } catch (SQLException e) {
            throw new WorkloadException(source, s.line(), "the statement does not parse: " + oneLine(e));
        }
        try (PreparedStatement ps = c.prepareStatement(s.sql())) {
            try {
                for (int i = 0; i < s.params().size(); i++) { // the types the run binds; text the server infers
                    SqlWorkload.Slot slot = s.params().get(i);
                    Fn.Kind kind = slot.binding() >= 0 ? w.bindings[slot.binding()].kind()
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
                throw new WorkloadException(source, s.line(), "the statement has fewer parameters "
                        + "than {name}s: a {name} inside a quoted string? ('text ' || {name})");
            }
            ParameterMetaData pm = ps.getParameterMetaData(); // a round trip: the server parses it
            if (pm.getParameterCount() != s.params().size()) {
                throw new WorkloadException(source, s.line(), "the statement has "
                        + pm.getParameterCount() + " parameters, " + s.params().size() + " {name}s");
            }
            for (int i = 0; i < s.params().size(); i++) {
                SqlWorkload.Slot slot = s.params().get(i);
                if (slot.binding() >= 0 && w.bindings[slot.binding()].kind() != Fn.Kind.LONG
                        && isWhole(pm.getParameterType(i + 1))) {
                    throw new WorkloadException(source, s.line(), "{" + slot.name() + "} is "
                            + w.bindings[slot.binding()].kind().name().toLowerCase(Locale.ROOT)
                            + " but parameter $" + (i + 1) + " is " + pm.getParameterTypeName(i + 1));
                }
            }
            if (!s.saves().isEmpty()) {
                ResultSetMetaData md = ps.getMetaData();
                for (SqlWorkload.Save sv : s.saves()) {
                    if (md == null || column(md, sv.column()) < 0) {
                        throw new WorkloadException(source, s.line(), "save '" + sv.name()
                                + "': the statement returns no column '" + sv.column() + "'");
                    }
                }
            }
            String[] casts = new String[s.params().size()];
            boolean any = false;
            for (int i = 0; i < casts.length; i++) {
                SqlWorkload.Slot slot = s.params().get(i);
                String type = pm.getParameterTypeName(i + 1);
                if (slot.binding() >= 0 && w.bindings[slot.binding()].kind() == Fn.Kind.TEXT && type != null
                        && !TEXT_TYPES.contains(type)) {
                    casts[i] = type;
                    any = true;
                }
            }
            return any ? cast(s.numbered(), casts) : s.numbered();
        } catch (SQLException e) {
            throw new WorkloadException(source, s.line(), "the statement does not prepare: " + oneLine(e));
        } catch (WorkloadException e) {
            throw e;
        } catch (RuntimeException e) { // the driver's own failure on text it could not make sense of
            throw new WorkloadException(source, s.line(), "the statement does not prepare: " + e);
        }
    }

    /**
     * {@code numbered} with each {@code $n} whose {@code casts[n - 1]} is a type name sent as text and cast to it. Its
     * {@code $n}s outside quoted text and comments are pacer's own: the user's are refused.
     */
    static String cast(String numbered, String[] casts) {
        StringBuilder out = new StringBuilder(numbered.length() + 32);
        java.util.regex.Matcher quoted = QUOTED.matcher(numbered);
        int last = 0;
        while (true) {
            boolean more = quoted.find();
            int end = more ? quoted.start() : numbered.length();
            java.util.regex.Matcher m = NUMBERED.matcher(numbered).region(last, end);
            int from = last;
            while (m.find()) {
                String type = casts[Integer.parseInt(m.group(1)) - 1];
                out.append(numbered, from, m.end());
                if (type != null) {
                    out.append("::text::").append(type);
                }
                from = m.end();
            }
            out.append(numbered, from, more ? quoted.end() : end);
            if (!more) {
                return out.toString();
            }
            last = quoted.end();
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

    /**
     * A {@code postgresql://user:password@host:port/db?param=value} URL as pgjdbc's {@code jdbc:postgresql:} URL;
     * the user and password go into {@code props}. {@code jdbc:postgresql:} URLs are taken as they are.
     */
    static String jdbcUrl(String url, Properties props) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("postgres: give the server's URL: --url "
                    + "postgresql://user:password@host:port/db");
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
        if (u.getPort() > 65535) { // pgjdbc logs a warning of its own about it, then fails
            throw new IllegalArgumentException("postgres: URL '" + redacted(url) + "': port " + u.getPort()
                    + " is over 65535");
        }
        String host = u.getHost().contains(":") && !u.getHost().startsWith("[") ? "[" + u.getHost() + "]" : u.getHost();
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        return "jdbc:postgresql://" + host + (u.getPort() < 0 ? "" : ":" + u.getPort()) + path
                + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }

    /** The URL without its password (in its user info or a {@code password=} parameter), for messages. */
    static String redacted(String url) {
        return url == null ? "" : scrubbed(url.replaceFirst("(//[^:/@]*:)[^@/]*@", "$1***@"));
    }

    /** {@code text} with the value of any {@code password=} parameter hidden (a driver's message may quote it). */
    static String scrubbed(String text) {
        return text.replaceAll("(?i)(password=)[^&\\s]*", "$1***");
    }

    /** An error's first line, with its SQLSTATE; a password it quotes is hidden. */
    static String oneLine(SQLException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        String first = nl < 0 ? m : m.substring(0, nl);
        return scrubbed(first.strip()) + (e.getSQLState() == null ? "" : " (SQLSTATE " + e.getSQLState() + ")");
    }
}
