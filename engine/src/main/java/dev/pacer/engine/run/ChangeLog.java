package dev.pacer.engine.run;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.RunClock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * An activity's changes and the listeners told of each (progress output, .hlog comment, summary).
 *
 * <h2>Threads</h2>
 * Control threads (console, HTTP control, scenario, signal, API) record changes, each while it holds the
 * activity's lock ({@code lock}); any thread adds a listener or reads the changes. A listener is called on the
 * thread that made the change, under the lock.
 *
 * <h2>Shared fields</h2>
 * {@code changes}: in time order, written under the lock by {@link #record(Change)} (appended, but for a phase's
 * marker, which the reporter records at its cut after a change a control thread may have made just past it, and
 * which goes in before that change); read by any thread (a copy-on-write list: a reader sees the changes as they
 * were after some record). {@code listeners}: appended by any thread (copy-on-write);
 * {@link #record(Change)} iterates it under the lock, and {@link #addListenerWithHistory} replays the changes
 * and appends under the lock too, so a listener added that way sees every change exactly once.
 */
final class ChangeLog {

    /** The activity's lock: every change is recorded under it. */
    private final Object lock;
    private final RunClock clock;
    private final RunTimeline timeline;
    private final List<Change> changes = new CopyOnWriteArrayList<>();
    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();

    ChangeLog(Object lock, RunClock clock, RunTimeline timeline) {
        this.lock = lock;
        this.clock = clock;
        this.timeline = timeline;
    }

    /** Called with every change from now on, on the thread that made it. */
    void addListener(Consumer<Change> listener) {
        listeners.add(listener);
    }

    /**
     * Called first with every change made so far, then with every later one: no change is missed or
     * seen twice, however the two race. Takes the lock.
     */
    void addListenerWithHistory(Consumer<Change> listener) {
        synchronized (lock) {
            changes.forEach(listener);
            listeners.add(listener);
        }
    }

    /** Every change so far, in time order. */
    List<Change> changes() {
        return List.copyOf(changes);
    }

    /** Records a knee search's probe (a marker, not a setting). Takes the lock. */
    Change markProbe(String text, String source) {
        synchronized (lock) {
            return record(ChangeKind.PROBE, text, source);
        }
    }

    /**
     * Records the start of a scenario phase (a marker, not a setting) at {@code atNanos}: the reporter's
     * cut there, so the marker and the interval bound agree (not before the run's start). Takes the lock.
     */
    Change markPhase(String label, String source, long atNanos) {
        synchronized (lock) {
            long at = timeline.notBeforeStart(atNanos);
            return record(new Change(at, timeline.secondsAt(at), ChangeKind.PHASE, label, source, ""));
        }
    }

    /** Records a change made now (see {@link #record(Change)}). Under the lock. */
    Change record(ChangeKind kind, String value, String source) {
        return record(change(kind, value, source));
    }

    /**
     * Logs a change and tells every listener. A listener that throws does not undo the change, keep it from
     * the others (the .hlog among them) or fail the caller: its exception goes to the thread's uncaught
     * exception handler (printed on stderr by default). Under the lock.
     */
    Change record(Change c) {
        int at = changes.size();
        while (at > 0 && changes.get(at - 1).elapsedSec() > c.elapsedSec()) {
            at--; // a phase's marker, recorded at its cut after a change made just past it
        }
        changes.add(at, c);
        for (Consumer<Change> l : listeners) {
            try {
                l.accept(c);
            } catch (RuntimeException | Error e) {
                Thread t = Thread.currentThread();
                t.getUncaughtExceptionHandler().uncaughtException(t, e);
            }
        }
        return c;
    }

    /** A change made now, not recorded. Under the lock. */
    Change change(ChangeKind kind, String value, String source) {
        return change(kind, value, source, "");
    }

    /** A change made now, with a note, not recorded. Under the lock. */
    Change change(ChangeKind kind, String value, String source, String note) {
        long now = clock.nanoTime();
        return new Change(now, timeline.secondsAt(now), kind, value, source, note);
    }
}
