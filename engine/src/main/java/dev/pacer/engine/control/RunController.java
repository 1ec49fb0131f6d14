package dev.pacer.engine.control;

import dev.pacer.engine.api.ControlAction;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.run.Activity;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Applies {@link ControlAction}s to a running load: the one entry point the console and the HTTP
 * endpoint share. Every change goes through {@link Activity}, which records it for the
 * .hlog, the summary and the progress output. Thread-safe.
 */
public final class RunController {

    private final Activity activity;
    private final RunStatus status;

    public RunController(Activity activity, RunStatus status) {
        this.activity = activity;
        this.status = status;
    }

    public RunStatus status() {
        return status;
    }

    /** How long a change from the terminal waits for the run to start (its warm-ups): nobody times it out. */
    public static final Duration CONSOLE_WAIT = Duration.ofSeconds(60);
    /** How long a change over HTTP waits: less than {@code pacer control}'s 10 s, so its answer is the outcome. */
    public static final Duration HTTP_WAIT = Duration.ofSeconds(8);

    /** {@link #apply(ControlAction, String, Duration)} waiting up to {@link #CONSOLE_WAIT} for the start. */
    public Change apply(ControlAction action, String source) {
        return apply(action, source, CONSOLE_WAIT);
    }

    /**
     * Applies one action. A change asked before the run has started (its warm-ups) waits for the start, up to
     * {@code maxWait}, and is applied then; one that cannot be (the start is further than that, as a {@code
     * --start-at} may be) is refused at once and never applied.
     *
     * @param source who asked: {@code console}, {@code http}, ...
     * @return the change made, or null for {@code status}
     * @throws IllegalArgumentException one line naming a value the run cannot take; nothing changed
     * @throws IllegalStateException    the run has stopped, or has not started within {@code maxWait}; nothing changed
     */
    public Change apply(ControlAction action, String source, Duration maxWait) {
        boolean changes = !(action instanceof ControlAction.Status || action instanceof ControlAction.Help);
        // a stop need not wait: a run stopped while its op warms up starts no op, and its answer goes at once
        if (changes && !(action instanceof ControlAction.Stop)) {
            awaitStart(activity, maxWait);
        }
        if (!activity.isRunning() && action instanceof ControlAction.Stop) {
            activity.stop(StopReason.CONTROL, source); // a second stop: ends the grace for ops in flight at once
            return null;
        }
        if (!activity.isRunning() && changes) {
            throw new IllegalStateException("the run has stopped");
        }
        return switch (action) {
            case ControlAction.SetRate a -> a.keepsStrictness() ? activity.setRateKeepingStrictness(a.spec(), source)
                    : activity.setRate(a.spec(), source);
            case ControlAction.SetStrictness a -> activity.setStrictness(a.strictness(), source);
            case ControlAction.SetThreads a -> activity.setThreads(a.threads(), source);
            case ControlAction.Pause a -> activity.pause(source);
            case ControlAction.Resume a -> activity.resume(source);
            case ControlAction.Status a -> null;
            case ControlAction.Help a -> null;
            case ControlAction.Stop a -> activity.stop(StopReason.CONTROL, source);
        };
    }

    private static void awaitStart(Activity activity, Duration maxWait) {
        try {
            if (activity.awaitStarted(0, TimeUnit.NANOSECONDS)) {
                return;
            }
            Duration until = activity.untilStartAt();
            if (until.compareTo(maxWait) > 0) {
                throw new IllegalStateException("the run has not started: it starts at " + activity.config().startAt()
                        + " (--start-at), in " + until.toSeconds() + " s; change it from then on");
            }
            if (!activity.awaitStarted(maxWait.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("the run has not started yet (its warm-ups took over "
                        + maxWait.toSeconds() + " s); nothing changed: ask again");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the run to start");
        }
    }

    /** The status JSON (see {@link RunStatus#toJson()}). */
    public ObjectNode statusJson() {
        return status.toJson();
    }
}
