package dev.pacer.engine.api;

import dev.pacer.ratelimit.api.ParkingSleeper;
import dev.pacer.ratelimit.api.Sleeper;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link RunClock#system()}: the one place the engine reads the system's clocks. The limiter's sleeper is
 * {@link ParkingSleeper#calibrated()}, measured on first use (about 2 ms, once per JVM).
 */
enum SystemRunClock implements RunClock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void park(long nanos) {
        LockSupport.parkNanos(nanos);
    }

    @Override
    public void unpark(Thread thread) {
        LockSupport.unpark(thread);
    }

    @Override
    public Instant instant() {
        return Instant.now();
    }

    @Override
    public Sleeper sleeper() {
        return ParkingSleeper.calibrated();
    }

    @Override
    public Thread start(Thread.Builder builder, Runnable task) {
        return builder.start(task);
    }
}
