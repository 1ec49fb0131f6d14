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

    private JitSettling() {
    }

    /**
     * Looks at the JIT between rounds of a warm-up that decides for itself when it has done enough: settled once it
     * compiled for under 10 ms between each of the last two looks (taken about 100 ms apart). One thread.
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
            quiet = now - last < 10 ? quiet + 1 : 0;
            last = now;
            return quiet >= 2;
        }
    }

    /** Waits, for at most {@code max}, until the JIT has compiled for less than 10 % of the last 100 ms. */
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
            if (now - before < 10) {
                return;
            }
            before = now;
        }
    }
}
