package dev.pacer.engine.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * SIGINT, SIGTERM and SIGHUP (the terminal closed, an ssh session dropped), for the length of one run or one
 * {@code pg-init}: each is handed to a stop action by its name ({@code SIGINT}, {@code SIGTERM} or {@code SIGHUP}),
 * on the JVM's signal thread, as often as it comes. A run's action stops its activity: the first starts the grace
 * period for ops in flight, a second ends it at once; the run then writes its summary and files and returns normally,
 * and the caller exits as it sees fit (the CLI with 128 + the signal's number). {@link #close()} puts the previous
 * handlers back.
 *
 * <p>Uses {@code sun.misc.Signal} (module {@code jdk.unsupported}), the one way a JVM program handles a
 * signal more than once: a shutdown hook runs once and cannot be told of a second Ctrl-C. Where a
 * signal cannot be handled (a JVM started with {@code -Xrs}), it is left to the JVM; one ignored when the JVM
 * started ({@code nohup}) stays ignored.
 */
@SuppressWarnings("sunapi") // deliberate: see the class doc
public final class SignalStop implements AutoCloseable {

    private static final String[] SIGNALS = {"INT", "TERM", "HUP"};

    private final List<sun.misc.Signal> signals = new ArrayList<>();
    private final List<sun.misc.SignalHandler> previous = new ArrayList<>();

    /** Hands each of the three signals, by name, to {@code stop} until {@link #close()}. */
    public SignalStop(Consumer<String> stop) {
        for (String name : SIGNALS) {
            sun.misc.Signal signal = new sun.misc.Signal(name);
            try {
                previous.add(sun.misc.Signal.handle(signal, s -> stop.accept("SIG" + s.getName())));
                signals.add(signal);
            } catch (IllegalArgumentException e) {
                // the JVM keeps this signal for itself: its default handling applies
            }
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            sun.misc.Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
