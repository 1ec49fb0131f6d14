package dev.pacer.engine.api;

/**
 * The tag of a named op's histogram in .hlog files: a metric's tag, a dot and the op's name ({@code wait.browse},
 * {@code response.add-to-cart}), beside the run's totals tagged {@code wait}, {@code service}, {@code response}.
 * A reader that does not know these tags sees histograms of other tags, which HdrHistogram's tools read as any.
 *
 * @param metric which of the three latencies
 * @param op     the op's name (an {@link dev.pacer.engine.op.OpMix} name: no comma, no space)
 */
public record OpTag(Metric metric, String op) {

    /** {@code wait.browse}: the tag of {@code op}'s histogram of {@code metric}. */
    public static String of(Metric metric, String op) {
        return metric.tag() + "." + op;
    }

    /**
     * {@code service.checkout#2}: the tag of a multi-step op's histogram of step {@code step}'s (from 1) service time.
     * No op's name holds a {@code #}, so {@link #parse} takes it for none of its tags, and a reader that does not
     * know it sees a histogram of another tag.
     */
    public static String ofStep(String op, int step) {
        return Metric.SERVICE.tag() + "." + op + "#" + step;
    }

    /** This tag as written. */
    public String tag() {
        return of(metric, op);
    }

    /** The op tag {@code tag} is, or null when it is none (a total's tag, another tool's). */
    public static OpTag parse(String tag) {
        int dot = tag.indexOf('.'); // a metric's tag has no dot; an op's name may
        if (dot < 0 || dot == tag.length() - 1 || tag.indexOf('#') >= 0) { // an op's name has no #: a step's
            return null;
        }
        Metric m = Metric.ofTag(tag.substring(0, dot));
        return m == null ? null : new OpTag(m, tag.substring(dot + 1));
    }
}
