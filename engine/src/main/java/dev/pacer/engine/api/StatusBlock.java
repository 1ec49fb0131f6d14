package dev.pacer.engine.api;


import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The live status of a run for a terminal, a few lines redrawn in place every interval, each fitted to
 * the terminal's width:
 * <pre>
 * sleep:1ms  2 threads  rate 2000,0  phase ramp
 * [█████████████░░░░░░░░░░░░░░░░░░░░░░░░░]  12.0s of 30.0s  18.0s left
 * rate 1812/s of 2000 (90.6 %)  overall 1830/s  ops 21 960  errors 0
 * wait p50 54.5ms p99 94.6ms max 96.3ms   response p50 55.6ms p99 95.7ms max 97.4ms
 * ! behind: wait is growing. Too few threads: ops take 1.10ms, so 2000/s needs about 3 (have 2)
 * </pre>
 * The warning appears when the run delivers under 95 % of its target while the wait grows, and names
 * the likeliest cause: too few threads (by Little's law: target × service time), the in-flight bound,
 * or the CPU of the machine pacer runs on.
 *
 * <p>Threads: {@link #update} on the reporter thread; {@link #render} from the terminal's; both
 * synchronized.
 */
public final class StatusBlock {

    /**
     * What the block shows besides the interval's figures.
     *
     * @param op               the op spec
     * @param threads          the thread setting
     * @param inFlight         asynchronous ops in flight (0 for synchronous ops)
     * @param inFlightCapacity the in-flight bound, or 0 for synchronous ops
     * @param target           the rate in force, or null when unpaced
     * @param paused           whether the run is paused
     * @param duration         the run's length, or null
     * @param cycles           the run's op limit, or 0
     * @param cpuCores         cores pacer's process is using (NaN when unknown)
     * @param cores            cores of the machine
     */
    public record Facts(String op, int threads, int inFlight, int inFlightCapacity, RateSpec target, boolean paused,
                        Duration duration, long cycles, double cpuCores, int cores) {
    }

    private IntervalReport last;
    private Facts facts;
    private long previousWaitP50 = -1;
    private String warning;

    /** Reporter thread: the interval just cut, and the run's state at its end. */
    public synchronized void update(IntervalReport report, Facts facts) {
        if (report.drain() || report.stats().seconds() <= 0) {
            this.last = report;
            this.facts = facts;
            return;
        }
        long waitP50 = p(report.stats().histogram(Metric.WAIT), 50);
        warning = behind(report, facts, waitP50, previousWaitP50);
        previousWaitP50 = waitP50;
        this.last = report;
        this.facts = facts;
    }

    /** The falling-behind warning of the last interval (what follows {@code ! behind: }), or null. */
    public synchronized String warning() {
        return warning;
    }

    /** The block's lines, each at most {@code width} characters; empty before the first interval. */
    public synchronized List<String> render(int width) {
        List<String> lines = new ArrayList<>();
        if (last == null) {
            return lines;
        }
        IntervalReport r = last;
        Facts f = facts;
        StringBuilder head = new StringBuilder(f.op()).append("  ").append(f.threads())
                .append(f.threads() == 1 ? " thread" : " threads");
        head.append(f.target() == null ? "  unpaced" : "  rate " + f.target());
        if (f.paused()) {
            head.append("  PAUSED");
        }
        if (r.phase() != null) {
            head.append("  phase ").append(r.phase()).append(r.warmup() ? " (warm-up)" : "");
        }
        lines.add(head.toString());
        lines.add(progressBar(r, f, width));
        StringBuilder rate = new StringBuilder("rate ").append(RateText.format(r.rate())).append("/s");
        if (!Double.isNaN(r.targetRate()) && r.targetRate() > 0) {
            rate.append(" of ").append(RateText.format(r.targetRate()))
                    .append(String.format(Locale.ROOT, " (%.1f %%)", 100 * r.rate() / r.targetRate()));
        }
        if (r.totalSeconds() > 0) {
            rate.append("  overall ").append(RateText.format(r.overallRate())).append("/s");
        }
        rate.append("  ops ").append(r.totalOps()).append("  errors ").append(r.totalErrors());
        if (f.inFlightCapacity() > 0) {
            rate.append("  in flight ").append(f.inFlight()).append('/').append(f.inFlightCapacity());
        }
        lines.add(rate.toString());
        lines.add(latency("wait", r.stats().histogram(Metric.WAIT)) + "   "
                + latency("response", r.stats().histogram(Metric.RESPONSE)));
        if (warning != null) {
            lines.add("! behind: " + warning);
        }
        lines.replaceAll(l -> fit(l, width));
        return lines;
    }

    /** The likeliest cause of falling behind, or null when the run keeps up. */
    static String behind(IntervalReport r, Facts f, long waitP50, long previousWaitP50) {
        double target = r.targetRate();
        if (Double.isNaN(target) || target <= 0 || f.paused() || r.rate() >= 0.95 * target) {
            return null;
        }
        boolean growing = waitP50 > 1_000_000 && waitP50 >= previousWaitP50 && previousWaitP50 >= 0;
        if (!growing) {
            return null;
        }
        String what = "wait is growing. ";
        if (f.inFlightCapacity() > 0) {
            if (f.inFlight() >= f.inFlightCapacity()) {
                return what + "The in-flight bound (" + f.inFlightCapacity()
                        + ") is reached: raise it (--max-in-flight, --connections), or the server is slow";
            }
        } else {
            Histogram service = r.stats().histogram(Metric.SERVICE);
            double serviceSeconds = service.getTotalCount() == 0 ? 0 : service.getMean() / 1e9;
            double needed = target * serviceSeconds; // Little's law: ops in flight at once
            if (needed >= 0.9 * f.threads()) {
                return what + "Too few threads: ops take " + Durations.format(service.getMean()) + ", so "
                        + RateText.format(target) + "/s needs about " + (long) Math.ceil(needed * 1.2)
                        + " (have " + f.threads() + ")";
            }
        }
        if (!Double.isNaN(f.cpuCores()) && f.cpuCores() >= 0.85 * f.cores()) {
            return what + String.format(Locale.ROOT, "pacer is using %.1f of %d cores: this machine is the limit",
                    f.cpuCores(), f.cores());
        }
        return what + "Neither threads nor CPU look short: the system under test may be pushing back";
    }

    private static String progressBar(IntervalReport r, Facts f, int width) {
        double elapsed = r.elapsedSec();
        double done;
        String label;
        if (f.duration() != null) {
            double total = f.duration().toNanos() / 1e9;
            done = Math.min(1, elapsed / total);
            label = String.format(Locale.ROOT, "  %s of %s  %s", Durations.format(seconds(elapsed)),
                    Durations.format(f.duration()),
                    total > elapsed ? Durations.format(seconds(total - elapsed)) + " left" : "done");
        } else if (f.cycles() > 0) {
            done = Math.min(1, (double) r.totalOps() / f.cycles());
            label = String.format(Locale.ROOT, "  %d of %d ops  %s", r.totalOps(), f.cycles(),
                    Durations.format(seconds(elapsed)));
        } else {
            return Durations.format(seconds(elapsed)) + " elapsed, until stopped";
        }
        int barWidth = Math.max(10, Math.min(60, width - label.length() - 2));
        int full = (int) Math.round(done * barWidth);
        return "[" + "█".repeat(full) + "░".repeat(barWidth - full) + "]" + label;
    }

    private static Duration seconds(double s) {
        return Duration.ofMillis((long) (s * 1000));
    }

    private static String latency(String name, Histogram h) {
        if (h.getTotalCount() == 0) {
            return name + " -";
        }
        return name + " p50 " + Durations.format((double) h.getValueAtPercentile(50)) + " p99 "
                + Durations.format((double) h.getValueAtPercentile(99)) + " max "
                        + Durations.format((double) h.getMaxValue());
    }

    private static long p(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile);
    }

    private static String fit(String line, int width) {
        return line.length() <= width ? line : line.substring(0, Math.max(0, width - 1)) + "…";
    }
}
