package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.ratelimit.LimiterDesign;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code --bytes-rate}: ops report their size, and the bucket's bytes bucket holds a run to it. */
class BytesRateRunTest {

    /** A no-op of 1 000 bytes. */
    static final class KilobyteOp implements Op {
        @Override
        public Outcome run(long cycle) {
            return Outcome.OK;
        }

        @Override
        public long bytes(long cycle) {
            return 1_000;
        }
    }

    @Test
    void fiftyKilobytesPerSecondOfKilobyteOpsIsFiftyOpsPerSecondWhateverTheOpsRate() throws Exception {
        // ops at 1 000/s, bytes at 50 kB/s with a bucket of one op's size: the bytes decide, 50 ops/s
        LimiterDesign d = LimiterDesign.parse("bucket:size=20,bytes-rate=50k,bytes-size=1000");
        LoadTest.Result r = ManualClock.play(new ManualRunClock(), LoadTest.rate("1000").limiter(d).threads(2)
                .op(new KilobyteOp()).duration(Duration.ofSeconds(3)));
        assertEquals(150, r.summary().ops(), 2, "3 s at 50 ops/s");
    }
}
