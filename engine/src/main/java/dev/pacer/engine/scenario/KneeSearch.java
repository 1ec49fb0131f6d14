package dev.pacer.engine.scenario;

import dev.pacer.engine.api.RatePlan;

import dev.pacer.engine.api.Threshold;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.LatencySummary;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.Knee;
import dev.pacer.engine.api.RunFigures;
import dev.pacer.engine.api.ThresholdResult;
import dev.pacer.engine.run.Activity;
import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.api.Durations;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.RateSpec;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Servoes the rate against an SLO in one continuous run: each probe holds a rate for {@code hold},
 * is judged on the intervals that begin after its settling time, and the next rate follows from the
 * verdicts so far: doubling while the SLO holds, bisecting the bracket once it broke, until the
 * bracket is within {@code precision}. A probe holds when every gate of the SLO does and the rate was
 * sustained: ops completed in the judged window at least (1 − max(1 %, precision / 2)) × the rate, less three
 * standard deviations of the count when arrivals are Poisson (see {@link #sustainedFloor}). Then the bracket is
 * probed again one precision step outside each end: if a rate a step below the knee now breaks, or a step above the
 * lowest that broke now holds, the
 * system's capacity moved and the result is {@code unstable}, not a number. A probe whose errors or wait explode (half
 * its ops errors,
 * or a wait longer than the hold) ends at once and counts as broken; after a broken probe the load
 * pauses while the system drains (see {@link #cooldown}). Probes are strict (strictness 1) unless the
 * phase or scenario sets a strictness, so no probe inherits another's backlog.
 *
 * <p>Threads: the scenario thread runs {@link #play}; the reporter thread calls {@link #interval}. They
 * meet under this object's monitor, which guards only the judged window's state (the histograms of an
 * interval are copied in there, so nothing the reporter reuses is kept); the activity is never called
 * while it is held.
 */
final class KneeSearch {

    private final RatePlan.Search plan;
    private final Activity activity;
    private final DoubleFunction<RateSpec> spec;
    private final String source;

    // guarded by this
    private long windowFrom = Long.MAX_VALUE;
    private long windowTo = Long.MAX_VALUE;
    private final Map<Metric, Histogram> judged = new EnumMap<>(Metric.class);
    private long ops;
    private long errors;
    private long firstStart;
    private long lastEnd;
    private boolean exploded;
    private String explosion;
    private boolean windowDone;
    /** The scenario thread, waiting for the window to be done. */
    private Thread waiter;

    /** Written by the scenario thread; read by whoever builds the summary (which may be before the search ends). */
    private final List<Knee.Probe> probes = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile Knee result;

    KneeSearch(RatePlan.Search plan, Activity activity, DoubleFunction<RateSpec> spec, String source) {
        this.plan = plan;
        this.activity = activity;
        this.spec = spec;
        this.source = source;
        for (Metric m : Metric.values()) {
            judged.put(m, IntervalStats.newHistogram());
        }
    }

    /** The search's result so far ({@code unfinished} until it ends). */
    Knee result() {
        Knee r = result;
        return r != null ? r : new Knee(plan.slo(), "unfinished", Double.NaN, null, List.copyOf(probes));
    }

    /** The reporter's interval: counted into the probe's window if it lies in it. */
    synchronized void interval(IntervalReport r) {
        IntervalStats st = r.stats();
        if (r.drain() || st.startNanos() < windowFrom || windowDone) {
            return;
        }
        for (Metric m : Metric.values()) {
            judged.get(m).add(st.histogram(m));
        }
        if (firstStart == 0) {
            firstStart = st.startNanos();
        }
        ops += st.ops();
        errors += st.errors();
        lastEnd = st.endNanos();
        Histogram wait = st.histogram(Metric.WAIT);
        if (st.ops() > 0 && 2 * st.errors() >= st.ops()) {
            exploded = true;
            explosion = "ended early: " + st.errors() + " of " + st.ops() + " ops in an interval were errors";
        } else if (wait.getTotalCount() > 0 && wait.getMaxValue() > plan.hold().toNanos()) {
            exploded = true;
            explosion = "ended early: wait reached " + Durations.format((double) wait.getMaxValue());
        }
        if (exploded || st.endNanos() >= windowTo) {
            windowDone = true;
            Thread w = waiter;
            if (w != null) {
                activity.clock().unpark(w);
            }
        }
    }

    private synchronized boolean windowDone() {
        return windowDone;
    }

    /** Runs the search; returns when it has a result or the run stops. */
    void play() throws InterruptedException {
        double lo = Double.NaN; // highest rate that held
        double hi = Double.NaN; // lowest rate that broke
        double rate = plan.from();
        String status = null;
        while (status == null) {
            Knee.Probe p = probe(rate);
            if (p == null) {
                return; // the run stopped: unfinished
            }
            if (p.passed()) {
                lo = Double.isNaN(lo) ? rate : Math.max(lo, rate);
            } else {
                hi = Double.isNaN(hi) ? rate : Math.min(hi, rate);
            }
            if (Double.isNaN(hi)) {
                if (rate >= plan.to()) {
                    status = "at-bound";
                } else {
                    rate = Math.min(plan.to(), rate * 2);
                }
            } else if (Double.isNaN(lo)) {
                status = "none"; // the first probe, at 'from', broke
            } else if ((hi - lo) / lo <= plan.precision()) {
                status = "found";
            } else {
                rate = (lo + hi) / 2;
            }
        }
        if (status.equals("found")) {
            // the bracket again, one precision step outside each end: the ends themselves lie within the precision
            // of the capacity, where a verdict is a coin flip; a capacity that moved by more than that shows as a
            // step below the knee that now breaks, or a step above the lowest broken rate that now holds
            Knee.Probe again = probe(Math.max(plan.from(), lo / (1 + plan.precision())));
            if (again == null) {
                return;
            }
            Knee.Probe above = again.passed() ? probe(Math.min(plan.to(), hi * (1 + plan.precision()))) : null;
            if (again.passed() && above == null) {
                return;
            }
            if (!again.passed() || above.passed()) {
                status = "unstable";
            }
        }
        double knee = status.equals("found") || status.equals("at-bound") ? lo : Double.NaN;
        RunFigures at = null;
        if (!Double.isNaN(knee)) {
            for (Knee.Probe p : probes) {
                if (p.rate() == knee && p.passed()) {
                    at = p.figures(); // the latest probe at that rate
                }
            }
        }
        result = new Knee(plan.slo(), status, knee, at, List.copyOf(probes));
        activity.markProbe("knee " + status + (Double.isNaN(knee) ? "" : " " + rateText(knee)), source);
    }

    /** Holds {@code rate} and judges it; null if the run stopped first. */
    private Knee.Probe probe(double rate) throws InterruptedException {
        long start = activity.clock().nanoTime();
        activity.setRate(spec.apply(rate), source);
        activity.markProbe(rateText(rate), source);
        RunFigures f;
        String explodedWhy;
        long windowStart;
        long windowEnd;
        synchronized (this) { // only the window's state: the activity is called outside it
            resetWindow(start + plan.settle().toNanos(), start + plan.hold().toNanos());
            waiter = Thread.currentThread();
        }
        while (!windowDone() && activity.isRunning()) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            activity.clock().park(50_000_000); // the window's last interval unparks it (see interval)
        }
        synchronized (this) {
            boolean done = windowDone;
            windowFrom = Long.MAX_VALUE;
            if (!done) {
                return null;
            }
            f = figures(rate);
            explodedWhy = exploded ? explosion : null;
            windowStart = firstStart;
            windowEnd = lastEnd;
        }
        boolean passed = explodedWhy == null;
        StringBuilder why = new StringBuilder();
        if (!passed) {
            why.append(explodedWhy);
        } else {
            double floor = sustainedFloor(rate, f.durationSeconds(), plan.precision(), activity.config().arrivals());
            passed = f.achievedRate() >= floor;
            why.append(String.format(Locale.ROOT, "achieved %.1f/s", f.achievedRate())).append(passed ? " ok" : " "
                    + "BROKEN");
            for (Threshold gate : plan.gates()) {
                ThresholdResult t = gate.evaluate(f);
                passed &= t.passed();
                why.append(", ").append(t.expression()).append(": ").append(t.actual()).append(t.passed() ? " ok" : " "
                        + "BROKEN");
            }
        }
        double startSec = (start - activity.startNanos()) / 1e9;
        Knee.Probe p = new Knee.Probe(rate, startSec, f.durationSeconds(), passed, why.toString(), f, windowStart,
                windowEnd);
        probes.add(p);
        activity.markProbe(rateText(rate) + (passed ? " held" : " broke") + ": " + why, source);
        if (!passed) {
            cooldown(f);
        }
        return p;
    }

    /** Standard deviations of a Poisson count that a probe's shortfall may be and still count as noise. */
    static final double POISSON_SIGMAS = 3;

    /**
     * The lowest achieved rate (ops/s) at which a probe of {@code rate} over a judged window of {@code seconds} was
     * sustained: what completed kept up with what was asked to within half the precision (at least 1 %). Uniform
     * arrivals ask for exactly rate × seconds ops, so that is the whole allowance. Poisson arrivals ask for a random
     * count with mean and variance λT = rate × seconds; a count {@value #POISSON_SIGMAS} standard deviations
     * ({@code sqrt(λT)}) short is still the arrival law's noise (one-sided, about 1 probe in 740 of a system that keeps
     * up), so that much more is allowed: at 200/s over 4 s, 800 ops asked, 85 (10.6 %) more. A probe that short of a
     * rate the system could hold is therefore not told apart from noise: hold a probe longer to narrow it (the
     * allowance shrinks as 1 / sqrt(λT)).
     */
    static double sustainedFloor(double rate, double seconds, double precision, Arrivals arrivals) {
        double floor = rate * (1 - Math.max(0.01, precision / 2));
        if (arrivals == Arrivals.POISSON && seconds > 0) {
            floor -= POISSON_SIGMAS * Math.sqrt(rate * seconds) / seconds;
        }
        return floor;
    }

    /**
     * After a broken probe the system under test still holds the queue it built: the load pauses for as
     * long as the probe's slowest response (at most the hold) so the next probe starts on a drained system.
     */
    private void cooldown(RunFigures f) throws InterruptedException {
        LatencySummary response = f.latencies().get(Metric.RESPONSE);
        long nanos = Math.min(plan.hold().toNanos(), response == null || response.count() == 0
                ? plan.settle().toNanos() : response.max());
        activity.pause(source);
        try {
            RunClock clock = activity.clock();
            long until = clock.nanoTime() + nanos;
            for (long left = nanos; left > 0 && activity.isRunning(); left = until - clock.nanoTime()) {
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                clock.park(Math.min(50_000_000, left));
            }
        } finally {
            activity.resume(source);
        }
    }

    private void resetWindow(long from, long to) {
        for (Histogram h : judged.values()) {
            h.reset();
        }
        ops = 0;
        errors = 0;
        firstStart = 0;
        lastEnd = 0;
        exploded = false;
        explosion = null;
        windowDone = false;
        windowTo = to;
        windowFrom = from;
    }

    private RunFigures figures(double rate) {
        double seconds = lastEnd > firstStart ? (lastEnd - firstStart) / 1e9 : 0;
        Map<Metric, LatencySummary> lat = new EnumMap<>(Metric.class);
        for (Metric m : Metric.values()) {
            lat.put(m, LatencySummary.of(judged.get(m)));
        }
        return new RunFigures(ops, errors, rate, seconds > 0 ? ops / seconds : 0, seconds, lat);
    }

    static String rateText(double rate) {
        return String.format(Locale.ROOT, rate >= 100 ? "%.0f/s" : "%.3g/s", rate);
    }
}
