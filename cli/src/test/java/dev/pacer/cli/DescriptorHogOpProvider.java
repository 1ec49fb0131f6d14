package dev.pacer.cli;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.OpProvider;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A test op loaded through the SPI (listed in this module's test resources): a noop whose first call opens
 * {@code /dev/null} until the process runs out of file descriptors, and holds them until the op is closed, as an
 * http op's connections hold theirs.
 */
public final class DescriptorHogOpProvider implements OpProvider {

    @Override
    public String name() {
        return "descriptor-hog";
    }

    @Override
    public String description() {
        return "test op: noop that holds every free file descriptor until it is closed";
    }

    @Override
    public Op create(OpSpec spec) {
        List<FileChannel> held = new ArrayList<>();
        return new Op() {
            @Override
            public synchronized Outcome run(long cycle) {
                if (held.isEmpty()) {
                    try {
                        while (held.size() < 1_000_000) {
                            held.add(FileChannel.open(Path.of("/dev/null")));
                        }
                    } catch (IOException full) {
                        // every descriptor is taken
                    }
                }
                return Outcome.OK;
            }

            @Override
            public synchronized void close() throws IOException {
                for (FileChannel c : held) {
                    c.close();
                }
                held.clear();
            }
        };
    }
}
