package dev.pacer.engine.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one op run came to: a label ({@code ok}, {@code 2xx}, {@code timeout}, an exception's simple
 * name) and whether it counts as an error.
 *
 * <p>Outcomes are interned: one instance per label, each with a small dense {@link #id()} that
 * workers use to count them in a plain array, so reporting an outcome allocates nothing. Create the
 * outcomes an op can return once, when the op is created, not per run.
 */
public final class Outcome {

    private static final ConcurrentHashMap<String, Outcome> BY_LABEL = new ConcurrentHashMap<>();
    private static final List<Outcome> BY_ID = new ArrayList<>();

    /** The op completed normally. Returning {@code null} from {@link Op#run(long)} means the same. */
    public static final Outcome OK = of("ok", false);
    /**
     * The op was still running when the run ended and its grace period passed: it is counted (it
     * started), as an error, with the time it had been running as its service time.
     */
    public static final Outcome CANCELLED = of("cancelled", true);
    /**
     * The op was due (its slot scheduled) but never started: the run ended while it waited for a free
     * in-flight slot (e.g. every connection held by a server that does not answer). Counted as an error, with
     * the wait it had reached at the end and no service time.
     */
    public static final Outcome NOT_SENT = of("not-sent", true);

    private static final ClassValue<Outcome> FOR_THROWABLE = new ClassValue<>() {
        @Override
        protected Outcome computeValue(Class<?> type) {
            return of(type.getSimpleName().isEmpty() ? type.getName() : type.getSimpleName(), true);
        }
    };

    private final int id;
    private final String label;
    private final boolean error;

    private Outcome(int id, String label, boolean error) {
        this.id = id;
        this.label = label;
        this.error = error;
    }

    /**
     * The outcome with this label, created on first use. A label is either always an error or never:
     * asking for an existing label with the other error flag is refused.
     */
    public static Outcome of(String label, boolean error) {
        Objects.requireNonNull(label, "label");
        Outcome o = BY_LABEL.computeIfAbsent(label, l -> {
            synchronized (BY_ID) {
                Outcome created = new Outcome(BY_ID.size(), l, error);
                BY_ID.add(created);
                return created;
            }
        });
        if (o.error != error) {
            throw new IllegalArgumentException("outcome '" + label + "' already exists with error=" + o.error);
        }
        return o;
    }

    /**
     * The error outcome for a throwable: its class's simple name. Cached per class; allocates nothing after the first.
     */
    public static Outcome forThrowable(Throwable t) {
        return FOR_THROWABLE.get(t.getClass());
    }

    /** The outcome with this id. */
    public static Outcome byId(int id) {
        synchronized (BY_ID) {
            return BY_ID.get(id);
        }
    }

    /** How many outcomes exist; ids are {@code 0 .. count()-1}. */
    public static int count() {
        synchronized (BY_ID) {
            return BY_ID.size();
        }
    }

    public int id() {
        return id;
    }

    public String label() {
        return label;
    }

    public boolean isError() {
        return error;
    }

    @Override
    public String toString() {
        return label + (error ? " (error)" : "");
    }
}
