package dev.pacer.engine.sink;

import dev.pacer.engine.api.RateText;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.Durations;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The progress line, one per interval, for logs and pipes (a terminal gets the live view instead), under
 * {@value #MAX_WIDTH} characters:
 * <pre>
 * pacer: each line is an interval: ops, rate of target, wait and response p50/p99/max, errors
 * [   5.0s] 2000 ops  2000/s of 2000  wait 12.0us/81.0us/1.20ms  resp 2.10ms/2.30ms/3.40ms  err 0
 * [  12.0s ramp] 2500 ops  2500/s of 2.5k  wait ...  err 3 5xx 3 timeout 1
 * </pre>
 * Outcomes that are not errors but {@code ok} (an http op's {@code 2xx}) come before the errors, the errors' types
 * after them, then asynchronous ops in flight; what does not fit is cut with {@code …}. Intervals of ops still
 * finishing after the run's schedule ended are marked {@code after end}, with no rate.
 */
public final class ProgressLine {

    /** Every line is shorter than this. */
    public static final int MAX_WIDTH = 120;

    /** Printed once before the first line. */
    public static final String LEGEND = "pacer: each line is an interval: ops, rate of target, wait and response "
            + "p50/p99/max, errors";

    private ProgressLine() {
    }

    public static String format(IntervalReport r) {
        StringBuilder b = new StringBuilder(MAX_WIDTH + 40);
        b.append(String.format(Locale.ROOT, "[%7.1fs", r.elapsedSec()));
        if (r.drain()) {
            b.append(" after end");
        } else if (r.phase() != null) {
            String phase = r.phase().length() > 16 ? r.phase().substring(0, 15) + "…" : r.phase();
            b.append(' ').append(phase).append(r.warmup() ? " warm-up" : "");
        }
        if (r.drain()) { // ops that finished after the schedule's end: a rate of them would mean nothing
            b.append("] ").append(r.stats().ops()).append(" ops finished");
        } else {
            b.append("] ").append(r.stats().ops()).append(" ops  ").append(RateText.format(r.rate())).append("/s");
            if (!Double.isNaN(r.targetRate())) {
                b.append(" of ").append(RateText.format(r.targetRate()));
            }
        }
        latency(b, "wait", r.stats().histogram(Metric.WAIT));
        latency(b, "resp", r.stats().histogram(Metric.RESPONSE));
        r.stats().outcomes().forEach((outcome, n) -> { // the outcomes that are not errors (2xx), before the errors
            if (outcome != Outcome.OK && !outcome.isError()) {
                b.append("  ").append(outcome.label()).append(' ').append(n);
            }
        });
        b.append("  err ").append(r.stats().errors());
        StringBuilder extra = new StringBuilder();
        r.stats().outcomes().forEach((outcome, n) -> {
            if (outcome.isError()) {
                extra.append(' ').append(outcome.label()).append(' ').append(n);
            }
        });
        if (r.inFlight() > 0) {
            extra.append("  in flight ").append(r.inFlight());
        }
        if (b.length() + extra.length() < MAX_WIDTH) {
            b.append(extra);
        } else if (b.length() + 2 < MAX_WIDTH) {
            b.append(extra, 0, MAX_WIDTH - b.length() - 2).append('…');
        }
        return b.toString();
    }

    private static void latency(StringBuilder b, String name, Histogram h) {
        b.append("  ").append(name).append(' ');
        if (h.getTotalCount() == 0) {
            b.append('-');
            return;
        }
        b.append(Durations.format((double) h.getValueAtPercentile(50))).append('/')
                .append(Durations.format((double) h.getValueAtPercentile(99))).append('/')
                .append(Durations.format((double) h.getMaxValue()));
    }

    /**
     * Prints progress to a stream: the legend once, a line per interval, and a line per change but those
     * from {@code acknowledgedSource} (the console, whose commands are acknowledged by their own answer).
     * A change's line goes above the first interval line that ends after it, the changes between two lines
     * in the order they were made: threads make changes (a scenario's rate at its phase's start) and the
     * reporter marks its own (the phase, at its cut) in either order, and a line printed the moment its
     * change was made would come before the interval line that a lagging reporter has yet to print.
     * A short interval cut at a phase boundary is not printed on its own: the phase's change line marks
     * the boundary, and its ops are in the totals.
     */
    public static final class Printer {
        private final PrintStream out;
        private final double intervalSeconds;
        private final String acknowledgedSource;
        /** Changes not printed yet; guarded by this. */
        private final List<Change> held = new ArrayList<>();
        private boolean legend;

        public Printer(PrintStream out, double intervalSeconds, String acknowledgedSource) {
            this.out = out;
            this.intervalSeconds = intervalSeconds;
            this.acknowledgedSource = acknowledgedSource;
        }

        /** Reporter thread. */
        public synchronized void interval(IntervalReport r) {
            printChangesBefore(r.elapsedSec());
            if (!r.drain() && r.stats().seconds() < intervalSeconds / 2) {
                return;
            }
            if (!legend) {
                out.println(LEGEND);
                legend = true;
            }
            out.println(format(r));
        }

        /** Any thread that makes a change. */
        public synchronized void change(Change c) {
            if (!c.source().equals(acknowledgedSource)) {
                held.add(c);
            }
        }

        /** Prints the changes still held: the run has ended, and no interval line follows them. */
        public synchronized void flush() {
            printChangesBefore(Double.POSITIVE_INFINITY);
            out.flush();
        }

        private void printChangesBefore(double elapsedSec) {
            held.sort(Comparator.comparingDouble(Change::elapsedSec)); // stable: one instant's changes as made
            for (Iterator<Change> i = held.iterator(); i.hasNext(); ) {
                Change c = i.next();
                if (c.elapsedSec() >= elapsedSec) {
                    break;
                }
                out.println("  >> " + c.describe());
                i.remove();
            }
        }
    }
}
