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
