package dev.pacer.engine.op;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;

import dev.pacer.engine.api.SettingException;
import dev.pacer.engine.api.RunClock;

/** The ops that ship with pacer: {@code noop}, {@code sleep}, {@code cpu}. */
public final class BuiltinOps {

    private BuiltinOps() {
    }

    /** Does nothing: measures pacer itself. */
    public static final class Noop implements OpProvider {
        @Override
        public String name() {
            return "noop";
        }

        @Override
        public String description() {
            return "does nothing; measures pacer itself";
        }

        @Override
        public Op create(OpSpec spec) {
            if (!spec.argument().isEmpty()) {
                throw new SettingException("op", spec.toString(), "noop takes no argument");
            }
            return cycle -> Outcome.OK;
        }
    }

    /**
     * Parks for a service time: {@code sleep:2ms}, {@code sleep:uniform(1ms,5ms)}, {@code sleep:exp(2ms)}.
     * A park lasts at least what is asked, typically plus the kernel's timer slack (~50-80 µs on Linux).
     */
    public static final class Sleep implements OpProvider {
        @Override
        public String name() {
            return "sleep";
        }

        @Override
        public String description() {
            return "parks for a service time: sleep:2ms, sleep:uniform(1ms,5ms), sleep:exp(2ms)";
        }

        @Override
        public Op create(OpSpec spec) {
            return create(spec, RunClock.system());
        }

        @Override
        public Op create(OpSpec spec, RunClock clock) {
            ServiceTime time = ServiceTime.parse(spec.argument(), "sleep");
            return cycle -> {
                long nanos = time.nextNanos();
                long deadline = clock.nanoTime() + nanos;
                for (long left = nanos; left > 0 && !Thread.currentThread().isInterrupted(); ) {
                    clock.park(left);
                    left = deadline - clock.nanoTime();
                }
                return Outcome.OK;
            };
        }
    }

    /** Busy work on the CPU for a service time: {@code cpu:50us}, {@code cpu:uniform(10us,100us)}. */
    public static final class Cpu implements OpProvider {
        @Override
        public String name() {
            return "cpu";
        }

        @Override
        public String description() {
            return "burns CPU for a service time: cpu:50us, cpu:uniform(10us,100us), cpu:exp(20us)";
        }

        @Override
        public Op create(OpSpec spec) {
            return create(spec, RunClock.system());
        }

        /** On a clock other than the system's the op parks what is left of its time: spinning would stop time. */
        @Override
        public Op create(OpSpec spec, RunClock clock) {
            ServiceTime time = ServiceTime.parse(spec.argument(), "cpu");
            boolean burns = clock == RunClock.system();
            return new Op() {
                /** Written so the JIT cannot drop the busy loop. */
                private volatile long sink;

                @Override
                public Outcome run(long cycle) {
                    long deadline = clock.nanoTime() + time.nextNanos();
                    long x = cycle;
                    do {
                        for (int i = 0; i < 64; i++) {
                            x = x * 6364136223846793005L + 1442695040888963407L;
                        }
                        if (!burns) {
                            clock.park(deadline - clock.nanoTime());
                        }
                    } while (clock.nanoTime() < deadline);
                    sink = x;
                    return Outcome.OK;
                }
            };
        }
    }
}
