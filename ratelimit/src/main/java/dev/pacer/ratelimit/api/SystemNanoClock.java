package dev.pacer.ratelimit.api;

/** {@link NanoClock} backed by {@link System#nanoTime()} (about 26 ns per call on a 2-vCPU VM). */
enum SystemNanoClock implements NanoClock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
