package dev.pacer.engine;

import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Op;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * {@code pacer compare-limiters}: the same workload under each limiter design, one after another, and
 * what each let through. The workload is a fixed target rate from several threads with an op that stalls:
 * every {@code stallEvery} all ops in flight hang for {@code stallFor} (a server's hiccup), so each design
 * shows what it does with the ops the stall held back: catches them up in a burst, spreads them, or lets
 * them go.
 *
 * <p>Per design: the achieved rate, the <b>burst peak</b> (most ops started within any 10 ms, from every
 * op's start time), the <b>ops forfeited</b> (what the target asked for over the run that never ran),
 * the design's refusals, and the wait-time percentiles (for the atomic limiter lateness against its
 * schedule; for the others how long the limiter held each op: see {@code LockingLimiter}). Each run's
 * interval log is kept so the runs can be charted together.
 */
public final class LimiterComparison {

    /** The window the burst peak counts ops in. */
    public static final long BURST_WINDOW_NANOS = 10_000_000L;

    /** The most platform worker threads a comparison (as any run) may use. */
    public static int maxThreads() {
        return ActivityConfig.maxThreads(false);
    }

    /**
     * What to run.
     *
     * @param rate       the target rate, ops/s
     * @param threads    worker threads
     * @param duration   how long each design runs
     * @param stallEvery how often the op stalls
     * @param stallFor   how long each stall lasts (0: never)
     * @param interval   the logs' interval
     * @param designs    the designs, in order
     */
    public record Settings(double rate, int threads, Duration duration, Duration stallEvery, Duration stallFor,
                           Duration interval, List<LimiterDesign> designs) {
        public Settings {
            RateSpec.of(rate);
            Objects.requireNonNull(designs, "designs");
            designs = List.copyOf(designs);
            if (designs.isEmpty()) {
                throw new IllegalArgumentException("no limiter to compare");
            }
            if (!stallFor.isNegative() && stallFor.compareTo(stallEvery) >= 0) {
                throw new IllegalArgumentException("a stall of " + Durations.format(stallFor) + " every "
                        + Durations.format(stallEvery) + " never ends");
            }
            checkDesigns(designs, rate);
        }

        /**
         * Checks every design at {@code rate} before any runs (an option bad only at some rates, such as warmup's
         * 1 µs ticks past 1M ops/s, would otherwise fail at its turn, after the designs before it ran).
         *
         * @throws SettingException ({@code limiter}) naming the design and why
         */
        public static void checkDesigns(List<LimiterDesign> designs, double rate) {
            for (LimiterDesign d : designs) {
                ActivityConfig.checkDesign(d, RateSpec.of(rate));
            }
        }

        /** Every design with its default options: 2 000 ops/s, 8 threads, 10 s each, 200 ms stalls every 2 s. */
        public static Settings defaults() {
            return new Settings(2_000, 8, Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofMillis(200),
                    Duration.ofMillis(100), LimiterDesign.NAMES.stream().map(LimiterDesign::parse).toList());
        }
    }

    /**
     * What one design let through.
     *
     * @param design      the design as given
     * @param ops         ops run
     * @param achieved    ops per second over the run
     * @param burstPeak   most ops started within any {@link #BURST_WINDOW_NANOS}
     * @param forfeited   ops the target asked for over the run that never ran (≥ 0)
     * @param refusals    requests the design refused and were asked again
     * @param waits       wait-time percentiles
     * @param hlog        the run's interval log
     */
    public record Row(String design, long ops, double achieved, long burstPeak, long forfeited, long refusals,
                      LatencySummary waits, Path hlog) {
    }

    private LimiterComparison() {
    }

    /**
     * The file each design's interval log is written to in {@code dir}, in the designs' order: {@code NAME.hlog}, and
     * for a design named again (two variants of one, {@code leaky:queue=0} and {@code leaky:queue=100})
     * {@code NAME-2.hlog}, {@code NAME-3.hlog}, ... so no run overwrites another's log.
     */
    public static List<Path> logFiles(List<LimiterDesign> designs, Path dir) {
        Map<String, Integer> seen = new HashMap<>();
        List<Path> files = new ArrayList<>();
        for (LimiterDesign d : designs) {
            int n = seen.merge(d.name(), 1, Integer::sum);
            files.add(dir.resolve(d.name() + (n == 1 ? "" : "-" + n) + ".hlog"));
        }
        return files;
    }

    /** Runs every design in turn, writing each one's log into {@code dir}; {@code progress} hears each row. */
    public static List<Row> run(Settings s, Path dir, Consumer<Row> progress) throws Exception {
        List<Row> rows = new ArrayList<>();
        List<Path> logs = logFiles(s.designs(), dir);
        for (int i = 0; i < s.designs().size(); i++) {
            Row row = runOne(s, s.designs().get(i), logs.get(i));
            rows.add(row);
            progress.accept(row);
        }
        return rows;
    }

    private static Row runOne(Settings s, LimiterDesign design, Path hlog) throws Exception {
        long expected = (long) Math.ceil(s.rate() * s.duration().toNanos() / 1e9);
        RunClock clock = RunClock.system();
        StallingOp op = new StallingOp(s.stallEvery().toNanos(), s.stallFor().toNanos(),
                (int) Math.min(50_000_000, expected * 3 + 10_000), clock);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        LoadTest.Result r = LoadTest.rate(RateSpec.of(s.rate()).toString()).limiter(design).threads(s.threads()).op(op)
                .clock(clock).duration(s.duration()).interval(s.interval()).hlog(hlog)
                .output(sink, sink).progress(false).announce(false).handleSignals(false).run();
        long ops = r.summary().ops();
        double seconds = r.summary().figures().durationSeconds();
        long forfeited = Math.max(0, Math.round(s.rate() * seconds) - ops);
        return new Row(design.toString(), ops, r.summary().figures().achievedRate(), op.burstPeak(BURST_WINDOW_NANOS),
                forfeited, r.summary().limiter().refusals(), LatencySummary.of(r.histogram(Metric.WAIT)), hlog);
    }

    /** The rows side by side, one line each, for a terminal. */
    public static String table(Settings s, List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%.0f ops/s from %d threads for %s each; the op stalls %s every %s%n%n",
                s.rate(), s.threads(), Durations.format(s.duration()), Durations.format(s.stallFor()),
                Durations.format(s.stallEvery())));
        int w = Math.max(12, rows.stream().mapToInt(r -> r.design().length()).max().orElse(0));
        b.append(String.format(Locale.ROOT, "%-" + w + "s %9s %11s %9s %8s %9s %9s %9s %9s%n", "limiter", "achieved",
                "peak/10ms", "forfeited", "refused", "wait p50", "p99", "p99.9", "max"));
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "%-" + w + "s %9.1f %11d %9d %8d %9s %9s %9s %9s%n", r.design(),
                    r.achieved(),
                    r.burstPeak(), r.forfeited(), r.refusals(), ms(r.waits().at("50")), ms(r.waits().at("99")),
                    ms(r.waits().at("99.9")), ms(r.waits().max())));
        }
        b.append(String.format(Locale.ROOT, "%nachieved: ops/s over the run; peak/10ms: most ops started in any %d ms "
                + "(the target"
                + " spaces %.1f); forfeited: ops the target asked for that never ran; refused: requests the design "
                        + "turned"
                + " away and were asked again.%n", BURST_WINDOW_NANOS / 1_000_000,
                        s.rate() * BURST_WINDOW_NANOS / 1e9));
        return b.toString();
    }

    private static String ms(Long nanos) {
        return nanos == null ? "-" : Durations.format((double) nanos);
    }

    /**
     * A no-op that stalls: a call made in the last {@code stallFor} of each {@code every} (counted from the
     * first call) sleeps until that stall ends. Records each call's start time for the burst peak.
     */
    static final class StallingOp implements Op {
        private final long every;
        private final long stallFor;
        private final long[] starts;
        private final AtomicInteger count = new AtomicInteger();
        private volatile long origin;

        private final RunClock clock;

        StallingOp(long every, long stallFor, int capacity, RunClock clock) {
            this.clock = clock;
            this.every = every;
            this.stallFor = stallFor;
            this.starts = new long[capacity];
        }

        @Override
        public Outcome run(long cycle) {
            long now = clock.nanoTime();
            long o = origin;
            if (o == 0) {
                synchronized (this) {
                    if (origin == 0) {
                        origin = now;
                    }
                    o = origin;
                }
            }
            int i = count.getAndIncrement();
            if (i < starts.length) {
                starts[i] = now;
            }
            if (stallFor > 0) {
                long phase = Math.floorMod(now - o, every);
                long stallStart = every - stallFor;
                if (phase >= stallStart) {
                    long until = now + (every - phase);
                    for (long left = until - now; left > 0; left = until - clock.nanoTime()) {
                        clock.park(left);
                    }
                }
            }
            return Outcome.OK;
        }

        /** Most starts within any {@code window} nanoseconds. */
        long burstPeak(long window) {
            int n = Math.min(count.get(), starts.length);
            long[] t = Arrays.copyOf(starts, n);
            Arrays.sort(t);
            int best = 0;
            for (int i = 0, j = 0; j < n; j++) {
                while (t[j] - t[i] >= window) {
                    i++;
                }
                best = Math.max(best, j - i + 1);
            }
            return best;
        }
    }
}
