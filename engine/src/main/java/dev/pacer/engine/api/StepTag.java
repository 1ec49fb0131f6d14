package dev.pacer.engine.api;

/**
 * The tag of a multi-step named op's histogram of one step's service time in .hlog files: {@code service.}, the op's
 * name, {@code #} and the step's number from 1 ({@code service.checkout#2}). An op's name holds no {@code #}, so the
 * tag is neither a metric's nor an {@link OpTag}; a reader that does not know it sees a histogram of another tag.
 *
 * @param op   the op's name
 * @param step the step's number, from 1
 */
public record StepTag(String op, int step) {

    private static final String PREFIX = Metric.SERVICE.tag() + ".";

    /** {@code service.checkout#2}: the tag of step {@code step} (from 1) of {@code op}. */
    public static String of(String op, int step) {
        return PREFIX + op + "#" + step;
    }

    /** This tag as written. */
    public String tag() {
        return of(op, step);
    }

    /** The step tag {@code tag} is, or null when it is none. */
    public static StepTag parse(String tag) {
        int hash = tag.lastIndexOf('#');
        if (!tag.startsWith(PREFIX) || hash <= PREFIX.length() || hash == tag.length() - 1) {
            return null;
        }
        try {
            int step = Integer.parseInt(tag.substring(hash + 1));
            return step >= 1 ? new StepTag(tag.substring(PREFIX.length(), hash), step) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
