package dev.pacer.engine.control;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.Change;
import dev.pacer.engine.LoadRun;
import java.util.concurrent.TimeUnit;

/**
 * Applies {@link ControlAction}s to a running load: the one entry point the console and the HTTP
 * endpoint share. Every change goes through {@link dev.pacer.engine.Activity}, which records it for the
 * .hlog, the summary and the progress output. Thread-safe.
 */
public final class RunController {

    private final LoadRun run;
    private final RunStatus status;

    public RunController(LoadRun run, RunStatus status) {
        this.run = run;
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
        var activity = run.activity();
        if (!(action instanceof ControlAction.Status)) {
            awaitStart(activity);
        }
        if (!activity.isRunning() && !(action instanceof ControlAction.Status)) {
            throw new IllegalStateException("the run has stopped");
        }
        return switch (action) {
            case ControlAction.SetRate a -> activity.setRate(a.spec(), source);
            case ControlAction.SetStrictness a -> activity.setStrictness(a.strictness(), source);
            case ControlAction.SetThreads a -> activity.setThreads(a.threads(), source);
            case ControlAction.Pause a -> activity.pause(source);
            case ControlAction.Resume a -> activity.resume(source);
            case ControlAction.Status a -> null;
            case ControlAction.Stop a -> {
                run.requestStop(source, source);
                yield activity.changes().isEmpty() ? null : activity.changes().get(activity.changes().size() - 1);
            }
        };
    }

    private static void awaitStart(dev.pacer.engine.Activity activity) {
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
