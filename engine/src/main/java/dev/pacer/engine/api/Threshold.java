package dev.pacer.engine.api;

import dev.pacer.ratelimit.api.DurationText;
import dev.pacer.ratelimit.api.NumberText;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pass/fail gate on what a run measured, for CI pipelines: {@code response.p99<20ms}.
 *
 * <h2>Grammar</h2>
 * <pre>
 *   gate    = subject op value
 *   op      = "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 *   subject = (wait|service|response) "." (p50|p75|p90|p99|p99.9|p99.99|p999|p9999|max|mean|min)
 *           | achieved | target            ops/s; value: a number, or FACTOR*target
 *           | ops                          ops completed; value: a number
 *           | errors                       value: a count, or a percentage of ops (0.1%)
 *   latency values are durations (DurationText: 20ms, 500us, 1s); numbers take k, M, G (NumberText: 20k)
 * </pre>
 * Examples: {@code response.p99<20ms}, {@code wait.max<=1s}, {@code achieved>=0.99*target},
 * {@code errors<0.1%}, {@code errors==0} is written {@code errors<1}.
 */
public final class Threshold {

    private static final Pattern GATE =
            Pattern.compile("\\s*([a-zA-Z]+(?:\\.[a-zA-Z0-9.]+)?)\\s*(<=|>=|<|>)\\s*(\\S.*?)\\s*");
    private static final Pattern TIMES_TARGET = Pattern.compile("(\\S+?)\\s*\\*\\s*target");

    private enum Kind { LATENCY, ACHIEVED, TARGET, OPS, ERRORS, ERROR_PERCENT }

    private final String text;
    private final Kind kind;
    private final Metric metric;
    private final String stat;
    private final String op;
    private final double value;
    private final boolean timesTarget;

    private Threshold(String text, Kind kind, Metric metric, String stat, String op, double value,
            boolean timesTarget) {
        this.text = text;
        this.kind = kind;
        this.metric = metric;
        this.stat = stat;
        this.op = op;
        this.value = value;
        this.timesTarget = timesTarget;
    }

    /** Gates joined by {@code and} (or {@code &&}), as a knee search's SLO is written; each as {@link #parse}. */
    public static java.util.List<Threshold> parseAll(String slo) {
        return java.util.Arrays.stream(slo.split("(?i)\\s+and\\s+|\\s*&&\\s*"))
                .map(String::strip).filter(s -> !s.isEmpty()).map(Threshold::parse).toList();
    }

    /** Parses a gate; throws a {@link SettingException} ({@code threshold}) naming it. */
    public static Threshold parse(String text) {
        Matcher m = GATE.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw bad(text, "expected SUBJECT OP VALUE, e.g. 'response.p99<20ms', 'achieved>=0.99*target' or "
                    + "'errors<0.1%'");
        }
        String subject = m.group(1).toLowerCase(Locale.ROOT);
        String op = m.group(2);
        String rhs = m.group(3);
        if (rhs.toLowerCase(Locale.ROOT).contains(" and ")) {
            throw bad(text, "one gate per threshold: give it once for each ('and' joins gates in a search's SLO only)");
        }
        if ("<>=".indexOf(rhs.charAt(0)) >= 0) {
            throw bad(text, "one comparison between subject and value: <, <=, > or >=");
        }
        int dot = subject.indexOf('.');
        if (dot > 0) {
            Metric metric = Metric.ofTag(subject.substring(0, dot));
            String stat = stat(subject.substring(dot + 1));
            if (metric == null || stat == null) {
                throw bad(text, "unknown subject '" + subject + "' "
                        + "((wait|service|response).(p50|p75|p90|p99|p99.9|p99.99|max|mean|min), or achieved, "
                        + "target, ops, errors)");
            }
            Duration latency;
            try {
                latency = DurationText.parse(rhs);
            } catch (IllegalArgumentException e) {
                String why = e.getMessage();
                throw bad(text, "'" + rhs + "' " + (why.equals(DurationText.TOO_LONG) ? why : "is not a latency: "
                        + why));
            }
            if (latency.isNegative()) {
                throw bad(text, "'" + rhs + "' must not be negative");
            }
            return new Threshold(text, Kind.LATENCY, metric, stat, op, latency.toNanos(), false);
        }
        switch (subject) {
            case "achieved", "target" -> {
                Kind kind = subject.equals("achieved") ? Kind.ACHIEVED : Kind.TARGET;
                Matcher t = TIMES_TARGET.matcher(rhs);
                if (t.matches()) {
                    return new Threshold(text, kind, null, null, op, number(text, t.group(1), rhs), true);
                }
                return new Threshold(text, kind, null, null, op, number(text, rhs, rhs), false);
            }
            case "ops" -> {
                return new Threshold(text, Kind.OPS, null, null, op, number(text, rhs, rhs), false);
            }
            case "errors" -> {
                if (rhs.endsWith("%")) {
                    String percentText = rhs.substring(0, rhs.length() - 1).trim();
                    double percent = number(text, percentText, percentText);
                    if (percent > 100) {
                        throw bad(text, "'" + rhs + "' is over 100 % of the ops: a percentage from 0 to 100");
                    }
                    return new Threshold(text, Kind.ERROR_PERCENT, null, null, op, percent, false);
                }
                return new Threshold(text, Kind.ERRORS, null, null, op, number(text, rhs, rhs), false);
            }
            default -> throw bad(text, "unknown subject '" + subject
                    + "' (wait.*, service.*, response.*, achieved, target, ops, errors)");
        }
    }

    /** Evaluates the gate against what a run (or a window of its logs) measured. */
    public ThresholdResult evaluate(RunFigures s) {
        double actual;
        String shown;
        double limit = value;
        switch (kind) {
            case LATENCY -> {
                LatencySummary l = s.latencies().get(metric);
                if (l == null || l.count() == 0) { // a latency of no op is not met: it would read 0ns
                    actual = Double.NaN;
                    shown = "no op measured";
                } else {
                    actual = switch (stat) {
                        case "max" -> l.max();
                        case "min" -> l.min();
                        case "mean" -> l.mean();
                        default -> l.at(stat);
                    };
                    shown = Durations.format(actual);
                }
            }
            case ACHIEVED, TARGET -> {
                actual = kind == Kind.ACHIEVED ? s.achievedRate() : s.targetRate();
                shown = Double.isNaN(actual) ? "no target (unpaced)" : String.format("%.1f ops/s", actual);
                if (timesTarget) {
                    limit = value * s.targetRate();
                    shown += Double.isNaN(limit) ? "" : String.format(" vs %.1f", limit);
                }
            }
            case OPS -> {
                actual = s.ops();
                shown = Long.toString(s.ops());
            }
            case ERRORS -> {
                actual = s.errors();
                shown = Long.toString(s.errors());
            }
            default -> {
                actual = s.ops() == 0 ? 0 : 100.0 * s.errors() / s.ops();
                shown = String.format("%.4f%%", actual);
            }
        }
        boolean passed = !Double.isNaN(actual) && !Double.isNaN(limit) && switch (op) {
            case "<" -> actual < limit;
            case "<=" -> actual <= limit;
            case ">" -> actual > limit;
            default -> actual >= limit;
        };
        return new ThresholdResult(text, passed, shown);
    }

    @Override
    public String toString() {
        return text;
    }

    private static String stat(String s) {
        return switch (s) {
            case "max", "min", "mean" -> s;
            case "p999" -> "99.9";
            case "p9999" -> "99.99";
            default -> {
                if (!s.startsWith("p")) {
                    yield null;
                }
                try {
                    String label = LatencySummary.label(new BigDecimal(s.substring(1)).doubleValue());
                    for (double q : LatencySummary.PERCENTILES) {
                        if (LatencySummary.label(q).equals(label)) {
                            yield label;
                        }
                    }
                    yield null;
                } catch (NumberFormatException e) {
                    yield null;
                }
            }
        };
    }

    /** {@code value} as {@link NumberText} reads it, at least 0; a refusal names {@code named}. */
    private static double number(String text, String value, String named) {
        BigDecimal n;
        try {
            n = NumberText.parse(value);
        } catch (IllegalArgumentException e) {
            throw bad(text, "'" + named + "' is not a number: " + e.getMessage());
        }
        if (n.signum() < 0) {
            throw bad(text, "'" + named + "' must not be negative");
        }
        double d = n.doubleValue();
        if (Double.isInfinite(d)) {
            throw bad(text, "'" + named + "' is too large");
        }
        return d;
    }

    private static SettingException bad(String text, String why) {
        return new SettingException("threshold", text, why);
    }
}
