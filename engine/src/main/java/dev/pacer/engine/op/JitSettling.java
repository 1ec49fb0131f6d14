package dev.pacer.engine.op;

import dev.pacer.engine.api.RunClock;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The end of a warm-up: waiting for the JIT to finish what the warm-up gave it. On two cores the compiler threads
 * finishing that work would otherwise compete with the run's first second (the http op measured a response p99 of
 * 12–28 ms in that second without this wait). Real time, whatever the run's clock.
 */
public final class JitSettling {

    private static final RunClock REAL = RunClock.system();
    /** Compiling time between two looks below which the JIT counts as quiet. */
    public static final long QUIET_MILLIS = 10;

    private JitSettling() {
    }

    /**
     * Looks at the JIT between rounds of a warm-up that decides for itself when it has done enough (the engine's
     * warm-up, the http op's closed loop): settled once it compiled for under {@link #QUIET_MILLIS} ms between each of
     * the last two looks (taken about 100 ms apart). One thread.
     */
    public static final class Watch {
        private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        private final boolean supported = jit != null && jit.isCompilationTimeMonitoringSupported();
        private long last = supported ? jit.getTotalCompilationTime() : 0;
        private int quiet;

        /** Takes a look; true once the last two gaps between looks each held under 10 ms of compiling. */
        public boolean settled() {
            if (!supported) {
                return false;
            }
            long now = jit.getTotalCompilationTime();
            quiet = now - last < QUIET_MILLIS ? quiet + 1 : 0;
            last = now;
            return quiet >= 2;
        }
    }

    /**
     * Waits, for at most {@code max}, until the JIT was quiet for one look ({@link #QUIET_MILLIS} of the last 100 ms):
     * after a warm-up of a fixed length, for the compiles it queued.
     */
    public static void await(Duration max) throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = REAL.nanoTime() + max.toNanos();
        long before = jit.getTotalCompilationTime();
        while (REAL.nanoTime() < deadline) {
            Thread.sleep(100);
            long now = jit.getTotalCompilationTime();
            if (now - before < QUIET_MILLIS) {
                return;
            }
            before = now;
        }
    }
}
