package dev.pacer.engine;

import dev.pacer.engine.run.ManualRunClock;
import java.util.concurrent.CompletableFuture;

/** Plays a {@link LoadTest} on a {@link ManualRunClock}: the test's thread drives time until the run ends. */
final class ManualClock {

    private ManualClock() {
    }

    /** Starts {@code test} on {@code clock}, moves time until it has ended, and returns its result. */
    static LoadTest.Result play(ManualRunClock clock, LoadTest test) throws Exception {
        return finish(clock, PoissonRunTest.quiet(test).clock(clock).start());
    }

    /** Moves time until {@code running} has ended, and returns its result. */
    static LoadTest.Result finish(ManualRunClock clock, LoadTest.Running running) throws Exception {
        CompletableFuture<Void> ended = new CompletableFuture<>();
        running.onEnd(() -> ended.complete(null));
        clock.runUntil(ended::isDone);
        return running.await();
    }
}
