package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The flags of {@code pacer run} that size and bound it: its workers, when it ends, how many async ops may be in
 * flight, the engine's warm-up before it and the grace after it.
 */
final class LoadOptions {

    @Option(names = {"-t", "--threads"}, paramLabel = "N",
            description = "Worker threads (default: 1, the scenario's, or the op's own: postgres, one per connection).")
    Integer threads;

    @Option(names = "--virtual",
            description = "Run workers as virtual threads (thousands of concurrent clients are cheap).")
    boolean virtual;

    @Option(names = {"-d", "--duration"}, paramLabel = "DURATION", converter = Converters.PositiveDuration.class,
            description = "Stop after this long: 500ms, 30s, 5m, 1h.")
    Duration duration;

    @Option(names = {"-n", "--cycles"}, paramLabel = "COUNT", converter = Converters.Count.class,
            description = {"Stop after this many ops: 20000, 20k, 20M.",
                    "With --duration, whichever comes first; with neither, the run goes until Ctrl-C."})
    Long cycles;

    @Option(names = "--max-in-flight", paramLabel = "N",
            description = {"Asynchronous ops (http): the most in flight at once; a slot that finds none free waits,",
                    "and that is wait time (default: the op's own bound, e.g. --connections)."})
    Integer maxInFlight;

    @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "10s",
            converter = Converters.NonNegativeDuration.class,
            description = {"How long ops in flight when the run ends (its duration, Ctrl-C, stop) may take to finish;",
                    "those still running are then counted as cancelled (default: ${DEFAULT-VALUE})."
                            + " A second Ctrl-C ends it at once."})
    Duration grace;

    @Option(names = "--engine-warm-up", paramLabel = "DURATION", defaultValue = "1500ms",
            converter = Converters.NonNegativeDuration.class,
            description = {"Before the clock starts, run the engine's per-op code off the record (a stand-in op,"
                    + " nothing",
                    "sent) until the JIT has compiled it, at most this long (default: ${DEFAULT-VALUE}); 0 for none."})
    Duration engineWarmUp;

    /** Where the JIT's compiler threads run once the engine's warm-up is done. */
    enum JitPriority { idle, normal }

    @Option(names = "--jit-priority", paramLabel = "idle|normal", defaultValue = "idle",
            description = "After the engine's warm-up, the JIT's compiler threads move to Linux's idle scheduling"
                    + " class (chrt), so what it still compiles takes only CPU the run leaves (default:"
                    + " ${DEFAULT-VALUE}); normal leaves them.")
    JitPriority jitPriority;

    /** Sets the workers, the run's end, the bound on ops in flight, the warm-ups and the grace. */
    void applyTo(LoadTest test) {
        test.virtualThreads(virtual).duration(duration).cycles(cycles == null ? 0 : cycles)
                .maxInFlight(maxInFlight == null ? 0 : maxInFlight).engineWarmUp(engineWarmUp).grace(grace)
                .idleCompilerThreads(jitPriority == JitPriority.idle);
        if (threads != null) {
            test.threads(threads);
        }
    }
}
