package dev.pacer.engine.export;

import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.run.Activity;
import dev.pacer.ratelimit.api.LimiterSnapshot;
import dev.pacer.ratelimit.api.RateSpec;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A run's figures for Prometheus: wait, service and response time as histograms (classic buckets
 * chosen for latency, and native exponential buckets for scrapers that ask for them), op counts by
 * outcome, target and achieved rate, threads, ops in flight and the limiter's accumulators.
 *
 * A workload's ops have the same figures in families of their own, labelled {@code op}
 * ({@code pacer_op_ops}, {@code pacer_op_response_seconds}, ...), and a multi-step op's steps their service time
 * ({@code pacer_op_step_service_seconds}, labelled {@code op} and {@code step}).
 *
 * <p>Nothing is recorded per op: the reporter publishes each interval ({@link #accept}), which is added
 * into cumulative HdrHistograms; a scrape ({@link #collect}) turns those into the client library's
 * snapshots. The histograms count every op since the run started, warm-up phases included (Prometheus
 * counters only grow); their buckets hold the same values pacer's own percentiles come from, to within
 * a native bucket's width (2<sup>1/32</sup>, about 2.2 %).
 *
 * <p>Threads: the reporter calls {@link #accept}, scrapes call {@link #collect}; both under this
 * object's lock, a few times a second at most.
 */
public final class PrometheusMetrics implements MultiCollector, Consumer<IntervalReport> {

    /** Native histogram schema: buckets grow by 2^(2^-5), about 2.2 % each. */
    static final int NATIVE_SCHEMA = 5;
    /** Classic bucket upper bounds, in seconds: 10 µs to 10 s, about 2.5× apart. */
    static final double[] CLASSIC_BOUNDS = {
            0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
            0.5, 1, 2.5, 5, 10, Double.POSITIVE_INFINITY};

    private final Activity activity;
    private final Map<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
    private final Map<Outcome, Long> outcomes = new LinkedHashMap<>();
    /** A workload's ops by name, in the order first seen (a scenario's phases may run different files). */
    private final Map<String, OpFigures> ops = new LinkedHashMap<>();
    private double achievedRate;

    /** One named op's cumulative figures: its histograms, its outcomes, each step's service time. */
    private static final class OpFigures {
        final Map<Metric, Histogram> histograms = new EnumMap<>(Metric.class);
        final Map<Outcome, Long> outcomes = new LinkedHashMap<>();
        final List<Histogram> steps = new ArrayList<>();

        OpFigures() {
            for (Metric m : Metric.values()) {
                histograms.put(m, IntervalStats.newHistogram());
            }
        }

        void add(IntervalStats op) {
            for (Metric m : Metric.values()) {
                histograms.get(m).add(op.histogram(m));
            }
            op.outcomes().forEach((o, n) -> outcomes.merge(o, n, Long::sum));
            for (int i = 0; i < op.steps(); i++) {
                if (i == steps.size()) {
                    steps.add(IntervalStats.newHistogram());
                }
                steps.get(i).add(op.step(i));
            }
        }
    }

    public PrometheusMetrics(Activity activity) {
        this.activity = activity;
        for (Metric m : Metric.values()) {
            histograms.put(m, IntervalStats.newHistogram());
        }
    }

    /** Reporter thread: adds an interval. */
    @Override
    public synchronized void accept(IntervalReport report) {
        IntervalStats stats = report.stats();
        for (Metric m : Metric.values()) {
            histograms.get(m).add(stats.histogram(m));
        }
        stats.outcomes().forEach((o, n) -> outcomes.merge(o, n, Long::sum));
        for (int i = 0; i < stats.opNames().size(); i++) {
            ops.computeIfAbsent(stats.opNames().get(i), name -> new OpFigures()).add(stats.op(i));
        }
        if (!report.drain()) {
            achievedRate = report.rate();
        }
    }

    @Override
    public synchronized MetricSnapshots collect() {
        MetricSnapshots.Builder all = MetricSnapshots.builder();
        CounterSnapshot.Builder counts = CounterSnapshot.builder().name("pacer_ops")
                .help("Ops completed (or cancelled at the end of the run), by outcome");
        outcomes.forEach((o, n) -> counts.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(Labels.of("outcome", o.label(), "error", Boolean.toString(o.isError()))).value(n).build()));
        all.metricSnapshot(counts.build());
        for (Metric m : Metric.values()) {
            all.metricSnapshot(histogram(m, histograms.get(m)));
        }
        if (!ops.isEmpty()) {
            collectOps(all);
        }
        RateSpec target = activity.rate();
        if (target != null) {
            all.metricSnapshot(gauge("pacer_target_rate", "Target rate in force, ops per second",
                    target.opsPerSecond()));
        }
        all.metricSnapshot(gauge("pacer_achieved_rate", "Ops per second in the last interval", achievedRate));
        all.metricSnapshot(gauge("pacer_threads", "Worker threads (the setting)", activity.threads()));
        all.metricSnapshot(gauge("pacer_in_flight", "Asynchronous ops started and not yet completed",
                activity.inFlight()));
        LimiterSnapshot limiter = activity.limiterSnapshot();
        if (limiter != null) {
            all.metricSnapshot(counter("pacer_limiter_allocated_seconds", "How far the schedule pointer has advanced",
                    limiter.allocatedNanos() / 1e9));
            all.metricSnapshot(counter("pacer_limiter_idle_seconds",
                    "Schedule given away: forfeited by strictness, pauses and rate changes",
                            limiter.idleNanos() / 1e9));
            all.metricSnapshot(gauge("pacer_limiter_lag_seconds",
                    "Clock minus schedule pointer: positive when the schedule is behind", limiter.lagNanos() / 1e9));
        }
        return all.build();
    }

    /**
     * A workload's ops, each labelled {@code op} (and a step's {@code step}, from 1), in families of their own: the
     * run's totals above stay whole, so a sum over the op label never counts an op twice.
     */
    void collectOps(MetricSnapshots.Builder all) {
        CounterSnapshot.Builder counts = CounterSnapshot.builder().name("pacer_op_ops")
                .help("A workload's ops completed (or cancelled at the end of the run), by op and outcome");
        ops.forEach((name, op) -> op.outcomes.forEach((o, n) -> counts.dataPoint(
                CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("op", name, "outcome", o.label(),
                        "error", Boolean.toString(o.isError()))).value(n).build())));
        all.metricSnapshot(counts.build());
        for (Metric m : Metric.values()) {
            HistogramSnapshot.Builder h = HistogramSnapshot.builder().name("pacer_op_" + m.tag() + "_seconds")
                    .unit(Unit.SECONDS).help(help(m) + ", by op");
            ops.forEach((name, op) -> h.dataPoint(point(op.histograms.get(m), Labels.of("op", name))));
            all.metricSnapshot(h.build());
        }
        HistogramSnapshot.Builder steps = HistogramSnapshot.builder().name("pacer_op_step_service_seconds")
                .unit(Unit.SECONDS).help("Service time of each step of a multi-step op, by op and step");
        boolean any = false;
        for (Map.Entry<String, OpFigures> op : ops.entrySet()) {
            for (int i = 0; i < op.getValue().steps.size(); i++) {
                steps.dataPoint(point(op.getValue().steps.get(i), Labels.of("op", op.getKey(), "step",
                        Integer.toString(i + 1))));
                any = true;
            }
        }
        if (any) {
            all.metricSnapshot(steps.build());
        }
    }

    /** One metric's cumulative histogram, in seconds: classic and native buckets from the same values. */
    static HistogramSnapshot histogram(Metric metric, Histogram h) {
        return HistogramSnapshot.builder().name("pacer_" + metric.tag() + "_seconds").unit(Unit.SECONDS)
                .help(help(metric)).dataPoint(point(h, Labels.EMPTY)).build();
    }

    private static String help(Metric metric) {
        return switch (metric) {
            case WAIT -> "Wait time: scheduled to start, how late ops started";
            case SERVICE -> "Service time: start to end";
            case RESPONSE -> "Response time: scheduled to end, coordinated omission corrected";
        };
    }

    /** A cumulative histogram, in seconds, as one data point: classic and native buckets from the same values. */
    private static HistogramSnapshot.HistogramDataPointSnapshot point(Histogram h, Labels labels) {
        long[] classic = new long[CLASSIC_BOUNDS.length];
        TreeMap<Integer, Long> nativeBuckets = new TreeMap<>();
        long zero = 0;
        double sum = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            long n = v.getCountAddedInThisIterationStep();
            // the midpoint of HdrHistogram's bucket: its values are all within 0.1 % of it
            double seconds = h.medianEquivalentValue(v.getValueIteratedTo()) / 1e9;
            sum += seconds * n;
            int c = 0;
            while (seconds > CLASSIC_BOUNDS[c]) {
                c++;
            }
            classic[c] += n;
            if (v.getValueIteratedTo() == 0) {
                zero += n;
            } else {
                nativeBuckets.merge(nativeIndex(seconds), n, Long::sum);
            }
        }
        int[] indexes = nativeBuckets.keySet().stream().mapToInt(Integer::intValue).toArray();
        long[] counts = nativeBuckets.values().stream().mapToLong(Long::longValue).toArray();
        return HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .labels(labels)
                .sum(sum)
                .classicHistogramBuckets(ClassicHistogramBuckets.of(CLASSIC_BOUNDS, boxed(classic)))
                .nativeSchema(NATIVE_SCHEMA).nativeZeroCount(zero).nativeZeroThreshold(0)
                .nativeBucketsForPositiveValues(NativeHistogramBuckets.of(indexes, counts))
                .nativeBucketsForNegativeValues(NativeHistogramBuckets.EMPTY)
                .build();
    }

    /** The native bucket holding {@code x} (> 0): bucket i is (base^(i-1), base^i], base = 2^(2^-schema). */
    static int nativeIndex(double x) {
        return (int) Math.ceil(Math.log(x) / Math.log(2) * (1 << NATIVE_SCHEMA));
    }

    private static Long[] boxed(long[] counts) {
        Long[] b = new Long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            b[i] = counts[i];
        }
        return b;
    }

    private static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }

    private static CounterSnapshot counter(String name, String help, double value) {
        return CounterSnapshot.builder().name(name).help(help)
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build();
    }

    /** The metric names this collector produces (the registry checks them for clashes). */
    @Override
    public List<String> getPrometheusNames() {
        List<String> names = new ArrayList<>(List.of("pacer_ops", "pacer_op_ops", "pacer_op_step_service_seconds"));
        for (Metric m : Metric.values()) {
            names.add("pacer_" + m.tag() + "_seconds");
            names.add("pacer_op_" + m.tag() + "_seconds");
        }
        names.addAll(List.of("pacer_target_rate", "pacer_achieved_rate", "pacer_threads", "pacer_in_flight",
                "pacer_limiter_allocated_seconds", "pacer_limiter_idle_seconds", "pacer_limiter_lag_seconds"));
        return names;
    }
}
