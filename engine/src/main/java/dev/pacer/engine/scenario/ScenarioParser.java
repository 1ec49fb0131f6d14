package dev.pacer.engine.scenario;

import dev.pacer.engine.api.Phase;
import dev.pacer.engine.api.RatePlan;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.ScenarioException;

import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.workload.YamlText;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.NumberText;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads scenario YAML with SnakeYAML's node API, so every problem is reported as
 * {@code file:line: what is wrong} before anything runs.
 *
 * <pre>
 * name: ramp-to-knee
 * description: one line that `pacer scenarios` shows
 * op: noop                # any --op spec; for http also url, method, headers, body, expect, ... as their flags
 * threads: 8
 * strictness: 0.5         # default for every phase
 * arrivals: poisson       # or uniform (the default)
 * limiter: leaky:queue=10 # the limiter design (default atomic): see LimiterDesign
 * phases:
 *   - name: warmup
 *     duration: 10s
 *     rate: 500            # a number, or RateSpec text such as 500,1
 *     warmup: true         # paced and logged, kept out of the final summary
 *   - name: ramp
 *     duration: 60s
 *     rate: {from: 1000, to: 20000}                          # linear ramp
 *   - name: find-knee
 *     duration: 100s       # optional for steps: defaults to the staircase's length
 *     steps: {from: 1000, to: 10000, by: 1000, every: 10s}   # staircase
 *     threads: 16
 * </pre>
 * Unknown keys, duplicate keys, bad durations, rates ≤ 0, ramps without an end and the like are
 * refused with the line they are on.
 */
public final class ScenarioParser {

    /** Scenario keys for the op's own options, and the op option each becomes (as the CLI flags do). */
    static final Map<String, String> OP_OPTION_KEYS = Map.of(
            "url", "url", "method", "method", "headers", "header", "body", "body", "expect", "expect",
            "connect-timeout", "connect-timeout", "request-timeout", "request-timeout", "http-version", "http-version");
    private static final Set<String> TOP_KEYS = Set.of("name", "description", "op", "threads", "strictness", "arrivals",
            "limiter",
            "phases", "workload");
    private static final Set<String> PHASE_KEYS = Set.of("name", "duration", "rate", "steps", "search", "strictness",
            "threads",
            "warmup");

    /** The largest scenario file: a scenario is a few lines of phases. */
    static final int MAX_BYTES = 1 << 20;
    /** The most phases a scenario may have (each keeps its own histograms); use steps or a ramp for more. */
    static final int MAX_PHASES = 1_000;

    private final String source;

    private ScenarioParser(String source) {
        this.source = source;
    }

    /**
     * Reads and validates a scenario file of at most {@link #MAX_BYTES} of UTF-8 text.
     *
     * @throws ScenarioException {@code file:line: what is wrong}
     * @throws IOException       when it cannot be read at all
     */
    public static Scenario parse(Path file) throws IOException {
        String source = file.toString();
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES) {
            throw new ScenarioException(source, 1, "over 1 MB; a scenario file is a few lines of phases");
        }
        return parse(utf8(bytes, source), source);
    }

    /** The text, or a {@code file:line} naming the first byte that is not UTF-8. */
    private static String utf8(byte[] bytes, String source) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = StandardCharsets.UTF_8.newDecoder().decode(in, out, true);
        if (result.isError()) {
            int at = in.position();
            int line = 1;
            for (int i = 0; i < at; i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new ScenarioException(source, line, String.format("not UTF-8 text (byte 0x%02x)", bytes[at] & 0xff));
        }
        return out.flip().toString();
    }

    /**
     * Reads and validates scenario text.
     *
     * @param source the file name to use in messages
     * @throws ScenarioException {@code source:line: what is wrong}
     */
    public static Scenario parse(String text, String source) {
        return new ScenarioParser(source).read(text);
    }

    private Scenario read(String text) {
        Node root;
        try {
            root = YamlText.compose(text, MAX_BYTES);
        } catch (YamlText.Invalid e) {
            throw new ScenarioException(source, e.line(), e.getMessage());
        }
        if (root == null) {
            throw new ScenarioException(source, 1, "the file is empty; a scenario needs at least 'phases'");
        }
        Map<String, NodeTuple> top = mapping(root, "a scenario", keys(TOP_KEYS, OP_OPTION_KEYS.keySet()));
        String name = top.containsKey("name") ? oneLine(top.get("name").getValueNode(), "name") : defaultName();
        String description = top.containsKey("description") ? oneLine(top.get("description").getValueNode(),
                "description") : "";
        String op = top.containsKey("op") ? oneLine(top.get("op").getValueNode(), "op") : null;
        if (top.containsKey("workload")) { // a workload file, relative to this one: the op every phase runs
            if (op != null) {
                throw new ScenarioException(source, line(top.get("workload").getKeyNode()), "give 'op' or 'workload', "
                        + "not both");
            }
            Path dir = Path.of(source).toAbsolutePath().getParent();
            String file = oneLine(top.get("workload").getValueNode(), "workload");
            op = "workload:" + (dir == null ? Path.of(file) : dir.resolve(file)).normalize();
        }
        Integer threads = top.containsKey("threads") ? threads(top.get("threads").getValueNode()) : null;
        Double strictness = top.containsKey("strictness") ? strictness(top.get("strictness").getValueNode()) : null;
        Arrivals arrivals = null;
        if (top.containsKey("arrivals")) {
            Node an = top.get("arrivals").getValueNode();
            String arrivalsText = scalar(an, "arrivals");
            try {
                arrivals = Arrivals.parse(arrivalsText);
            } catch (IllegalArgumentException e) {
                throw new ScenarioException(source, line(an), e.getMessage());
            }
        }
        LimiterDesign limiter = null;
        if (top.containsKey("limiter")) {
            Node ln = top.get("limiter").getValueNode();
            String design = scalar(ln, "limiter");
            if (design.isEmpty() || ln.getTag() == Tag.NULL) {
                throw new ScenarioException(source, line(ln), "'limiter' is empty: name a design, e.g. leaky, or leave "
                        + "the key out for atomic");
            }
            try {
                limiter = LimiterDesign.parse(design);
            } catch (IllegalArgumentException e) {
                throw new ScenarioException(source, line(ln), e.getMessage());
            }
        }
        Map<String, List<String>> opOptions = new LinkedHashMap<>();
        Map<String, Integer> lines = new HashMap<>();
        if (op != null) {
            lines.put("op", line(top.get(top.containsKey("op") ? "op" : "workload").getKeyNode()));
        }
        if (threads != null) {
            lines.put("threads", line(top.get("threads").getKeyNode()));
        }
        if (strictness != null) {
            lines.put("strictness", line(top.get("strictness").getKeyNode()));
        }
        for (Map.Entry<String, String> k : OP_OPTION_KEYS.entrySet()) {
            if (top.containsKey(k.getKey())) {
                opOptions.put(k.getValue(), values(top.get(k.getKey()).getValueNode(), k.getKey()));
                lines.put(k.getValue(), line(top.get(k.getKey()).getKeyNode()));
            }
        }
        if (!top.containsKey("phases")) {
            throw new ScenarioException(source, line(root), "a scenario needs 'phases', a list of timed phases");
        }
        Node phasesNode = top.get("phases").getValueNode();
        if (!(phasesNode instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
            throw new ScenarioException(source, line(phasesNode), "'phases' must be a non-empty list of phases");
        }
        List<Phase> phases = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Duration total = Duration.ZERO;
        for (Node p : seq.getValue()) {
            if (phases.size() == MAX_PHASES) {
                throw new ScenarioException(source, line(p), "more than " + MAX_PHASES
                        + " phases; a ramp or steps change the rate within one");
            }
            Phase phase = phase(p, phases.size() + 1);
            if (!names.add(phase.name())) {
                throw new ScenarioException(source, phase.line(), "a phase named '" + phase.name() + "' is already "
                        + "defined");
            }
            if (!phases.isEmpty() && phases.get(phases.size() - 1).rate() instanceof RatePlan.Search) {
                throw new ScenarioException(source, phase.line(),
                        "a search phase must be the last: how long it takes is not known in advance");
            }
            total = total.plus(phase.duration());
            if (total.compareTo(Durations.MAX) > 0) {
                throw new ScenarioException(source, phase.line(), "the phases up to '" + phase.name()
                        + "' last more than " + Durations.MAX_TEXT + ", the longest run");
            }
            phases.add(phase);
        }
        return new Scenario(name, description, source, op, opOptions, threads, strictness, phases, lines, arrivals,
                limiter);
    }

    private Phase phase(Node node, int index) {
        Map<String, NodeTuple> m = mapping(node, "a phase", PHASE_KEYS);
        String name = m.containsKey("name") ? oneLine(m.get("name").getValueNode(), "name") : "phase-" + index;
        if (name.isEmpty()) {
            throw new ScenarioException(source, line(m.get("name").getKeyNode()), "phase " + index + "'s 'name' is"
                    + " empty: give it one, or leave the key out for phase-" + index);
        }
        int plans = (m.containsKey("rate") ? 1 : 0) + (m.containsKey("steps") ? 1 : 0) + (m.containsKey("search") ? 1
                : 0);
        if (plans != 1) {
            throw new ScenarioException(source, line(node), "phase '" + name + "' needs exactly one of 'rate', 'steps' "
                    + "or 'search'");
        }
        Duration duration = m.containsKey("duration") ? duration(m.get("duration").getValueNode()) : null;
        RatePlan plan;
        if (m.containsKey("search")) {
            RatePlan.Search search = search(m.get("search").getValueNode());
            plan = search;
            if (duration == null) {
                duration = search.maxDuration();
            }
        } else if (m.containsKey("rate")) {
            if (duration == null) {
                throw new ScenarioException(source, line(node), "phase '" + name + "' needs a 'duration' (e.g. 30s)");
            }
            plan = rate(m.get("rate").getValueNode(), duration);
        } else {
            RatePlan.Steps steps = steps(m.get("steps").getValueNode());
            plan = steps;
            if (duration == null) {
                duration = steps.length();
            }
        }
        Double strictness = m.containsKey("strictness") ? strictness(m.get("strictness").getValueNode()) : null;
        Integer threads = m.containsKey("threads") ? threads(m.get("threads").getValueNode()) : null;
        boolean warmup = m.containsKey("warmup") && bool(m.get("warmup").getValueNode(), "warmup");
        if (warmup && plan instanceof RatePlan.Search) {
            throw new ScenarioException(source, line(m.get("warmup").getKeyNode()), "phase '" + name + "': a search"
                    + " cannot be a warm-up, which the totals leave out; put a warm-up phase before it");
        }
        return new Phase(name, duration, plan, strictness, threads, warmup, line(node));
    }

    private RatePlan rate(Node node, Duration duration) {
        if (node instanceof MappingNode) {
            Map<String, NodeTuple> m = mapping(node, "a ramp", Set.of("from", "to"));
            for (String k : List.of("from", "to")) {
                if (!m.containsKey(k)) {
                    throw new ScenarioException(source, line(node), "a ramp needs '" + k + "': rate: {from: 1000, to: "
                            + "5000}");
                }
            }
            return new RatePlan.Ramp(plainRate(m.get("from").getValueNode()), plainRate(m.get("to").getValueNode()),
                    duration);
        }
        String text = scalar(node, "rate");
        try {
            RateSpec spec = RateSpec.parse(text);
            return new RatePlan.Constant(spec.opsPerSecond(), text.contains(",") ? spec.strictness() : null);
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(source, line(node), e.getMessage());
        }
    }

    /** {@code search: {from: 1000, to: 200000, slo: "response.p99<20ms and errors<1%", hold: 10s, precision: 2%}} */
    private RatePlan.Search search(Node node) {
        Map<String, NodeTuple> m = mapping(node, "search", Set.of("from", "to", "slo", "hold", "settle", "precision"));
        for (String k : List.of("from", "to", "slo")) {
            if (!m.containsKey(k)) {
                throw new ScenarioException(source, line(node),
                        "a search needs '" + k + "': search: {from: 1000, to: 200000, slo: \"response.p99<20ms\"}");
            }
        }
        double from = plainRate(m.get("from").getValueNode());
        double to = plainRate(m.get("to").getValueNode());
        String slo = oneLine(m.get("slo").getValueNode(), "slo");
        Duration hold = m.containsKey("hold") ? duration(m.get("hold").getValueNode()) : Duration.ofSeconds(10);
        Duration settle = m.containsKey("settle") ? duration(m.get("settle").getValueNode()) : hold.dividedBy(5);
        try {
            double precision = m.containsKey("precision")
                    ? RatePlan.Search.parsePrecision(scalar(m.get("precision").getValueNode(), "precision")) : 0.02;
            return RatePlan.Search.of(from, to, slo, hold, settle, precision);
        } catch (SettingException e) {
            NodeTuple at = m.get(e.setting());
            throw new ScenarioException(source, line(at != null ? at.getValueNode() : node), e.getMessage());
        }
    }

    private RatePlan.Steps steps(Node node) {
        Map<String, NodeTuple> m = mapping(node, "steps", Set.of("from", "to", "by", "every"));
        for (String k : List.of("from", "to", "by", "every")) {
            if (!m.containsKey(k)) {
                throw new ScenarioException(source, line(node),
                        "steps need '" + k + "': steps: {from: 1000, to: 10000, by: 1000, every: 10s}");
            }
        }
        double from = plainRate(m.get("from").getValueNode());
        double to = plainRate(m.get("to").getValueNode());
        double by = plainRate(m.get("by").getValueNode());
        Duration every = duration(m.get("every").getValueNode());
        if (Math.abs(to - from) / by >= Integer.MAX_VALUE) { // count() would overflow
            throw new ScenarioException(source, line(node), "steps from " + plain(from) + " to " + plain(to) + " by "
                    + plain(by) + " are more than " + Integer.MAX_VALUE + " steps; take larger ones (or a ramp)");
        }
        return new RatePlan.Steps(from, to, to >= from ? by : -by, every);
    }

    private static String plain(double rate) {
        return java.math.BigDecimal.valueOf(rate).stripTrailingZeros().toPlainString();
    }

    /** A rate without strictness: 1000, 2.5k. */
    private double plainRate(Node node) {
        String text = scalar(node, "rate");
        if (text.contains(",")) {
            throw new ScenarioException(source, line(node), "'" + text + "': here a rate takes no strictness; set "
                    + "'strictness' on the phase");
        }
        try {
            return RateSpec.parse(text).opsPerSecond();
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(source, line(node), e.getMessage());
        }
    }

    private Duration duration(Node node) {
        try {
            return Durations.parsePositive(scalar(node, "duration"), "duration");
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(source, line(node), e.getMessage());
        }
    }

    private int threads(Node node) {
        String text = scalar(node, "threads");
        try {
            int n = Integer.parseInt(text);
            if (n < 1) {
                throw new SettingException("threads", text, "must be at least 1");
            }
            return n; // the most a run allows depends on its kind of thread: checked when it starts (ScenarioRunner)
        } catch (NumberFormatException e) {
            throw new ScenarioException(source, line(node), "invalid threads '" + text + "': expected a whole number");
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(source, line(node), e.getMessage());
        }
    }

    private double strictness(Node node) {
        String text = scalar(node, "strictness");
        try {
            double value = NumberText.parsePlain(text).doubleValue();
            return RateSpec.of(1).withStrictness(value).strictness();
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(source, line(node), "invalid strictness '" + text
                    + "': expected a number between 0 and 100");
        }
    }

    private boolean bool(Node node, String what) {
        String text = scalar(node, what);
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ScenarioException(source, line(node), "invalid " + what + " '" + text + "': expected "
                    + "true or false");
        };
    }

    private List<String> values(Node node, String what) {
        if (node instanceof SequenceNode seq) {
            List<String> out = new ArrayList<>();
            for (Node n : seq.getValue()) {
                out.add(scalar(n, what));
            }
            return out;
        }
        if (node instanceof MappingNode map) { // headers: {Content-Type: application/json}
            List<String> out = new ArrayList<>();
            for (NodeTuple t : map.getValue()) {
                out.add(scalar(t.getKeyNode(), what) + ": " + scalar(t.getValueNode(), what));
            }
            return out;
        }
        return List.of(scalar(node, what));
    }

    private String oneLine(Node node, String what) {
        String text = scalar(node, what);
        if (text.contains("\n")) {
            throw new ScenarioException(source, line(node), "'" + what + "' must fit on one line");
        }
        return text.strip();
    }

    private String scalar(Node node, String what) {
        if (!(node instanceof ScalarNode s)) {
            throw new ScenarioException(source, line(node), "'" + what + "' must be a single value, not a "
                    + (node instanceof MappingNode ? "mapping" : "list"));
        }
        return s.getValue().strip();
    }

    private Map<String, NodeTuple> mapping(Node node, String what, Set<String> allowed) {
        if (!(node instanceof MappingNode map)) {
            throw new ScenarioException(source, line(node), what + " must be a mapping of keys (key: value)");
        }
        Map<String, NodeTuple> out = new HashMap<>();
        for (NodeTuple t : map.getValue()) {
            String key = scalar(t.getKeyNode(), "key");
            if (!allowed.contains(key)) {
                throw new ScenarioException(source, line(t.getKeyNode()), "unknown key '" + key + "' in " + what
                        + " (expected: " + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
            }
            if (out.put(key, t) != null) {
                throw new ScenarioException(source, line(t.getKeyNode()), "duplicate key '" + key + "' in " + what);
            }
        }
        return out;
    }

    private static Set<String> keys(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    private String defaultName() {
        String file = Path.of(source).getFileName().toString();
        return file.endsWith(".yaml") ? file.substring(0, file.length() - 5) : file;
    }

    private static int line(Node node) {
        return node.getStartMark() == null ? 1 : node.getStartMark().getLine() + 1;
    }
}
