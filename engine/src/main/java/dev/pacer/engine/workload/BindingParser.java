package dev.pacer.engine.workload;

import dev.pacer.engine.api.Durations;
import dev.pacer.engine.workload.Fn.LongFn;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Compiles one binding's text, {@code source(args) | stage(args) | ...}, into an {@link Fn}: a closed set of
 * functions, each argument checked here. A problem throws {@link IllegalArgumentException} with what is wrong;
 * the workload parser adds the file and line.
 */
final class BindingParser {

    static final Set<String> SOURCES = Set.of("seq", "uniform", "double", "zipf", "exponential", "gaussian",
            "permute", "hash", "uuid", "pick", "csv", "extract", "alnum", "timestamp");
    static final Set<String> STAGES = Set.of("add", "mul", "div", "mod", "permute", "hash");
    /** The largest text file a csv or extract binding loads. */
    static final long MAX_FILE = 256L << 20;

    /** A call: a function name and its raw arguments. */
    record Call(String name, List<String> args) {
    }

    private final Path base;
    private final Map<Path, Object> files;
    /** Every file a binding read, resolved, in the order first read. */
    private final Set<Path> read = new LinkedHashSet<>();

    /**
     * @param base  the directory relative file names are resolved against (the workload file's)
     * @param files files already loaded (CsvTable or byte[]), shared by the bindings of one workload
     */
    BindingParser(Path base, Map<Path, Object> files) {
        this.base = base;
        this.files = files;
    }

    Fn compile(String text, long salt) {
        List<Call> calls = calls(text);
        Call first = calls.get(0);
        Fn fn = source(first, salt);
        for (int i = 1; i < calls.size(); i++) {
            Call c = calls.get(i);
            if (!STAGES.contains(c.name)) {
                throw new IllegalArgumentException(SOURCES.contains(c.name)
                        ? "'" + c.name + "' starts a binding; after '|' come only " + String.join(", ", sorted(STAGES))
                        : "unknown function '" + c.name + "' (after '|': " + String.join(", ", sorted(STAGES)) + ")");
            }
            if (!(fn instanceof LongFn in)) {
                throw new IllegalArgumentException("'" + c.name + "' needs whole numbers, but its input is "
                        + fn.kind().name().toLowerCase(Locale.ROOT));
            }
            fn = stage(c, in, CycleRandom.mix(salt + i));
        }
        return fn;
    }

    private static List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }

    /** Splits {@code f(a, b) | g | h(c)} into calls; arguments may be quoted with ' or ". */
    static List<Call> calls(String text) {
        List<Call> out = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (true) {
            while (i < n && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                i++;
            }
            String name = text.substring(start, i);
            if (name.isEmpty()) {
                throw new IllegalArgumentException(i >= n ? "expected a function such as uniform(1, 100)"
                        : "expected a function name at '" + text.substring(i) + "'");
            }
            List<String> args = new ArrayList<>();
            while (i < n && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i < n && text.charAt(i) == '(') {
                i = args(text, i + 1, args, name);
            }
            out.add(new Call(name, args));
            while (i < n && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i == n) {
                return out;
            }
            if (text.charAt(i) != '|') {
                throw new IllegalArgumentException("expected '|' or the end after " + name + "(...), found '"
                        + text.substring(i) + "'");
            }
            i++;
        }
    }

    private static int args(String text, int i, List<String> args, String name) {
        int n = text.length();
        StringBuilder arg = new StringBuilder();
        boolean any = false;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                int end = text.indexOf(c, i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("a quoted argument of " + name + " is not closed");
                }
                arg.append(text, i + 1, end);
                any = true;
                i = end + 1;
            } else if (c == ',' || c == ')') {
                String a = arg.toString().strip();
                if (a.isEmpty() && !any && !(c == ')' && args.isEmpty())) {
                    throw new IllegalArgumentException(name + "(...) has an empty argument");
                }
                if (!a.isEmpty() || any) {
                    args.add(a);
                }
                arg.setLength(0);
                any = false;
                i++;
                if (c == ')') {
                    return i;
                }
            } else {
                arg.append(c);
                i++;
            }
        }
        throw new IllegalArgumentException(name + "( has no closing ')'");
    }

    private Fn source(Call c, long salt) {
        List<String> a = c.args;
        return switch (c.name) {
            case "seq" -> {
                arity(c, 0, 0);
                yield new Fns.Seq(salt);
            }
            case "hash" -> {
                arity(c, 0, 0);
                yield new Fns.Hash(salt);
            }
            case "uniform" -> {
                arity(c, 2, 2);
                long lo = whole(c, a.get(0));
                long hi = whole(c, a.get(1));
                order(c, lo, hi);
                yield new Fns.Uniform(salt, lo, hi);
            }
            case "double" -> {
                arity(c, 2, 2);
                double lo = real(c, a.get(0));
                double hi = real(c, a.get(1));
                if (!(lo < hi) || !Double.isFinite(hi - lo)) {
                    throw new IllegalArgumentException("double(lo, hi) needs lo < hi, got " + a);
                }
                yield new Fns.UniformDouble(salt, lo, hi);
            }
            case "zipf" -> {
                arity(c, 2, 2);
                long n = whole(c, a.get(0));
                double s = real(c, a.get(1));
                if (n < 1) {
                    throw new IllegalArgumentException("zipf(n, s) needs n ≥ 1, got " + a.get(0));
                }
                if (!(s > 0) || !Double.isFinite(s)) {
                    throw new IllegalArgumentException("zipf(n, s) needs an exponent s > 0, got " + a.get(1));
                }
                yield new Fns.Zipf(salt, n, s);
            }
            case "exponential", "gaussian" -> {
                arity(c, 3, 3);
                long lo = whole(c, a.get(0));
                long hi = whole(c, a.get(1));
                order(c, lo, hi);
                if (hi - lo < 0 || hi - lo == Long.MAX_VALUE) { // hi − lo + 1 values must fit a long, as in pgbench
                    throw new IllegalArgumentException(c.name + "(lo, hi, p) takes at most 2^63 − 1 values, got ["
                            + a.get(0) + ", " + a.get(1) + "]: narrow the range");
                }
                double p = real(c, a.get(2));
                if (c.name.equals("exponential") && !(p > 0 && Double.isFinite(p))) {
                    throw new IllegalArgumentException("exponential(lo, hi, p) needs p > 0, got " + a.get(2));
                }
                if (c.name.equals("gaussian") && !(p >= 2 && Double.isFinite(p))) {
                    throw new IllegalArgumentException("gaussian(lo, hi, p) needs p ≥ 2 (as pgbench), got " + a.get(2));
                }
                yield c.name.equals("exponential") ? new Fns.Exponential(salt, lo, hi, p) : new Fns.Gaussian(salt, lo,
                        hi, p);
            }
            case "permute" -> {
                arity(c, 1, 1);
                long n = whole(c, a.get(0));
                if (n < 1 || n > 1L << 62) {
                    throw new IllegalArgumentException("permute(n) needs n from 1 to 2^62, got " + a.get(0));
                }
                yield new Fns.Permute(new Fns.Mod(new Fns.Seq(salt), n), salt);
            }
            case "timestamp" -> {
                arity(c, 2, 2);
                long start = instant(c, a.get(0));
                long step = stepMillis(c, a.get(1));
                long hi;
                try {
                    hi = Math.addExact(start, Math.multiplyExact(Fns.CYCLE_LIMIT - 1, step));
                } catch (ArithmeticException e) {
                    throw new IllegalArgumentException("timestamp(" + a.get(0) + ", " + a.get(1) + ") overflows");
                }
                yield new Fns.Timestamp(salt, start, step, hi);
            }
            case "uuid" -> {
                arity(c, 0, 0);
                yield new Fns.Uuid(salt);
            }
            case "alnum" -> {
                arity(c, 2, 2);
                int lo = length(c, a.get(0));
                int hi = length(c, a.get(1));
                order(c, lo, hi);
                yield new Fns.Alnum(salt, lo, hi);
            }
            case "pick" -> pick(c, salt);
            case "csv" -> csv(c, salt);
            case "extract" -> {
                arity(c, 3, 3);
                byte[] text = file(c, a.get(0), false);
                int lo = length(c, a.get(1));
                int hi = length(c, a.get(2));
                order(c, lo, hi);
                if (text.length == 0) {
                    throw new IllegalArgumentException("extract: " + a.get(0) + " is empty");
                }
                if (lo > text.length) { // was cut to the file's length without a word
                    throw new IllegalArgumentException("extract: " + a.get(0) + " has " + text.length + " bytes, "
                            + "fewer than the shortest slice, " + lo);
                }
                yield new CsvTable.Extract(salt, text, lo, hi);
            }
            default -> throw new IllegalArgumentException("unknown function '" + c.name + "' (known: "
                    + String.join(", ", sorted(SOURCES)) + ")");
        };
    }

    private Fn stage(Call c, LongFn in, long salt) {
        List<String> a = c.args;
        try {
            return switch (c.name) {
                case "add", "mul", "div", "mod" -> {
                    arity(c, 1, 1);
                    long k = whole(c, a.get(0));
                    if ((c.name.equals("div") || c.name.equals("mod")) && k <= 0) {
                        throw new IllegalArgumentException(c.name + "(k) needs k > 0, got " + a.get(0));
                    }
                    yield switch (c.name) {
                        case "add" -> new Fns.Add(in, k);
                        case "mul" -> new Fns.Mul(in, k);
                        case "div" -> new Fns.Div(in, k);
                        default -> new Fns.Mod(in, k);
                    };
                }
                case "hash" -> {
                    arity(c, 0, 0);
                    yield new Fns.HashOf(in, salt);
                }
                default -> { // permute
                    arity(c, 0, 1);
                    if (!a.isEmpty() && whole(c, a.get(0)) < 1) {
                        throw new IllegalArgumentException("| permute(n) needs n from 1 to 2^62, got " + a.get(0));
                    }
                    LongFn input = a.isEmpty() ? in : new Fns.Mod(in, whole(c, a.get(0)));
                    if (input.hi - input.lo < 0 || input.hi - input.lo >= 1L << 62) {
                        throw new IllegalArgumentException("permute needs a range of at most 2^62 values; its input "
                                + "spans ["
                                + input.lo + ", " + input.hi + "]: give permute(n)");
                    }
                    yield new Fns.Permute(input, salt);
                }
            };
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(c.name + "(" + String.join(", ", a) + ") overflows over its input's "
                    + "range ["
                    + in.lo + ", " + in.hi + "]");
        }
    }

    private Fn pick(Call c, long salt) {
        if (c.args.isEmpty()) {
            throw new IllegalArgumentException("pick needs choices with weights, e.g. pick(a:70, b:30)");
        }
        byte[][] labels = new byte[c.args.size()][];
        long[] weights = new long[c.args.size()];
        long sum = 0;
        for (int i = 0; i < labels.length; i++) {
            String arg = c.args.get(i);
            int colon = arg.lastIndexOf(':');
            String label = colon < 0 ? arg : arg.substring(0, colon).strip();
            long w = colon < 0 ? 1 : whole(c, arg.substring(colon + 1).strip());
            if (w < 1) {
                throw new IllegalArgumentException("pick: the weight of '" + label + "' must be ≥ 1, got " + w);
            }
            for (int j = 0; j < i; j++) {
                if (java.util.Arrays.equals(labels[j], label.getBytes(StandardCharsets.UTF_8))) {
                    throw new IllegalArgumentException("pick: label '" + label + "' is given twice; give it once, with "
                            + "the sum of its weights");
                }
            }
            if (sum > Long.MAX_VALUE - w) {
                throw new IllegalArgumentException("pick: the weights add up past " + Long.MAX_VALUE
                        + "; scale them down");
            }
            labels[i] = label.getBytes(StandardCharsets.UTF_8);
            weights[i] = w;
            sum += w;
        }
        return new Fns.Pick(salt, labels, weights);
    }

    /** The bytes as UTF-8 text, refused (naming the first bad byte's offset) when they are not UTF-8. */
    static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes); // decoded again, up to the first bad byte
            StandardCharsets.UTF_8.newDecoder().decode(in, java.nio.CharBuffer.allocate(bytes.length), true);
            throw new IllegalArgumentException("is not UTF-8 text (byte " + in.position() + "); save it as UTF-8");
        }
    }

    private Fn csv(Call c, long salt) {
        arity(c, 2, 3);
        Path path = base.resolve(c.args.get(0)).normalize();
        CsvTable table = (CsvTable) files.get(path);
        if (table == null) {
            byte[] bytes = file(c, c.args.get(0), true);
            try {
                table = CsvTable.parse(utf8(bytes));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("csv: " + c.args.get(0) + ": " + e.getMessage());
            }
            files.put(path, table);
        }
        int column = table.header.indexOf(c.args.get(1));
        if (column < 0) {
            throw new IllegalArgumentException("csv: " + c.args.get(0) + " has no column '" + c.args.get(1)
                    + "' (its columns: " + String.join(", ", table.header) + ")");
        }
        CsvTable.Pick pick = CsvTable.Pick.HASH;
        if (c.args.size() == 3) {
            try {
                pick = CsvTable.Pick.valueOf(c.args.get(2).toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("csv: pick '" + c.args.get(2) + "' is not one of hash, seq, "
                        + "shuffle, once");
            }
        }
        return new CsvTable.Column(salt, table, column, pick);
    }

    /** The files the bindings compiled so far read ({@code csv()}, {@code extract()}), resolved. */
    Set<Path> filesRead() {
        return Set.copyOf(read);
    }

    private byte[] file(Call c, String name, boolean csv) {
        Path path = base.resolve(name).normalize();
        read.add(path);
        try {
            if (!Files.isRegularFile(path)) {
                throw new IllegalArgumentException(c.name + ": no such file " + path);
            }
            if (Files.size(path) > MAX_FILE) {
                throw new IllegalArgumentException(c.name + ": " + path + " is over 256 MB");
            }
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new IllegalArgumentException(c.name + ": cannot read " + path + ": " + e.getMessage());
        }
    }

    private static void arity(Call c, int min, int max) {
        int n = c.args.size();
        if (n < min || n > max) {
            String want = min == max ? min + " argument" + (min == 1 ? "" : "s") : min + " to " + max + " arguments";
            throw new IllegalArgumentException(c.name + " takes " + want + ", got " + n);
        }
    }

    private static void order(Call c, long lo, long hi) {
        if (lo > hi) {
            throw new IllegalArgumentException(c.name + " needs its lower bound ≤ its upper one, got " + lo + " > "
                    + hi);
        }
    }

    static long whole(Call c, String text) {
        try {
            return new BigDecimal(text.replace("_", "")).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(c.name + ": '" + text + "' is not a whole number");
        }
    }

    private static int length(Call c, String text) {
        long v = whole(c, text);
        if (v < 0 || v > 1 << 20) {
            throw new IllegalArgumentException(c.name + ": a length from 0 to 1048576, got " + text);
        }
        return (int) v;
    }

    private static double real(Call c, String text) {
        try {
            double v = Double.parseDouble(text);
            if (Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(c.name + ": '" + text + "' is not a number");
    }

    private static long instant(Call c, String text) {
        if (text.matches("-?[0-9_]+")) {
            return whole(c, text);
        }
        try {
            return Instant.parse(text).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(c.name + ": '" + text
                    + "' is neither epoch milliseconds nor an instant such as 2026-01-01T00:00:00Z");
        }
    }

    private static long stepMillis(Call c, String text) {
        if (text.matches("[0-9_]+")) {
            return whole(c, text);
        }
        try {
            return Durations.parse(text, "step").toMillis();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(c.name + ": step '" + text + "' is neither milliseconds nor a duration "
                    + "such as 1s");
        }
    }
}
