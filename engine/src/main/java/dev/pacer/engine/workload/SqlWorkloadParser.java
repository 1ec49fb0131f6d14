package dev.pacer.engine.workload;

import dev.pacer.engine.op.OpMix;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a SQL workload file ({@code driver: postgres}) and compiles it; every problem is one
 * {@code file:line: what is wrong} ({@link WorkloadException}). Bindings use the HTTP workloads' grammar
 * ({@link BindingParser}); a statement's {@code {name}} becomes a {@code ?} bound to the value, typed (never spliced
 * into the text). The server-side checks (tables, columns, types) are the op's, when it connects.
 */
public final class SqlWorkloadParser {

    private static final Set<String> TOP_KEYS = Set.of("name", "description", "driver", "url", "seed", "vars",
            "bindings", "ops");
    private static final Set<String> OP_KEYS = Set.of("weight", "sql", "check", "save", "steps", "transaction");
    private static final Set<String> STEP_KEYS = Set.of("sql", "check", "save");
    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_-]*)}");
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final Pattern PARAM = Pattern.compile("\\{\\{|\\{([A-Za-z_][A-Za-z0-9_-]*)}");

    private final String source;
    private final Path dir;
    /** The compiled bindings, by index; set by {@link #read} before the ops are read (their parameters' types). */
    private List<Workload.Binding> compiled = List.of();

    private SqlWorkloadParser(String source, Path dir) {
        this.source = source;
        this.dir = dir;
    }

    /** True when the file is a SQL workload: a top-level {@code driver: postgres}. */
    public static boolean isSql(Path file) {
        String driver = WorkloadText.topLevel(file).get("driver");
        return "postgres".equals(driver) || "postgresql".equals(driver);
    }

    /** Reads and compiles a SQL workload file. */
    static SqlWorkload parse(Path file, Map<String, String> vars) throws IOException {
        String text = WorkloadText.read(file);
        return parse(text, file.toString(), file.toAbsolutePath().getParent(), vars);
    }

    /** Compiles SQL workload text; {@code ${name}} vars are put in first (overridden by {@code vars}). */
    static SqlWorkload parse(String text, String source, Path dir, Map<String, String> vars) {
        return new SqlWorkloadParser(source, dir).read(text, vars == null ? Map.of() : vars);
    }

    private SqlWorkload read(String text, Map<String, String> overrides) {
        Node root = compose(text);
        if (root == null) {
            throw new WorkloadException(source, 1, "the file is empty; a SQL workload needs 'ops'");
        }
        Map<String, NodeTuple> top = mapping(root, "a workload", TOP_KEYS);
        Map<String, String> vars = new HashMap<>();
        if (top.containsKey("vars")) {
            for (NodeTuple t : mapping(top.get("vars").getValueNode(), "vars", null).values()) {
                vars.put(scalar(t.getKeyNode(), "a var's name"), scalar(t.getValueNode(), "a var"));
            }
        }
        for (String o : overrides.keySet()) {
            if (!vars.containsKey(o)) {
                // the mistake is the caller's (a --var), not the file's: no file:line
                throw new IllegalArgumentException("cannot set var '" + o + "': " + source + " has none of that name "
                        + "(its vars: " + String.join(", ", new TreeSet<>(vars.keySet())) + ")");
            }
        }
        vars.putAll(overrides);
        if (!vars.isEmpty() || text.contains("${")) { // put the vars in and read the text again
            StringBuilder out = new StringBuilder();
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                Matcher m = VAR.matcher(lines[i]);
                StringBuilder line = new StringBuilder();
                while (m.find()) {
                    String v = vars.get(m.group(1));
                    if (v == null) {
                        throw new WorkloadException(source, i + 1, "no var named '" + m.group(1) + "'");
                    }
                    m.appendReplacement(line, Matcher.quoteReplacement(v));
                }
                m.appendTail(line);
                out.append(line).append(i + 1 < lines.length ? "\n" : "");
            }
            root = compose(out.toString());
            top = mapping(root, "a workload", TOP_KEYS);
        }
        String name = top.containsKey("name") ? scalar(top.get("name").getValueNode(), "name")
                : Path.of(source).getFileName().toString().replaceFirst("\\.ya?ml$", "");
        String url = top.containsKey("url") ? scalar(top.get("url").getValueNode(), "url") : null;
        long seed = 0;
        if (top.containsKey("seed")) {
            Node s = top.get("seed").getValueNode();
            try {
                seed = Long.parseLong(scalar(s, "seed"));
            } catch (NumberFormatException e) {
                throw new WorkloadException(source, line(s), "seed '" + scalar(s, "seed") + "' is not a whole number");
            }
        }
        List<Workload.Binding> bindings = new ArrayList<>();
        Map<String, Integer> bindingIndex = new HashMap<>();
        if (top.containsKey("bindings")) {
            BindingParser bp = new BindingParser(dir == null ? Path.of(".") : dir, new HashMap<>());
            for (NodeTuple t : mapping(top.get("bindings").getValueNode(), "bindings", null).values()) {
                String b = scalar(t.getKeyNode(), "a binding's name");
                if (!IDENT.matcher(b).matches() || b.equals("cycle")) {
                    throw new WorkloadException(source, line(t.getKeyNode()), "binding name '" + b
                            + "' is not a name (letters, digits, _ and -; not 'cycle')");
                }
                String fnText = scalar(t.getValueNode(), "binding '" + b + "'");
                try {
                    bindingIndex.put(b, bindings.size());
                    bindings.add(new Workload.Binding(b, fnText, bp.compile(fnText, CycleRandom.salt(seed, b))));
                } catch (IllegalArgumentException e) {
                    throw new WorkloadException(source, line(t.getValueNode()), "binding '" + b + "': "
                            + e.getMessage());
                }
            }
        }
        if (!top.containsKey("ops")) {
            throw new WorkloadException(source, line(root), "a SQL workload needs 'ops', e.g. ops: {one: {weight: 1, "
                    + "sql: SELECT 1}}");
        }
        List<SqlWorkload.Op> ops = new ArrayList<>();
        Map<String, NodeTuple> opNodes = mapping(top.get("ops").getValueNode(), "ops", null);
        if (opNodes.isEmpty() || opNodes.size() > OpMix.MAX_OPS) {
            throw new WorkloadException(source, line(top.get("ops").getValueNode()), "ops: 1 to " + OpMix.MAX_OPS
                    + " ops");
        }
        compiled = bindings;
        for (NodeTuple t : opNodes.values()) {
            String opName = scalar(t.getKeyNode(), "an op's name");
            if (!OpMix.NAME.matcher(opName).matches()) {
                throw new WorkloadException(source, line(t.getKeyNode()), "op name '" + opName
                        + "' must be 1 to 64 letters, digits, _ . -");
            }
            ops.add(op(opName, t.getValueNode(), bindingIndex));
        }
        return new SqlWorkload(name, source, url, List.copyOf(bindings), List.copyOf(ops));
    }

    private SqlWorkload.Op op(String name, Node node, Map<String, Integer> bindings) {
        Map<String, NodeTuple> m = mapping(node, "op '" + name + "'", OP_KEYS);
        long weight = 1;
        if (m.containsKey("weight")) {
            Node w = m.get("weight").getValueNode();
            try {
                weight = Long.parseLong(scalar(w, "weight"));
            } catch (NumberFormatException e) {
                weight = 0;
            }
            if (weight < 1) {
                throw new WorkloadException(source, line(w), "op '" + name + "': weight '" + scalar(w, "weight")
                        + "' is not a whole number >= 1");
            }
        }
        int forms = (m.containsKey("sql") ? 1 : 0) + (m.containsKey("steps") ? 1 : 0) + (m.containsKey("transaction")
                ? 1 : 0);
        if (forms != 1) {
            throw new WorkloadException(source, line(node), "op '" + name + "' needs one of 'sql', 'steps' or "
                    + "'transaction'");
        }
        List<String> saved = new ArrayList<>();
        List<SqlWorkload.Step> steps = new ArrayList<>();
        boolean transaction = m.containsKey("transaction");
        if (m.containsKey("sql")) {
            steps.add(step(node, m, bindings, saved));
        } else {
            Node list = (transaction ? m.get("transaction") : m.get("steps")).getValueNode();
            if (!(list instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
                throw new WorkloadException(source, line(list), "op '" + name + "': expected a list of steps (- sql: "
                        + "...)");
            }
            for (Node s : seq.getValue()) {
                steps.add(step(s, mapping(s, "a step", STEP_KEYS), bindings, saved));
            }
        }
        return new SqlWorkload.Op(name, weight, transaction, List.copyOf(steps), List.copyOf(saved));
    }

    private SqlWorkload.Step step(Node node, Map<String, NodeTuple> m, Map<String, Integer> bindings,
            List<String> saved) {
        if (!m.containsKey("sql")) {
            throw new WorkloadException(source, line(node), "a step needs 'sql'");
        }
        Node sqlNode = m.get("sql").getValueNode();
        String text = scalar(sqlNode, "sql").strip();
        if (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1);
        }
        StringBuilder sql = new StringBuilder(); // pgjdbc's: ? for each parameter, ?? for an operator's ?
        boolean[] quoted = quoted(text);
        StringBuilder numbered = new StringBuilder(); // $1, $2, ...: the server's own notation, typed as pgjdbc binds
        List<SqlWorkload.Slot> params = new ArrayList<>();
        Matcher pm = PARAM.matcher(text);
        int last = 0;
        while (pm.find()) {
            numbered.append(text, last, pm.start());
            jdbcText(sql, text, last, pm.start(), quoted);
            last = pm.end();
            if (pm.group(1) == null) {
                sql.append('{');
                numbered.append('{');
                continue;
            }
            String p = pm.group(1);
            SqlWorkload.Slot slot;
            if (bindings.containsKey(p)) {
                slot = new SqlWorkload.Slot(p, bindings.get(p), -1);
            } else if (saved.contains(p)) {
                slot = new SqlWorkload.Slot(p, -1, saved.indexOf(p));
            } else if (p.equals("cycle")) {
                slot = new SqlWorkload.Slot(p, -1, -1);
            } else {
                throw new WorkloadException(source, line(sqlNode), "{" + p + "} is not a binding, a value saved by an"
                        + " earlier step or {cycle}");
            }
            params.add(slot);
            sql.append('?');
            Fn.Kind kind = slot.binding() >= 0 ? compiled.get(slot.binding()).fn().kind()
                    : slot.isCycle() ? Fn.Kind.LONG : null;
            numbered.append('$').append(params.size())
                    .append(kind == Fn.Kind.LONG ? "::int8" : kind == Fn.Kind.DOUBLE ? "::float8" : "");
        }
        jdbcText(sql, text, last, text.length(), quoted);
        numbered.append(text, last, text.length());
        if (sql.toString().isBlank()) {
            throw new WorkloadException(source, line(sqlNode), "the statement is empty");
        }
        long rows = -1;
        if (m.containsKey("check")) {
            Map<String, NodeTuple> check = mapping(m.get("check").getValueNode(), "check", Set.of("rows"));
            if (check.containsKey("rows")) {
                Node r = check.get("rows").getValueNode();
                try {
                    rows = Long.parseLong(scalar(r, "rows"));
                } catch (NumberFormatException e) {
                    rows = -1;
                }
                if (rows < 0) {
                    throw new WorkloadException(source, line(r), "rows '" + scalar(r, "rows") + "' is not a whole "
                            + "number >= 0");
                }
            }
        }
        List<SqlWorkload.Save> saves = new ArrayList<>();
        if (m.containsKey("save")) {
            for (NodeTuple t : mapping(m.get("save").getValueNode(), "save", null).values()) {
                String n = scalar(t.getKeyNode(), "a saved name");
                if (!IDENT.matcher(n).matches() || bindings.containsKey(n) || saved.contains(n) || n.equals("cycle")) {
                    throw new WorkloadException(source, line(t.getKeyNode()), "save name '" + n
                            + "' is not a new name (a binding, an earlier save or 'cycle')");
                }
                saves.add(new SqlWorkload.Save(n, scalar(t.getValueNode(), "a column"), saved.size()));
                saved.add(n);
            }
        }
        return new SqlWorkload.Step(sql.toString(), numbered.toString(), List.copyOf(params), rows, List.copyOf(saves),
                line(sqlNode));
    }

    private Node compose(String text) {
        try {
            return YamlText.compose(text, 4 << 20);
        } catch (YamlText.Invalid e) {
            throw new WorkloadException(source, e.line(), e.getMessage());
        }
    }

    private Map<String, NodeTuple> mapping(Node node, String what, Set<String> keys) {
        if (!(node instanceof MappingNode mn)) {
            throw new WorkloadException(source, line(node), what + ": expected a mapping (key: value)");
        }
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : mn.getValue()) {
            String k = scalar(t.getKeyNode(), "a key");
            if (keys != null && !keys.contains(k)) {
                throw new WorkloadException(source, line(t.getKeyNode()), what + ": unknown key '" + k + "' (known: "
                        + String.join(", ", new TreeSet<>(keys)) + ")");
            }
            if (out.put(k, t) != null) {
                throw new WorkloadException(source, line(t.getKeyNode()), what + ": '" + k + "' given twice");
            }
        }
        return out;
    }

    private String scalar(Node node, String what) {
        if (!(node instanceof ScalarNode s)) {
            throw new WorkloadException(source, line(node), what + ": expected a single value");
        }
        return s.getValue();
    }

    private static int line(Node node) {
        return node == null || node.getStartMark() == null ? 1 : node.getStartMark().getLine() + 1;
    }

    /**
     * Which characters of a statement are inside a quoted string or identifier, a dollar quote or a comment, where
     * PostgreSQL reads no operator.
     */
    private static boolean[] quoted(String text) {
        boolean[] in = new boolean[text.length()];
        Matcher q = PgServer.QUOTED.matcher(text);
        while (q.find()) {
            java.util.Arrays.fill(in, q.start(), q.end(), true);
        }
        return in;
    }

    /**
     * Appends {@code text[from, to)} in pgjdbc's notation: a {@code ?} outside quotes and comments is an operator
     * (jsonb's {@code ?}, {@code ?|}, {@code ?&}; geometric ones), which pgjdbc would take for a parameter, so it is
     * written {@code ??}, pgjdbc's escape for it; the file's text is PostgreSQL's, with {@code {name}} for parameters.
     */
    private static void jdbcText(StringBuilder sql, String text, int from, int to, boolean[] quoted) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            sql.append(c);
            if (c == '?' && !quoted[i]) {
                sql.append('?');
            }
        }
    }
}
