package dev.pacer.cli;

import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;
import java.util.concurrent.locks.LockSupport;

/**
 * A test op loaded through the SPI (listed in this module's test resources): a noop that stalls
 * once, {@code stall:200ms@500} parks for 200 ms on cycle 500.
 */
public final class StallOpProvider implements OpProvider {

    @Override
    public String name() {
        return "stall";
    }

    @Override
    public String description() {
        return "test op: noop that stalls once, stall:200ms@500";
    }

    @Override
    public Op create(OpSpec spec) {
        String[] parts = spec.argument().split("@");
        long stallNanos = Durations.parse(parts[0], "stall").toNanos();
        long atCycle = Long.parseLong(parts[1]);
        return cycle -> {
            if (cycle == atCycle) {
                long deadline = System.nanoTime() + stallNanos;
                while (System.nanoTime() < deadline) {
                    LockSupport.parkNanos(deadline - System.nanoTime());
                }
            }
            return Outcome.OK;
        };
    }
}
