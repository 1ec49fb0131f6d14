package dev.pacer.engine;

import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.api.ManualRunClock;
import java.util.concurrent.CompletableFuture;

/** Plays runs on a {@link ManualRunClock}: the test's thread drives time until the run ends. */
public final class ManualClock {

    private ManualClock() {
    }

    /** Starts {@code test} on {@code clock}, moves time until it has ended, and returns its result. */
    public static LoadTest.Result play(ManualRunClock clock, LoadTest test) throws Exception {
        return finish(clock, PoissonRunTest.quiet(test).clock(clock).start());
    }

    /** Moves time until {@code running} has ended, and returns its result. */
    public static LoadTest.Result finish(ManualRunClock clock, LoadTest.Running running) throws Exception {
        CompletableFuture<Void> ended = new CompletableFuture<>();
        running.onEnd(() -> ended.complete(null));
        clock.runUntil(ended::isDone);
        return running.await();
    }

    /** Runs {@code run} on a thread of the clock's run; the future completes with its summary. */
    public static CompletableFuture<Summary> start(ManualRunClock clock, LoadRun run) {
        CompletableFuture<Summary> summary = new CompletableFuture<>();
        clock.start(Thread.ofPlatform().name("test-run"), () -> {
            try {
                summary.complete(run.run());
            } catch (Throwable t) {
                summary.completeExceptionally(t);
            }
        });
        return summary;
    }

    /** Runs {@code run} on the clock to its end and returns its summary. */
    public static Summary play(ManualRunClock clock, LoadRun run) throws Exception {
        return clock.await(start(clock, run));
    }
}
