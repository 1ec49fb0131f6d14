package dev.pacer.engine.workload;

import com.fasterxml.jackson.core.JsonPointer;
import dev.pacer.engine.workload.Template.Encoding;
import dev.pacer.engine.workload.Template.Slot;
import dev.pacer.engine.op.OpMix;
import dev.pacer.engine.api.SettingException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a workload file (YAML, with SnakeYAML's node API) and compiles it: every problem is one
 * {@code file:line: what is wrong} ({@link WorkloadException}) before anything runs. The format is in
 * docs/workloads.md.
 */
public final class WorkloadParser {

    static final int MAX_BYTES = 4 << 20;
    /** The most ops a workload may have (each is a tag of its own in the run's figures). */
    static final int MAX_OPS = OpMix.MAX_OPS;

    /** A YAML 1.1 integer with a leading 0 ({@code 017}): octal there, no number in JSON. */
    private static final java.util.regex.Pattern LEADING_ZERO = java.util.regex.Pattern.compile("[-+]?0[0-9_]+");
    private static final Set<String> TOP_KEYS = Set.of("name", "description", "driver", "base", "seed", "vars",
            "headers", "bindings", "ops");
    private static final Set<String> OP_KEYS = Set.of("weight", "steps", "request", "headers", "body", "json", "check",
            "save");
    private static final Set<String> STEP_KEYS = Set.of("request", "headers", "body", "json", "check", "save");
    private static final Set<String> CHECK_KEYS = Set.of("status", "body", "regex", "json", "warn");
    private static final Set<String> RESTRICTED = Set.of("host", "content-length", "connection", "expect", "upgrade",
            "transfer-encoding");
    private static final Pattern VAR = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_-]*)}");
    private static final Pattern IDENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final Pattern SAVE = Pattern.compile("(json|header|cookie)\\((.*)\\)");

    private final String source;
    private final Path dir;
    private final Map<String, String> overrides;
    private final Map<String, String> vars = new HashMap<>();
    private final Map<String, Node> varNodes = new LinkedHashMap<>();
    private final Map<String, Workload.Binding> bindings = new LinkedHashMap<>();

    /** The data files the bindings read (csv(), extract()), resolved; this parse's thread only. */
    private final Set<Path> dataFiles = new LinkedHashSet<>();

    private WorkloadParser(String source, Path dir, Map<String, String> overrides) {
        this.source = source;
        this.dir = dir;
        this.overrides = overrides;
    }

    /**
     * Reads and compiles a workload file.
     *
     * @param vars values for the file's {@code vars} given from outside (the command line), by name
     * @throws WorkloadException {@code file:line: what is wrong}
     * @throws IOException       when the file cannot be read at all
     */
    public static Workload parse(Path file, Map<String, String> vars) throws IOException {
        String text = WorkloadText.read(file);
        Path dir = file.toAbsolutePath().getParent();
        return parse(text, file.toString(), dir, vars);
    }

    /** Compiles workload text; {@code dir} resolves the csv files it names. */
    public static Workload parse(String text, String source, Path dir, Map<String, String> vars) {
        return new WorkloadParser(source, dir, vars == null ? Map.of() : vars).read(text);
    }

    /**
     * The data files the workload file's bindings read ({@code csv()}, {@code extract()}), resolved: compiling it
     * finds them, so each is loaded once more than a run loads it.
     *
     * @throws WorkloadException {@code file:line: what is wrong}
     */
    public static Set<Path> dataFiles(Path file, Map<String, String> vars) throws IOException {
        WorkloadParser p = new WorkloadParser(file.toString(), file.toAbsolutePath().getParent(),
                vars == null ? Map.of() : vars);
        p.read(WorkloadText.read(file));
        return Set.copyOf(p.dataFiles);
    }

    /** True when the YAML file is a workload (it has top-level {@code ops}), not a scenario. */
    public static boolean isWorkload(Path file) {
        Map<String, String> top = WorkloadText.topLevel(file);
        // ops makes a workload; without them (a misspelt ops:), a key only a workload has does, unless a scenario's
        // phases are there: the workload's parser then names the key it does not know, at its line
        return top.containsKey("ops")
                || !top.containsKey("phases") && top.keySet().stream().anyMatch(ONLY_WORKLOAD::contains);
    }

    /** The top-level keys of a workload that a scenario does not have. */
    private static final Set<String> ONLY_WORKLOAD = Set.of("driver", "base", "seed", "vars", "headers", "bindings",
            "ops");

    private Workload read(String text) {
        Node root;
        try {
            root = YamlText.compose(text, MAX_BYTES);
        } catch (YamlText.Invalid e) {
            throw new WorkloadException(source, e.line(), e.getMessage());
        }
        if (root == null) {
            throw new WorkloadException(source, 1, "the file is empty; a workload needs 'base' and 'ops'");
        }
        if (root instanceof MappingNode m && m.getValue().stream().anyMatch(t -> t.getKeyNode() instanceof ScalarNode k
                && k.getValue().equals("phases")) && m.getValue().stream().noneMatch(t -> t.getKeyNode()
                instanceof ScalarNode k && k.getValue().equals("ops"))) {
            throw new WorkloadException(source, 1, "a scenario (it has phases), not a workload: pacer run --scenario "
                    + "FILE runs it; pacer show renders a workload's requests");
        }
        Map<String, NodeTuple> top = mapping(root, "a workload", TOP_KEYS);
        if (top.containsKey("driver")) {
            Node d = top.get("driver").getValueNode();
            if (scalar(d, "driver").equals("postgres")) { // pacer run takes it; this parser reads http files
                throw new WorkloadException(source, line(d), "a postgres workload: pacer run and pacer show take it, "
                        + "not this http workload's parser");
            }
            if (!scalar(d, "driver").equals("http")) {
                throw new WorkloadException(source, line(d), "driver '" + scalar(d, "driver") + "' is not known; http "
                        + "and postgres are");
            }
        }
        if (top.containsKey("vars")) {
            for (NodeTuple t : mapping(top.get("vars").getValueNode(), "vars", null).values()) {
                String name = scalar(t.getKeyNode(), "a var's name");
                if (!IDENT.matcher(name).matches()) {
                    throw new WorkloadException(source, line(t.getKeyNode()), "var name '" + name + "' is not a name");
                }
                varNodes.put(name, t.getValueNode());
            }
        }
        for (String o : overrides.keySet()) {
            if (!varNodes.containsKey(o)) {
                // the mistake is the caller's (a --var), not the file's: no file:line
                throw new IllegalArgumentException("cannot set var '" + o + "': " + source + " has none of that name "
                        + "(its vars: " + String.join(", ", new TreeSet<>(varNodes.keySet())) + ")");
            }
        }
        String name = top.containsKey("name") ? text(top.get("name").getValueNode(), "name") : defaultName();
        if (control(name, false) >= 0) { // it is printed: a terminal would act on it
            throw new WorkloadException(source, line(top.get("name").getValueNode()), "name '"
                    + SettingException.visible(name)
                    + "' has a control character");
        }
        long seed = 0;
        if (top.containsKey("seed")) {
            Node s = top.get("seed").getValueNode();
            try {
                seed = Long.parseLong(text(s, "seed"));
            } catch (NumberFormatException e) {
                throw new WorkloadException(source, line(s), "seed '" + scalar(s, "seed") + "' is not a whole number");
            }
        }
        if (!top.containsKey("base")) {
            throw new WorkloadException(source, line(root), "a workload needs 'base', the server's URL, e.g. "
                    + "http://127.0.0.1:8080");
        }
        URI base = base(top.get("base").getValueNode());
        List<Workload.Header> defaults = top.containsKey("headers")
                ? headers(top.get("headers").getValueNode(), n -> { throw new IllegalArgumentException(
                        "default headers take no {" + n + "}: put them in an op"); })
                : List.of();
        if (top.containsKey("bindings")) {
            BindingParser bp = new BindingParser(dir == null ? Path.of(".") : dir, new HashMap<>());
            for (NodeTuple t : mapping(top.get("bindings").getValueNode(), "bindings", null).values()) {
                String b = scalar(t.getKeyNode(), "a binding's name");
                if (!IDENT.matcher(b).matches() || b.equals("cycle")) { // {cycle} is the global cycle, as in SQL files
                    throw new WorkloadException(source, line(t.getKeyNode()), "binding name '" + b
                            + "' is not a name (letters, digits, _ and -; not 'cycle')");
                }
                String fnText = text(t.getValueNode(), "binding '" + b + "'");
                try {
                    bindings.put(b, new Workload.Binding(b, fnText, bp.compile(fnText, CycleRandom.salt(seed, b))));
                } catch (IllegalArgumentException e) {
                    throw new WorkloadException(source, line(t.getValueNode()), "binding '" + b + "': "
                            + e.getMessage());
                }
            }
            dataFiles.addAll(bp.filesRead());
        }
        if (!top.containsKey("ops")) {
            throw new WorkloadException(source, line(root), "a workload needs 'ops', e.g. ops: {get: {weight: 1, "
                    + "request: GET /}}");
        }
        Map<String, NodeTuple> opNodes = mapping(top.get("ops").getValueNode(), "ops", null);
        if (opNodes.isEmpty()) {
            throw new WorkloadException(source, line(top.get("ops").getValueNode()), "'ops' has no ops");
        }
        if (opNodes.size() > MAX_OPS) {
            throw new WorkloadException(source, line(top.get("ops").getValueNode()), "more than " + MAX_OPS + " ops");
        }
        List<Workload.Op> ops = new ArrayList<>();
        for (NodeTuple t : opNodes.values()) {
            ops.add(op(t, defaults));
        }
        try {
            Mix.order(ops.stream().mapToLong(Workload.Op::weight).toArray());
        } catch (IllegalArgumentException e) {
            throw new WorkloadException(source, line(top.get("ops").getValueNode()), e.getMessage());
        }
        return new Workload(name, source, base, seed,
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(bindings)),
                List.copyOf(ops));
    }

    private String defaultName() {
        String f = Path.of(source).getFileName().toString();
        return f.replaceFirst("\\.ya?ml$", "");
    }

    private URI base(Node node) {
        String b = text(node, "base");
        try {
            URI uri = new URI(b);
            if (uri.getScheme() != null) { // case-insensitive (RFC 3986, 3.1): the client compares it in lower case
                uri = new URI(uri.getScheme().toLowerCase(Locale.ROOT) + b.substring(uri.getScheme().length()));
            }
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new WorkloadException(source, line(node), "base '" + b + "' must be an http:// or https:// URL "
                        + "with a host");
            }
            if (uri.getPort() == 0 || uri.getPort() > 65535) {
                throw new WorkloadException(source, line(node), "base '" + b + "': port " + uri.getPort()
                        + " is out of range (1 to 65535)");
            }
            if (uri.getRawUserInfo() != null) { // it would go out in the Host header, the password in the clear
                String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
                throw new WorkloadException(source, line(node), "base '" + uri.getScheme()
                        + "://(user info not shown)@" + uri.getHost() + port + "' has a user name or password: give "
                        + "credentials as a header (headers: {Authorization: ...})");
            }
            if (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/")
                    || uri.getRawQuery() != null) {
                throw new WorkloadException(source, line(node), "base '" + b
                        + "' is scheme, host and port only; paths go in each request");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new WorkloadException(source, line(node), "base '" + b + "' is not a URL: " + e.getReason());
        }
    }

    private Workload.Op op(NodeTuple t, List<Workload.Header> defaults) {
        String name = scalar(t.getKeyNode(), "an op's name");
        int keyLine = line(t.getKeyNode());
        if (!OpMix.NAME.matcher(name).matches()) {
            throw new WorkloadException(source, keyLine, "op name '" + SettingException.visible(name)
                    + "' must be 1 to 64 letters, "
                    + "digits, _ . - starting with a letter, digit or _");
        }
        Map<String, NodeTuple> m = mapping(t.getValueNode(), "op '" + name + "'", OP_KEYS);
        if (!m.containsKey("weight")) {
            throw new WorkloadException(source, keyLine, "op '" + name + "' needs a 'weight' (e.g. weight: 70)");
        }
        Node w = m.get("weight").getValueNode();
        long weight;
        try {
            weight = Long.parseLong(text(w, "weight"));
        } catch (NumberFormatException e) {
            throw new WorkloadException(source, line(w), "op '" + name + "': weight '" + scalar(w, "weight")
                    + "' is not a whole number");
        }
        if (weight < 1) {
            throw new WorkloadException(source, line(w), "op '" + name + "': weight must be ≥ 1, got " + weight
                    + " (leave the op out to run it never)");
        }
        List<String> saved = new ArrayList<>();
        List<Workload.Step> steps = new ArrayList<>();
        if (m.containsKey("steps")) {
            for (String k : m.keySet()) {
                if (!k.equals("steps") && !k.equals("weight")) {
                    throw new WorkloadException(source, line(m.get(k).getKeyNode()), "op '" + name
                            + "' has steps: '" + k + "' goes in a step");
                }
            }
            Node sn = m.get("steps").getValueNode();
            if (!(sn instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
                throw new WorkloadException(source, line(sn), "op '" + name + "': 'steps' must be a non-empty list of "
                        + "requests");
            }
            for (Node s : seq.getValue()) {
                steps.add(step(mapping(s, "a step of '" + name + "'", STEP_KEYS), s, name, saved, defaults));
            }
        } else {
            if (!m.containsKey("request")) {
                throw new WorkloadException(source, keyLine, "op '" + name + "' needs a 'request' (e.g. GET "
                        + "/items/{item}) or 'steps'");
            }
            Map<String, NodeTuple> stepKeys = new HashMap<>(m);
            stepKeys.remove("weight");
            steps.add(step(stepKeys, t.getValueNode(), name, saved, defaults));
        }
        return new Workload.Op(name, weight, List.copyOf(steps), List.copyOf(saved));
    }

    private Workload.Step step(Map<String, NodeTuple> m, Node node, String op, List<String> saved,
                               List<Workload.Header> defaults) {
        if (!m.containsKey("request")) {
            throw new WorkloadException(source, line(node), "a step of '" + op + "' needs a 'request' (e.g. POST "
                    + "/orders)");
        }
        List<String> laterSaves = new ArrayList<>();
        if (m.containsKey("save")) {
            for (NodeTuple s : mapping(m.get("save").getValueNode(), "save", null).values()) {
                laterSaves.add(scalar(s.getKeyNode(), "a saved name"));
            }
        }
        Function<String, Slot> resolve = slots(saved, laterSaves);
        Node rn = m.get("request").getValueNode();
        String request = text(rn, "request").strip();
        int space = request.indexOf(' ');
        String method = space < 0 ? "" : request.substring(0, space);
        String target = space < 0 ? request : request.substring(space + 1).strip();
        if (!method.matches("[A-Z]+")) {
            throw new WorkloadException(source, line(rn), "request '" + request
                    + "' must be a method and a path, e.g. GET /items/{item}");
        }
        if (method.equals("HEAD") || method.equals("CONNECT")) {
            throw new WorkloadException(source, line(rn), "request '" + request + "': " + method
                    + " is not supported in workloads (use the http op: --op http --method " + method + ")");
        }
        if (!target.startsWith("/") || target.contains(" ")) {
            throw new WorkloadException(source, line(rn), "request '" + request
                    + "': the path must start with / and have no spaces (the host is in 'base')");
        }
        int control = control(target, false);
        if (control >= 0) {
            throw new WorkloadException(source, line(rn), "request '" + SettingException.visible(request)
                    + "': the path has a control "
                    + "character (" + String.format("U+%04X", control) + "); percent-encode it");
        }
        if (target.indexOf('#') >= 0) {
            throw new WorkloadException(source, line(rn), "request '" + request + "': a #fragment is never sent to a "
                    + "server; leave it out (or write %23 for a # in the path)");
        }
        for (int i = 0; i < target.length(); i++) { // a request line is ASCII (RFC 9112 3.2); it went as raw UTF-8
            char c = target.charAt(i);
            if (c > 0x7e) {
                StringBuilder encoded = new StringBuilder();
                for (byte b : String.valueOf(Character.toChars(target.codePointAt(i)))
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
                    encoded.append(String.format("%%%02X", b & 0xff));
                }
                throw new WorkloadException(source, line(rn), "request '" + request + "': the path has '"
                        + new String(Character.toChars(target.codePointAt(i))) + "', not ASCII; percent-encode it ("
                        + encoded + ") or pass it through a binding");
            }
        }
        Template targetT = template(rn, target, Encoding.URL, resolve);
        List<Workload.Header> headers = new ArrayList<>(defaults);
        if (m.containsKey("headers")) {
            List<Workload.Header> own = headers(m.get("headers").getValueNode(), resolve);
            // a step's header replaces the file's default of the same name (names are case-insensitive)
            headers.removeIf(d -> own.stream().anyMatch(h -> h.name().equalsIgnoreCase(d.name())));
            headers.addAll(own);
        }
        if (m.containsKey("body") && m.containsKey("json")) {
            throw new WorkloadException(source, line(m.get("json").getKeyNode()), "a request has 'body' or 'json', not "
                    + "both");
        }
        Template body = null;
        String contentType = null;
        if (m.containsKey("body")) {
            Node bn = m.get("body").getValueNode();
            body = template(bn, text(bn, "body"), Encoding.RAW, resolve);
        } else if (m.containsKey("json")) {
            Template.Builder b = new Template.Builder();
            json(m.get("json").getValueNode(), b, resolve);
            body = b.build("json");
            contentType = "application/json";
        }
        Workload.Check check = m.containsKey("check") ? check(m.get("check").getValueNode(), resolve)
                : new Workload.Check(null, null, null, null, List.of(), false);
        if (check.status() == null) { // a step that names no status takes 2xx or 304, as Gatling's implicit check
            check = new Workload.Check(IMPLICIT_STATUS, "2xx,304", check.contains(), check.regex(), check.json(),
                    check.warn());
        }
        List<Workload.Save> saves = new ArrayList<>();
        if (m.containsKey("save")) {
            for (NodeTuple s : mapping(m.get("save").getValueNode(), "save", null).values()) {
                saves.add(save(s, saved, op));
            }
        }
        return new Workload.Step(method, targetT, List.copyOf(headers), body, contentType, check, List.copyOf(saves),
                line(node));
    }

    private Workload.Save save(NodeTuple s, List<String> saved, String op) {
        String name = scalar(s.getKeyNode(), "a saved name");
        int keyLine = line(s.getKeyNode());
        if (!IDENT.matcher(name).matches()) {
            throw new WorkloadException(source, keyLine, "saved name '" + name + "' is not a name");
        }
        if (bindings.containsKey(name) || saved.contains(name) || name.equals("cycle")) {
            throw new WorkloadException(source, keyLine, "op '" + op + "' saves '" + name
                    + "', which is already a binding or saved value");
        }
        Node v = s.getValueNode();
        Matcher m = SAVE.matcher(text(v, "save").strip());
        if (!m.matches()) {
            throw new WorkloadException(source, line(v), "save '" + name + "': expected json(/pointer), "
                    + "header(Name) or cookie(name), got '" + scalar(v, "save") + "'");
        }
        String arg = m.group(2).strip();
        JsonPointer pointer = null;
        String header = null;
        String cookie = null;
        if (m.group(1).equals("json")) {
            pointer = pointer(v, arg);
        } else {
            if (!arg.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) { // a token (RFC 9110 5.6.2), as both names are
                throw new WorkloadException(source, line(v), "save '" + name + "': '" + arg + "' is not a "
                        + m.group(1) + " name");
            }
            if (m.group(1).equals("header")) {
                header = arg;
            } else {
                cookie = arg;
            }
        }
        saved.add(name);
        return new Workload.Save(name, saved.size() - 1, pointer, header, cookie);
    }

    private JsonPointer pointer(Node node, String text) {
        try {
            return JsonPointer.compile(text);
        } catch (IllegalArgumentException e) {
            throw new WorkloadException(source, line(node), "'" + text + "' is not a JSON pointer (e.g. /items/0/id): "
                    + e.getMessage());
        }
    }

    private Function<String, Slot> slots(List<String> saved, List<String> laterInStep) {
        List<String> before = List.copyOf(saved);
        return name -> {
            Workload.Binding b = bindings.get(name);
            if (b != null) {
                return new BindingSlot(name, b.fn());
            }
            int i = before.indexOf(name);
            if (i >= 0) {
                return new SavedSlot(name, i);
            }
            if (name.equals("cycle")) {
                return new BindingSlot(name, new Fns.Seq(0));
            }
            if (laterInStep.contains(name)) {
                throw new IllegalArgumentException("{" + name + "} is saved by this step, so only later steps can use "
                        + "it");
            }
            throw new IllegalArgumentException("{" + name + "} is neither a binding nor saved by an earlier step "
                    + "(bindings: "
                    + String.join(", ", new TreeSet<>(bindings.keySet())) + ")");
        };
    }

    private Template template(Node node, String text, Encoding e, Function<String, Slot> resolve) {
        try {
            return Template.of(text, e, resolve);
        } catch (IllegalArgumentException ex) {
            throw new WorkloadException(source, line(node), ex.getMessage());
        }
    }

    /** How deep a {@code json:} body may nest: deeper is a YAML alias that holds itself ({@code &j {a: *j}}). */
    static final int JSON_DEPTH = 64;

    private void json(Node node, Template.Builder b, Function<String, Slot> resolve) {
        json(node, b, resolve, 0);
    }

    private void json(Node node, Template.Builder b, Function<String, Slot> resolve, int depth) {
        if (depth > JSON_DEPTH) {
            throw new WorkloadException(source, line(node), "the JSON body nests deeper than " + JSON_DEPTH
                    + " levels: a YAML alias that holds itself?");
        }
        try {
            if (node instanceof MappingNode map) {
                b.literal("{");
                Set<String> keys = new LinkedHashSet<>();
                boolean first = true;
                for (NodeTuple t : map.getValue()) {
                    String key = scalar(t.getKeyNode(), "a JSON key");
                    if (!keys.add(key)) {
                        throw new WorkloadException(source, line(t.getKeyNode()), "duplicate JSON key '" + key + "'");
                    }
                    b.literal(first ? "" : ",");
                    first = false;
                    b.literal("\"").text(key, Encoding.JSON_STRING, n -> {
                        throw new IllegalArgumentException("JSON keys take no {" + n + "}");
                    }).literal("\":");
                    json(t.getValueNode(), b, resolve, depth + 1);
                }
                b.literal("}");
            } else if (node instanceof SequenceNode seq) {
                b.literal("[");
                for (int i = 0; i < seq.getValue().size(); i++) {
                    b.literal(i == 0 ? "" : ",");
                    json(seq.getValue().get(i), b, resolve, depth + 1);
                }
                b.literal("]");
            } else {
                ScalarNode s = (ScalarNode) node;
                String v = vars(s.getValue(), node);
                Tag tag = s.getTag();
                if (tag.equals(Tag.INT) && LEADING_ZERO.matcher(v).matches()) {
                    throw new WorkloadException(source, line(node), "'" + v + "' is an octal number in YAML and no "
                            + "JSON number: write it without the leading 0, or quoted for a string");
                } else if (tag.equals(Tag.INT) || tag.equals(Tag.FLOAT)) {
                    b.literal(new java.math.BigDecimal(v.replace("_", "")).toString());
                } else if (tag.equals(Tag.BOOL)) { // YAML 1.1's: true, yes, on and false, no, off, any case
                    b.literal(Set.of("true", "yes", "on").contains(v.toLowerCase(Locale.ROOT)) ? "true" : "false");
                } else if (tag.equals(Tag.NULL)) {
                    b.literal("null");
                } else {
                    Matcher whole = Template.NAME.matcher(v);
                    if (whole.matches() && whole.group(2) != null) {
                        b.slot(resolve.apply(whole.group(2)), Encoding.JSON_VALUE);
                    } else {
                        b.literal("\"").text(v, Encoding.JSON_STRING, resolve).literal("\"");
                    }
                }
            }
        } catch (NumberFormatException e) {
            throw new WorkloadException(source, line(node), "'" + ((ScalarNode) node).getValue() + "' is not a JSON "
                    + "number");
        } catch (WorkloadException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new WorkloadException(source, line(node), e.getMessage());
        }
    }

    private List<Workload.Header> headers(Node node, Function<String, Slot> resolve) {
        List<Workload.Header> out = new ArrayList<>();
        Map<String, String> seen = new HashMap<>(); // by lower case: HTTP's field names are case-insensitive
        for (NodeTuple t : mapping(node, "headers", null).values()) {
            String name = scalar(t.getKeyNode(), "a header's name");
            if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new WorkloadException(source, line(t.getKeyNode()), "header name '" + name + "' is not an HTTP "
                        + "token");
            }
            String before = seen.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
            if (before != null) {
                throw new WorkloadException(source, line(t.getKeyNode()), "header " + name + " is given twice (as "
                        + before + "): a header's name has no case");
            }
            if (RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                throw new WorkloadException(source, line(t.getKeyNode()), "the client sets " + name + " itself");
            }
            String value = text(t.getValueNode(), "header " + name);
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new WorkloadException(source, line(t.getValueNode()), "header " + name + " has a line break");
            }
            int control = control(value, true);
            if (control >= 0) {
                throw new WorkloadException(source, line(t.getValueNode()), "header " + name + " has a control "
                        + "character (" + String.format("U+%04X", control) + "), which HTTP does not allow in a value");
            }
            out.add(new Workload.Header(name, template(t.getValueNode(), value, Encoding.HEADER, resolve)));
        }
        return out;
    }

    /** The statuses a step takes when its check names none: 2xx and 304 (not a redirect the client won't follow). */
    private static final long[] IMPLICIT_STATUS = implicitStatus();

    private static long[] implicitStatus() {
        long[] status = new long[10];
        for (int code = 200; code < 300; code++) {
            status[code >> 6] |= 1L << code;
        }
        status[304 >> 6] |= 1L << 304;
        return status;
    }

    private Workload.Check check(Node node, Function<String, Slot> resolve) {
        Map<String, NodeTuple> m = mapping(node, "check", CHECK_KEYS);
        long[] status = null;
        String statusText = null;
        if (m.containsKey("status")) {
            Node sn = m.get("status").getValueNode();
            status = new long[10];
            List<Node> items = sn instanceof SequenceNode seq ? seq.getValue() : List.of(sn);
            if (items.isEmpty()) {
                throw new WorkloadException(source, line(sn), "check status: an empty list accepts nothing");
            }
            List<String> texts = new ArrayList<>();
            for (Node item : items) {
                String s = text(item, "status").strip().toLowerCase(Locale.ROOT);
                texts.add(s);
                if (s.matches("[1-5]xx")) {
                    int c = s.charAt(0) - '0';
                    for (int code = c * 100; code < c * 100 + 100; code++) {
                        status[code >> 6] |= 1L << code;
                    }
                } else if (s.matches("[1-5][0-9][0-9]")) {
                    int code = Integer.parseInt(s);
                    status[code >> 6] |= 1L << code;
                } else {
                    throw new WorkloadException(source, line(item), "check status '" + s
                            + "': expected a status (200), a class (2xx) or a list of them");
                }
            }
            statusText = String.join(",", texts);
        }
        Template contains = null;
        if (m.containsKey("body")) {
            Node bn = m.get("body").getValueNode();
            contains = template(bn, text(bn, "check body"), Encoding.RAW, resolve);
        }
        Pattern regex = null;
        if (m.containsKey("regex")) {
            Node rn = m.get("regex").getValueNode();
            try {
                regex = Pattern.compile(text(rn, "regex"));
            } catch (PatternSyntaxException e) {
                throw new WorkloadException(source, line(rn), "regex '" + scalar(rn, "regex") + "' does not compile: "
                        + e.getDescription());
            }
        }
        List<Workload.JsonEquals> json = new ArrayList<>();
        if (m.containsKey("json")) {
            for (NodeTuple t : mapping(m.get("json").getValueNode(), "check json", null).values()) {
                String p = scalar(t.getKeyNode(), "a JSON pointer");
                JsonPointer pointer = pointer(t.getKeyNode(), p);
                Node v = t.getValueNode();
                // ~ (YAML's null) expects JSON's null, '' an empty string; any other value its text
                String expected = v instanceof ScalarNode sv && sv.getTag().equals(Tag.NULL) ? "null"
                        : v instanceof ScalarNode sv && sv.getValue().isEmpty() ? "" : text(v, "check json " + p);
                json.add(new Workload.JsonEquals(pointer, template(v, expected, Encoding.RAW, resolve)));
            }
        }
        boolean warn = false;
        if (m.containsKey("warn")) {
            Node wn = m.get("warn").getValueNode();
            String w = scalar(wn, "warn");
            if (!w.equals("true") && !w.equals("false")) {
                throw new WorkloadException(source, line(wn), "warn must be true or false, got '" + w + "'");
            }
            warn = w.equals("true");
        }
        return new Workload.Check(status, statusText, contains, regex, List.copyOf(json), warn);
    }

    // --- YAML helpers -----------------------------------------------------------------------------------------

    /** A mapping's tuples by key, refusing duplicates and (with {@code allowed}) unknown keys. */
    private Map<String, NodeTuple> mapping(Node node, String what, Set<String> allowed) {
        if (!(node instanceof MappingNode map)) {
            throw new WorkloadException(source, line(node), what + " must be a mapping of keys (key: value)");
        }
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : map.getValue()) {
            String key = scalar(t.getKeyNode(), "key");
            if (allowed != null && !allowed.contains(key)) {
                throw new WorkloadException(source, line(t.getKeyNode()), "unknown key '" + key + "' in " + what
                        + " (expected: " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
            if (out.put(key, t) != null) {
                throw new WorkloadException(source, line(t.getKeyNode()), "duplicate key '" + key + "' in " + what);
            }
        }
        return out;
    }

    private String scalar(Node node, String what) {
        if (!(node instanceof ScalarNode s)) {
            throw new WorkloadException(source, line(node), what + " must be a single value");
        }
        return s.getValue();
    }

    /** A scalar with its {@code ${var}}s resolved; an empty or null value is refused. */
    private String text(Node node, String what) {
        String raw = scalar(node, what);
        if (raw.isEmpty() || ((ScalarNode) node).getTag().equals(Tag.NULL)) {
            throw new WorkloadException(source, line(node), what + " is empty");
        }
        return vars(raw, node);
    }

    private String vars(String text, Node at) {
        return vars(text, at, new LinkedHashSet<>());
    }

    private String vars(String text, Node at, Set<String> resolving) {
        Matcher m = VAR.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(var(m.group(1), at, resolving)));
            if (out.length() > MAX_BYTES) { // vars of vars grow tenfold a level: 10 levels would be 10 GB
                throw new WorkloadException(source, line(at), "expands past 4 MB at ${" + m.group(1)
                        + "}: vars that repeat vars; put data in csv files");
            }
        }
        m.appendTail(out);
        return out.toString();
    }

    private String var(String name, Node at, Set<String> resolving) {
        String done = vars.get(name);
        if (done != null) {
            return done;
        }
        Node node = varNodes.get(name);
        if (node == null) {
            throw new WorkloadException(source, line(at), "${" + name + "} is not a var (vars: "
                    + String.join(", ", new TreeSet<>(varNodes.keySet())) + ")");
        }
        if (!resolving.add(name)) {
            throw new WorkloadException(source, line(node), "var '" + name + "' refers to itself: "
                    + String.join(" → ", resolving) + " → " + name);
        }
        String value = overrides.containsKey(name) ? overrides.get(name) : vars(scalar(node, "var " + name), node,
                resolving);
        resolving.remove(name);
        vars.put(name, value);
        return value;
    }

    /** The first control character in {@code text} (C0 or DEL; a tab only when {@code tabs} is false), or -1. */
    static int control(String text, boolean tabs) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c < 0x20 && !(tabs && c == '\t')) || c == 0x7f) {
                return c;
            }
        }
        return -1;
    }

    private static int line(Node node) {
        return node.getStartMark() == null ? 1 : node.getStartMark().getLine() + 1;
    }

    /** A slot for a binding's value. */
    record BindingSlot(String name, Fn fn) implements Slot {
        @Override
        public void write(CycleState st, Bytes out) {
            fn.write(st.cycle, out);
        }

        @Override
        public void writeJson(CycleState st, Bytes out) {
            fn.writeJson(st.cycle, out);
        }
    }

    /** A slot for a value an earlier step saved. */
    record SavedSlot(String name, int slot) implements Slot {
        @Override
        public void write(CycleState st, Bytes out) {
            out.appendUtf8(st.saved[slot]);
        }

        @Override
        public void writeJson(CycleState st, Bytes out) {
            if (st.savedIsText[slot]) {
                byte[] b = st.saved[slot].getBytes(StandardCharsets.UTF_8);
                out.append((byte) '"').appendJsonEscaped(b, 0, b.length).append((byte) '"');
            } else {
                out.appendUtf8(st.saved[slot]);
            }
        }
    }
}
