package dev.pacer.engine.api;


/**
 * This process's share of one test run as {@code count} processes: the global schedule's slots
 * {@code index, index + count, index + 2·count, ...} and the cycles numbered the same way. Every rate given to a
 * sharded run (flag, scenario, control, API) is the test's global rate; the shard runs {@code 1/count} of it, with
 * its schedule offset by {@code index} global slices, so the shards' schedules add up to the global one and never
 * fire together.
 *
 * @param index this shard, 0 .. count − 1
 * @param count shards in the test
 */
public record Shard(int index, int count) {

    /** The most shards one test may have. */
    public static final int MAX = 100_000;

    public Shard {
        if (count < 1 || count > MAX) {
            throw new SettingException("shard", index + "/" + count, "needs 1 to " + MAX + " shards");
        }
        if (index < 0 || index >= count) {
            throw new SettingException("shard", index + "/" + count, "the index is 0 to " + (count - 1));
        }
    }

    /**
     * Parses {@code I/N}, or {@code /N} with the index from {@code jobIndex} (Kubernetes' {@code
     * JOB_COMPLETION_INDEX} for an Indexed Job's pod), null if that is unset. A bad index from there is
     * refused as the setting {@code JOB_COMPLETION_INDEX}, naming its value.
     */
    public static Shard parse(String text, String jobIndex) {
        String t = text.strip();
        int slash = t.indexOf('/');
        if (slash < 0) {
            throw new SettingException("shard", text, "expected I/N (e.g. 3/8) or /N inside an Indexed Job");
        }
        String i = t.substring(0, slash).strip();
        String n = t.substring(slash + 1).strip();
        if (n.isEmpty()) {
            throw new SettingException("shard", text, (i.isEmpty() ? "gives neither I nor N" : "gives no N")
                    + ": expected I/N (e.g. 3/8), or /N inside an Indexed Job (I from JOB_COMPLETION_INDEX)");
        }
        if (!n.matches("[0-9]{1,9}") || !i.isEmpty() && !i.matches("[0-9]{1,9}")) { // ASCII digits, as every number
            throw new SettingException("shard", text, "expected whole numbers I/N (e.g. 3/8)");
        }
        int count;
        try {
            count = Integer.parseInt(n);
        } catch (NumberFormatException e) {
            throw new SettingException("shard", text, "expected whole numbers I/N (e.g. 3/8)");
        }
        if (i.isEmpty()) {
            if (count < 1 || count > MAX) {
                throw new SettingException("shard", text, "needs 1 to " + MAX + " shards");
            }
            return new Shard(jobIndex(jobIndex, text, count), count);
        }
        try {
            return new Shard(Integer.parseInt(i), count);
        } catch (NumberFormatException e) {
            throw new SettingException("shard", text, "expected whole numbers I/N (e.g. 3/8)");
        }
    }

    /** The index an Indexed Job gives ({@code JOB_COMPLETION_INDEX}), for {@code --shard /count}. */
    private static int jobIndex(String jobIndex, String shard, int count) {
        if (jobIndex == null) {
            throw new SettingException("shard", shard, "gives no index and JOB_COMPLETION_INDEX is not set");
        }
        String expected = "expected a whole number from 0 to " + (count - 1) + " (this shard's index, for ${shard} "
                + shard.strip() + ")";
        String v = jobIndex.strip();
        if (v.isEmpty()) {
            throw new SettingException("JOB_COMPLETION_INDEX", jobIndex, "is empty; " + expected);
        }
        if (!v.matches("[0-9]{1,9}") || Integer.parseInt(v) >= count) {
            throw new SettingException("JOB_COMPLETION_INDEX", jobIndex, expected);
        }
        return Integer.parseInt(v);
    }

    /** This shard's rate for a global rate. */
    public double share(double globalRate) {
        return globalRate / count;
    }

    /** Where this shard's first slot lies after the test's start: {@code index} slices of the global rate, ns. */
    public long offsetNanos(double globalRate) {
        return Math.round(index * 1e9 / globalRate);
    }

    /**
     * The seed of this shard's Poisson generators for a test's {@code seed}: shard 0 keeps it (a run of one shard
     * draws what an unsharded run draws), every other shard mixes its index in (SplitMix64's finalizer of seed +
     * index × the golden gamma), so the shards' arrivals are independent streams, not copies one global slice
     * apart; the same seed and index give the same stream.
     */
    public long streamSeed(long seed) {
        if (index == 0) {
            return seed;
        }
        long z = seed + index * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The global cycle number of this shard's {@code local}-th op. */
    public long cycle(long local) {
        return index + local * count;
    }

    /** How many of the global cycles {@code 0 .. limit − 1} are this shard's. */
    public long cyclesOf(long limit) {
        return limit <= index ? 0 : (limit - index + count - 1) / count;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
