package dev.pacer.engine.run;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out cycle numbers 0, 1, 2, ... up to an optional limit, exactly once each.
 *
 * <p>Workers claim them in batches (one atomic add per batch) so that an unpaced run at tens of
 * millions of ops/s does not contend on one counter; at low rates the batch is 1, keeping cycle
 * numbers in start order.
 */
final class CycleSource {

    private final AtomicLong next = new AtomicLong();
    private final long limit;

    /** A limit that is none. */
    static final long NO_LIMIT = Long.MAX_VALUE;

    /** @param limit the number of cycles (0: none at all), or {@link #NO_LIMIT} */
    CycleSource(long limit) {
        this.limit = limit;
    }

    /** A worker's current batch of cycles: single-threaded, owned by that worker. */
    static final class Batch {
        long next;
        long end;
    }

    /** The next cycle for this worker, or -1 when the limit is reached. */
    long next(Batch batch, int batchSize) {
        if (batch.next < batch.end) {
            return batch.next++;
        }
        long start = next.getAndAdd(batchSize);
        if (start >= limit || start < 0) {
            return -1;
        }
        batch.next = start + 1;
        batch.end = Math.min(start + batchSize, limit);
        return start;
    }

    /** Cycles handed out so far (claimed, including batches not yet used), capped at the limit. */
    long claimed() {
        return Math.min(next.get(), limit);
    }
}
