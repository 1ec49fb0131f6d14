package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.Shard;
import dev.pacer.engine.api.SettingException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Option;

/** The flags of {@code pacer run} that make it one shard of a test run by several processes. */
final class ShardOptions {

    @Option(names = "--shard", paramLabel = "I/N",
            description = {"Run as shard I of N processes making one test: every rate given is the test's global rate"
                    + " and", "this process runs 1/N of it, its slots interleaved with the others'; /N takes I from"
                    + " $JOB_COMPLETION_INDEX."})
    String shard;

    @Option(names = "--start-at", paramLabel = "INSTANT",
            description = "Start the schedule at this UTC instant (2026-12-01T10:00:00Z), so shards start together;"
                    + " late: catch up.")
    String startAt;

    /** Sets the shard (its index from {@code $JOB_COMPLETION_INDEX} for {@code /N}) and the start instant. */
    void applyTo(LoadTest test) {
        if (shard != null) {
            test.shard(Shard.parse(shard, System.getenv("JOB_COMPLETION_INDEX")));
        }
        if (startAt != null) {
            try {
                test.startAt(Instant.parse(startAt.strip()));
            } catch (DateTimeParseException e) {
                throw new SettingException("start-at", startAt, "expected a UTC instant such as 2026-12-01T10:00:00Z");
            }
        }
    }
}
