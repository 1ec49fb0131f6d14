package dev.pacer.cli;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A test op loaded through the SPI (listed in this module's test resources): a noop whose warm-up lasts until a
 * file exists ({@code gated-warmup:/tmp/x/go}, at most a minute), as a long http warm-up would, but ended by the
 * test rather than by a guess at how long it takes.
 */
public final class GatedWarmUpOpProvider implements OpProvider {

    @Override
    public String name() {
        return "gated-warmup";
    }

    @Override
    public String description() {
        return "test op: noop whose warm-up waits for a file, gated-warmup:/path/go";
    }

    @Override
    public Op create(OpSpec spec) {
        Path gate = Path.of(spec.argument());
        return new Op() {
            @Override
            public Outcome run(long cycle) {
                return Outcome.OK;
            }

            @Override
            public void warmUp() throws InterruptedException {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!Files.exists(gate) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
            }
        };
    }
}
