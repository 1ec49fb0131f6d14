package dev.pacer.engine.control;

import dev.pacer.engine.api.ControlAction;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.run.Activity;
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

    /**
     * Applies one action.
     *
     * @param source who asked: {@code console}, {@code http}, ...
     * @return the change made, or null for {@code status}
     * @throws IllegalArgumentException one line naming a value the run cannot take; nothing changed
     */
    public Change apply(ControlAction action, String source) {
        boolean changes = !(action instanceof ControlAction.Status || action instanceof ControlAction.Help);
        // a stop need not wait: a run stopped while its op warms up starts no op, and its answer goes at once
        if (changes && !(action instanceof ControlAction.Stop)) {
            awaitStart(activity);
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

    private static void awaitStart(Activity activity) {
        try {
            if (!activity.awaitStarted(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the run has not started yet");
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
