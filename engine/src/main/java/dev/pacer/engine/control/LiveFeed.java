package dev.pacer.engine.control;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.text.Json;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The run as the console page sees it: one JSON record per interval and one per change (plus one at
 * the start and one at the end), kept as the run's history and handed to every open stream.
 *
 * <p>Publishing never waits for a viewer. A record is appended to the history and offered to each
 * {@link Subscription}'s bounded queue; a subscription whose queue is full, or whose writer has been
 * stuck in one write for longer than the stall limit, is dropped there and then (its writer is
 * interrupted, which closes its connection) and never slows the publisher again.
 *
 * <p>Memory is bounded: at most {@code historyLimit} records of history (the oldest intervals are
 * forgotten first; the start record and every change are kept up to the same limit), and at most
 * {@code queueCapacity} records queued per subscription.
 *
 * <p>Threads: {@link #interval} on the reporter thread, {@link #change} on whichever thread made the
 * change (under the activity's lock), {@link #subscribe} and {@link Subscription#next} on each stream's
 * own thread. The history, the subscriber set's membership changes and the offers are serialized by
 * this object's monitor, held only to append and offer (never to write to a socket), so a record a
 * subscriber gets is either in its history snapshot or in its queue, never both, never neither.
 */
public final class LiveFeed {

    /** Records kept for a page that opens late: a day of one-second intervals. */
    public static final int DEFAULT_HISTORY = 100_000;
    /**
     * Records queued for one stream before it is dropped as lagging. Dropping costs a viewer little: the
     * page reconnects and gets the history again.
     */
    public static final int DEFAULT_QUEUE = 256;
    /** The longest report page the end record carries (characters): the history keeps it for late pages. */
    public static final int MAX_REPORT_PAGE_CHARS = 16_000_000;
    /** How long one write to a stream may block before the stream is dropped as lagging. */
    public static final long DEFAULT_STALL_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final int historyLimit;
    private final int queueCapacity;
    private final long stallNanos;
    private final LongSupplier nanoClock;
    // guarded by this
    private final ArrayDeque<String> intervals = new ArrayDeque<>();
    // guarded by this: the start record, changes and the end record, in order, with their place among intervals
    private final List<String> events = new ArrayList<>();
    private final List<Long> eventPlaces = new ArrayList<>();
    // guarded by this: intervals ever published (the place of an event is the count before it)
    private long intervalCount;
    private boolean ended;
    /** Added under this, removed under this by publishers and by {@link #leave}; iterated under this. */
    private final Set<Subscription> subscribers = ConcurrentHashMap.newKeySet();
    /** Streams dropped for lagging, ever; written with incrementAndGet by publishers. */
    private final AtomicLong dropped = new AtomicLong();

    public LiveFeed() {
        this(DEFAULT_HISTORY, DEFAULT_QUEUE, DEFAULT_STALL_NANOS, System::nanoTime);
    }

    /**
     * @param historyLimit  records kept for late viewers
     * @param queueCapacity records queued per stream before it is dropped
     * @param stallNanos    how long one write may block before its stream is dropped
     * @param nanoClock     the monotonic clock writes are timed on
     */
    public LiveFeed(int historyLimit, int queueCapacity, long stallNanos, LongSupplier nanoClock) {
        if (historyLimit < 1 || queueCapacity < 1 || stallNanos < 1) {
            throw new IllegalArgumentException("history, queue and stall limits must be positive");
        }
        this.historyLimit = historyLimit;
        this.queueCapacity = queueCapacity;
        this.stallNanos = stallNanos;
        this.nanoClock = nanoClock;
    }

    /** Now, on the clock writes are timed on (for {@link Subscription#writing}). */
    public long now() {
        return nanoClock.getAsLong();
    }

    /**
     * The run's settings as it starts: its op, rate, threads, planned length ({@code durationSec}, or
     * null), phases ({@code name}, {@code durationSec}, {@code warmup}), interval, log and the op mix's
     * named ops ({@code opNames}, empty for a plain op).
     */
    public void start(ObjectNode settings) {
        ObjectNode n = settings.deepCopy();
        n.put("type", "start");
        publishEvent(n.toString());
    }

    /**
     * One interval (reporter thread): its target, rates, threads, in flight, phase, ops, errors by type, wait and
     * response p50/p99/max, and for a mix's run (a workload) {@code perOp}: per named op, in their order, its
     * {@code ops}, {@code rate}, {@code errors}, wait and response p50/p99/max, and a multi-step op's {@code steps}:
     * each step's service time p50/p99/max, in step order.
     *
     * @param behind the falling-behind warning the terminal shows for it, or null
     * @param paused whether the run is paused at its end
     */
    public void interval(IntervalReport r, String behind, boolean paused, int inFlightCapacity) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("type", "interval");
        n.put("t", r.elapsedSec());
        n.put("seconds", r.stats().seconds());
        if (Double.isNaN(r.targetRate())) {
            n.putNull("target");
        } else {
            n.put("target", r.targetRate());
        }
        n.put("setting", r.target() == null ? null : r.target().toString());
        n.put("rate", r.rate());
        n.put("overallRate", r.overallRate());
        n.put("threads", r.threads());
        n.put("inFlight", r.inFlight());
        n.put("inFlightCapacity", inFlightCapacity);
        n.put("paused", paused);
        n.put("phase", r.phase());
        n.put("warmup", r.warmup());
        n.put("drain", r.drain());
        n.put("ops", r.stats().ops());
        n.put("errors", r.stats().errors());
        ObjectNode byType = n.putObject("errorsByType");
        for (Map.Entry<Outcome, Long> e : r.stats().outcomes().entrySet()) {
            if (e.getKey().isError()) {
                byType.put(e.getKey().label(), e.getValue());
            }
        }
        n.put("totalOps", r.totalOps());
        n.put("totalErrors", r.totalErrors());
        putLatencies(n, r.stats());
        IntervalStats stats = r.stats();
        if (!stats.opNames().isEmpty()) {
            ObjectNode perOp = n.putObject("perOp");
            double seconds = stats.seconds();
            for (int i = 0; i < stats.opNames().size(); i++) {
                IntervalStats op = stats.op(i);
                ObjectNode o = perOp.putObject(stats.opNames().get(i));
                o.put("ops", op.ops()).put("rate", seconds > 0 ? op.ops() / seconds : 0).put("errors", op.errors());
                putLatencies(o, op);
                if (op.steps() > 0) {
                    ArrayNode steps = o.putArray("steps");
                    for (int k = 0; k < op.steps(); k++) {
                        putPercentiles(steps.addObject(), op.step(k));
                    }
                }
            }
        }
        n.put("behind", behind);
        publishInterval(n.toString());
    }

    /** {@code wait} and {@code response}, each {@code p50, p99, max} (ns; 0 when empty), on {@code n}. */
    private static void putLatencies(ObjectNode n, IntervalStats stats) {
        for (Metric m : new Metric[] {Metric.WAIT, Metric.RESPONSE}) {
            putPercentiles(n.putObject(m.tag()), stats.histogram(m));
        }
    }

    /** {@code p50, p99, max} of {@code h} (ns; 0 when empty) on {@code p}. */
    private static void putPercentiles(ObjectNode p, Histogram h) {
        boolean empty = h.getTotalCount() == 0;
        p.put("p50", empty ? 0 : h.getValueAtPercentile(50));
        p.put("p99", empty ? 0 : h.getValueAtPercentile(99));
        p.put("max", empty ? 0 : h.getMaxValue());
    }

    /** One change, as the console acknowledges it ({@code text}) and its parts. */
    public void change(Change c) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("type", "change");
        n.put("t", c.elapsedSec());
        n.put("kind", c.kind().label());
        n.put("value", c.value());
        n.put("source", c.source());
        n.put("note", c.note());
        n.put("text", c.describe());
        publishEvent(n.toString());
    }

    /**
     * The run's end: its summary as printed, whether it passed, how to make the report page of its log
     * ({@code reportCommand}, null when it wrote none) and that page itself ({@code reportPage}, one HTML
     * file of at most {@link #MAX_REPORT_PAGE_CHARS}, or null), which the page offers as a download
     * named {@code reportName}.
     */
    public void end(Summary summary, String summaryText, String reportCommand, String reportPage, String reportName) {
        if (reportPage != null && reportPage.length() > MAX_REPORT_PAGE_CHARS) {
            throw new IllegalArgumentException("a report page of " + reportPage.length() + " characters is over "
                    + MAX_REPORT_PAGE_CHARS);
        }
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("type", "end");
        n.put("passed", summary.passed());
        n.put("failure", summary.failure());
        n.put("summary", summaryText);
        n.put("reportCommand", reportCommand);
        n.put("reportPage", reportPage);
        n.put("reportName", reportPage == null ? null : reportName);
        publishEvent(n.toString());
    }

    private synchronized void publishInterval(String record) {
        intervalCount++;
        intervals.addLast(record);
        while (intervals.size() + events.size() > historyLimit && !intervals.isEmpty()) {
            intervals.removeFirst();
        }
        offer(record);
    }

    private synchronized void publishEvent(String record) {
        if (ended) {
            return;
        }
        ended = record.startsWith("{\"type\":\"end\"");
        if (events.size() < historyLimit) {
            events.add(record);
            eventPlaces.add(intervalCount);
        }
        offer(record);
    }

    /** Under this: hands the record to every stream, dropping those that lag. */
    private void offer(String record) {
        long now = nanoClock.getAsLong();
        for (Subscription s : subscribers) {
            long since = s.writingSince;
            boolean stalled = since != 0 && now - since > stallNanos;
            // the queue's last slot is kept for the end marker
            if (stalled || s.queue.remainingCapacity() <= 1 || !s.queue.offer(record)) {
                subscribers.remove(s);
                dropped.incrementAndGet();
                s.drop();
            }
        }
    }

    /**
     * A new stream: its history (every record so far, in order) and, after it, everything published
     * from now on. The caller's thread is the stream's writer: it calls {@link Subscription#next}.
     */
    public synchronized Subscription subscribe() {
        List<String> history = new ArrayList<>(intervals.size() + events.size());
        long firstKept = intervalCount - intervals.size();
        int e = 0;
        long place = firstKept;
        for (String interval : intervals) {
            while (e < events.size() && eventPlaces.get(e) <= place) {
                history.add(events.get(e++));
            }
            history.add(interval);
            place++;
        }
        while (e < events.size()) {
            history.add(events.get(e++));
        }
        Subscription s = new Subscription(history, queueCapacity, ended);
        if (!ended) {
            subscribers.add(s);
        }
        return s;
    }

    /** A stream that ended (its viewer left, or it was dropped): no more records are offered to it. */
    public void leave(Subscription s) {
        subscribers.remove(s);
    }

    /** Open streams now. */
    public int subscribers() {
        return subscribers.size();
    }

    /** Streams dropped for lagging since the run began. */
    public long dropped() {
        return dropped.get();
    }

    /** No more records: every stream ends once it has written what it holds. */
    public synchronized void close() {
        ended = true;
        for (Subscription s : subscribers) {
            s.finish();
        }
        subscribers.clear();
    }

    /**
     * One open stream. Threads: its writer calls {@link #next}, {@link #writing} and {@link #written};
     * the publishers offer to its queue and may drop or finish it.
     */
    public static final class Subscription {

        private static final String END = new String("end of stream");
        private final List<String> history;
        private final BlockingQueue<String> queue;
        /** Set once by the thread that first calls {@link #next}. */
        private volatile Thread writer;
        /** Set by a publisher that dropped this stream; read by the writer. */
        private volatile boolean droppedFlag;
        /**
         * The feed's clock when the writer began its current write, 0 when not writing; written by the writer
         * only, read by publishers (a stale read can only delay a drop by one record).
         */
        private volatile long writingSince;
        private int replayed;

        private Subscription(List<String> history, int capacity, boolean ended) {
            this.history = history;
            // one slot more than the capacity, for the end marker
            this.queue = new ArrayBlockingQueue<>(capacity + 1);
            if (ended) {
                queue.add(END);
            }
        }

        /** The history records, not yet written. */
        public List<String> history() {
            return history;
        }

        /**
         * The next record to write, waiting for it; null when the stream is over (the run ended and its
         * last record was written, or the stream was dropped for lagging).
         */
        public String next() throws InterruptedException {
            writer = Thread.currentThread();
            if (replayed < history.size()) {
                return history.get(replayed++);
            }
            if (droppedFlag) {
                return null;
            }
            String s = queue.take();
            return s == END ? null : s;
        }

        /** The writer is about to write (the stall clock starts). */
        public void writing(long nowNanos) {
            writingSince = nowNanos == 0 ? 1 : nowNanos;
        }

        /** The writer's write returned. */
        public void written() {
            writingSince = 0;
        }

        /** Whether everything published so far has been handed out by {@link #next}. */
        public boolean caughtUp() {
            return replayed >= history.size() && queue.isEmpty();
        }

        /** Whether a publisher dropped this stream for lagging. */
        public boolean dropped() {
            return droppedFlag;
        }

        private void drop() {
            droppedFlag = true;
            queue.clear();
            Thread w = writer;
            if (w != null) {
                w.interrupt(); // closes its connection if it is blocked writing to it
            }
        }

        private void finish() {
            queue.offer(END); // the extra slot: never full for it unless already finished
        }
    }
}
