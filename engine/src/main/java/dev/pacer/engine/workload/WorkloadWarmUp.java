package dev.pacer.engine.workload;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.pacer.engine.api.Completion;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.op.http.AnswerServer;
import dev.pacer.engine.op.http.RequestClient;
import dev.pacer.engine.api.RunClock;
import dev.pacer.engine.op.JitSettling;
import dev.pacer.engine.op.WarmUpDeadline;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A workload op's warm-up, off the target and off the record: its cycles run whole (render, send, read, check,
 * save, the next step) against a private server on loopback ({@link AnswerServer}), on the op's own event loops
 * with connections of their own, so the JIT has compiled the cycle's paths before the first scheduled op. The
 * server answers each request with a response made for it from its step's checks: the first accepted status, a
 * JSON body holding each checked pointer's expected value and a value for each saved pointer (among other
 * properties, as real bodies have), the {@code body} check's text, a header per saved header. It answers in three
 * shapes in turn (nginx's Title-Case headers and JSON with spaces and line breaks, bare lower-case headers and
 * compact JSON, a chunked body), so the paths a passing cycle takes are the ones compiled, whatever the target
 * answers like. ({@code regex} checks are not answered for: they run, and their failure is let pass.)
 *
 * <p>Two rounds, as the http op's warm-up: {@link #IN_FLIGHT} cycles kept in flight from the event loops for
 * {@link #CLOSED} (or {@link #CLOSED_CYCLES}), then cycles started from this thread every
 * {@link #PACED_GAP_NANOS} for {@link #PACED}, as the run's workers start them; then a wait (at most
 * {@link #SETTLE_MAX}) for the JIT to finish what they gave it. Bounded: 2.5 s of rounds and up to 2 s more of
 * waiting; a round whose cycles do not finish is given up after 5 s more; all of it ends by a test's start-at
 * instant (less the engine's margin) when it has one. Nothing reaches the target; the op's own connections are not
 * touched.
 */
final class WorkloadWarmUp {

    static final Duration CLOSED = Duration.ofMillis(2000);
    static final long CLOSED_CYCLES = 100_000;
    static final Duration PACED = Duration.ofMillis(500);
    static final long PACED_GAP_NANOS = 100_000;
    /** What a paced round bounded by a deadline keeps of it for its last answers, at most. */
    static final long DRAIN_NANOS = 100_000_000;
    static final int IN_FLIGHT = 16;
    /** The most connections the warm-up opens, whatever the op's. */
    static final int MAX_CONNECTIONS = 64;
    /** Cycles 0 to this (less one) are the warm-up's, again and again: their answers are made ahead. */
    static final int DISTINCT_CYCLES = 2048;
    static final Duration SETTLE_MAX = Duration.ofSeconds(2);
    /** How long a round waits for its last cycles beyond its own length. */
    static final long GIVE_UP_MILLIS = 5_000;

    /** Real time whatever the run's clock: the warm-up spends it compiling. */
    private static final RunClock REAL = RunClock.system();
    private static final byte[] FALLBACK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
            .getBytes(StandardCharsets.US_ASCII);

    /**
     * What a warm-up did.
     *
     * @param cycles   cycles completed (off the record)
     * @param ok       of them, those whose every step passed its checks
     * @param answered requests the private server answered
     * @param seconds  how long it took, the JIT's settling included
     */
    record Result(long cycles, long ok, long answered, double seconds) {
    }

    private WorkloadWarmUp() {
    }

    /**
     * Runs the rounds, each ended by {@code end} (a test's start-at instant, less the engine's margin): a round it
     * leaves no time for is skipped, the others are shortened.
     */
    static Result run(WorkloadOp op, WarmUpDeadline end) throws InterruptedException {
        long start = REAL.nanoTime();
        Map<String, byte[]> answers = new HashMap<>();
        int maxHead = answers(op, answers);
        AtomicLong completed = new AtomicLong();
        AtomicLong ok = new AtomicLong();
        long answered;
        try (AnswerServer server = AnswerServer.start(op.client(), maxHead, k -> answers.getOrDefault(k, FALLBACK));
             RequestClient local = op.client().to(server.address(), Math.min(op.capacity(), MAX_CONNECTIONS),
                     op.warmSessions())) {
            closedLoop(op, local, completed, ok, end);
            paced(op, local, completed, ok, end);
            answered = server.answered();
        }
        JitSettling.await(end.atMost(SETTLE_MAX));
        return new Result(completed.get(), ok.get(), answered, (REAL.nanoTime() - start) / 1e9);
    }

    private static void closedLoop(WorkloadOp op, RequestClient local, AtomicLong completed, AtomicLong ok,
                                   WarmUpDeadline end) throws InterruptedException {
        long began = REAL.nanoTime();
        // the paced round's time kept for it (half of what is left, when that is less)
        long deadline = end.within(CLOSED.toNanos(), Math.min(PACED.toNanos(), end.nanosLeft() / 2));
        if (deadline <= began) {
            return;
        }
        AtomicLong next = new AtomicLong();
        CountDownLatch done = new CountDownLatch(IN_FLIGHT);
        for (int i = 0; i < IN_FLIGHT; i++) {
            new Lane(op, local, next, deadline, done, completed, ok).next();
        }
        done.await(Math.min(TimeUnit.MILLISECONDS.toNanos(GIVE_UP_MILLIS) + deadline - began, end.nanosLeft()),
                TimeUnit.NANOSECONDS);
    }

    private static void paced(WorkloadOp op, RequestClient local, AtomicLong completed, AtomicLong ok,
                              WarmUpDeadline end) throws InterruptedException {
        long left = end.nanosLeft(); // a quarter of it, 100 ms at most, kept for the last answers
        int n = (int) (Math.min(PACED.toNanos(), left - Math.min(left / 4, DRAIN_NANOS)) / PACED_GAP_NANOS);
        if (n <= 0) {
            return;
        }
        CountDownLatch done = new CountDownLatch(n);
        long at = REAL.nanoTime();
        for (int i = 0; i < n; i++) {
            op.start(local, i % DISTINCT_CYCLES, completion(i, o -> {
                count(o, completed, ok);
                done.countDown();
            }));
            at += PACED_GAP_NANOS;
            long wait = at - REAL.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        done.await(Math.min(TimeUnit.MILLISECONDS.toNanos(GIVE_UP_MILLIS), end.nanosLeft()), TimeUnit.NANOSECONDS);
    }

    private static void count(Outcome o, AtomicLong completed, AtomicLong ok) {
        completed.incrementAndGet();
        if (o == null) {
            ok.incrementAndGet();
        }
    }

    /** Completions of three classes in turn: the client's call to them is megamorphic before the run's arrives. */
    private static Completion completion(long i, java.util.function.Consumer<Outcome> then) {
        return switch ((int) (i % 3)) {
            case 0 -> new First(then);
            case 1 -> new Second(then);
            default -> new Third(then);
        };
    }

    private record First(java.util.function.Consumer<Outcome> then) implements Completion {
        @Override
        public void complete(Outcome outcome) {
            then.accept(outcome);
        }
    }

    private record Second(java.util.function.Consumer<Outcome> then) implements Completion {
        @Override
        public void complete(Outcome outcome) {
            then.accept(outcome);
        }
    }

    private record Third(java.util.function.Consumer<Outcome> then) implements Completion {
        @Override
        public void complete(Outcome outcome) {
            then.accept(outcome);
        }
    }

    /**
     * One of the closed loop's lanes: each cycle's completion starts the next, until the deadline or the count. A
     * cycle that completes inside its own start (a used-up csv file sends nothing) is followed by a loop, not a
     * deeper call.
     */
    private static final class Lane {
        private static final int IDLE = 0;
        private static final int STARTING = 1;
        private static final int DONE_WHILE_STARTING = 2;

        private final WorkloadOp op;
        private final RequestClient local;
        private final AtomicLong next;
        private final long deadline;
        private final CountDownLatch done;
        private final AtomicLong completed;
        private final AtomicLong ok;
        /** IDLE, STARTING, DONE_WHILE_STARTING: whether the completion came before start returned. */
        private final AtomicInteger state = new AtomicInteger(IDLE);

        Lane(WorkloadOp op, RequestClient local, AtomicLong next, long deadline, CountDownLatch done,
             AtomicLong completed, AtomicLong ok) {
            this.op = op;
            this.local = local;
            this.next = next;
            this.deadline = deadline;
            this.done = done;
            this.completed = completed;
            this.ok = ok;
        }

        void next() {
            while (true) {
                long n = next.getAndIncrement();
                if (n >= CLOSED_CYCLES || REAL.nanoTime() >= deadline) {
                    done.countDown();
                    return;
                }
                state.set(STARTING);
                op.start(local, n % DISTINCT_CYCLES, completion(n, this::completed));
                if (state.compareAndSet(STARTING, IDLE)) {
                    return; // its completion comes later and goes on
                }
            }
        }

        private void completed(Outcome o) {
            count(o, completed, ok);
            if (!state.compareAndSet(STARTING, DONE_WHILE_STARTING)) {
                next();
            }
        }
    }

    /**
     * Makes the answer to each request of cycles 0 to {@link #DISTINCT_CYCLES} (less one), by its request line;
     * returns the longest request head (line and headers) in bytes, for the server's limits.
     */
    static int answers(WorkloadOp op, Map<String, byte[]> into) {
        Bytes out = new Bytes(512);
        Bytes body = new Bytes(256);
        int maxHead = 8192;
        for (long c = 0; c < DISTINCT_CYCLES; c++) {
            if (!op.has(c)) {
                continue;
            }
            Workload.Op o = op.opFor(c);
            CycleState st = new CycleState(c, o.savedNames().size());
            try {
                for (Workload.Step step : o.steps()) {
                    Rendered.writeHttp1(step, st, op.head(), out, body);
                    String request = new String(out.array, 0, out.length, StandardCharsets.ISO_8859_1);
                    int lineEnd = request.indexOf(" HTTP/1.1\r\n");
                    maxHead = Math.max(maxHead, request.indexOf("\r\n\r\n") + 1024);
                    into.put(request.substring(0, lineEnd), answer(step, st, c));
                    for (Workload.Save save : step.saves()) {
                        st.saved[save.slot()] = saved(c); // what the answer gives: the next step is rendered with it
                        st.savedIsText[save.slot()] = true;
                    }
                }
            } catch (RuntimeException e) {
                // a cycle that cannot render fails in the run too, counted there; the warm-up goes without its answer
            }
        }
        return maxHead;
    }

    /** A saved value as the warm-up's answers give it: an id with a dash, as ids go ({@code o-12}: URL-safe). */
    private static String saved(long cycle) {
        return "w-" + cycle;
    }

    /** A response that passes the step's checks (but a regex) and gives its saves, in one of three shapes. */
    static byte[] answer(Workload.Step step, CycleState st, long cycle) {
        Workload.Check check = step.check();
        int status = 200;
        if (check != null && check.status() != null) {
            status = accepted(check.status());
        }
        ObjectNode json = null;
        if (check != null && !check.json().isEmpty() || step.saves().stream().anyMatch(s -> s.pointer() != null)) {
            json = StepCheck.JSON.createObjectNode();
            if (check != null) {
                for (Workload.JsonEquals eq : check.json()) {
                    put(json, eq.pointer(), value(eq.expected().render(st)));
                }
            }
            for (Workload.Save save : step.saves()) {
                if (save.pointer() != null) {
                    put(json, save.pointer(), TextNode.valueOf(saved(cycle)));
                }
            }
        }
        String contains = check != null && check.contains() != null ? check.contains().render(st) : null;
        if (json != null) {
            if (contains != null) {
                json.put("text", contains); // JSON-escaped: a text with quotes or backslashes is not found
            }
            // what a pointer passes by, as in real bodies: names no pointer names, a string, a number, an array
            json.put("description", "warm-up answer " + cycle).put("count", cycle).putArray("tags").add("w").add(1);
        }
        int shape = (int) (cycle % 3);
        String text = json != null ? (shape == 0 ? pretty(json) : json.toString()) : contains != null ? contains : "ok";
        byte[] payload = status == 204 || status == 304 || status < 200 ? new byte[0]
                : text.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" OK\r\n");
        for (Workload.Save save : step.saves()) {
            if (save.header() != null) {
                head.append(save.header()).append(": ").append(saved(cycle)).append("\r\n");
            } else if (save.cookie() != null) {
                head.append("Set-Cookie: ").append(save.cookie()).append('=').append(saved(cycle))
                        .append("; Path=/; HttpOnly\r\n");
            }
        }
        if (shape == 2 && payload.length > 1) { // chunked, in two chunks
            head.append("content-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n");
            int half = payload.length / 2;
            byte[] first = java.util.Arrays.copyOfRange(payload, 0, half);
            byte[] second = java.util.Arrays.copyOfRange(payload, half, payload.length);
            return concat(head.toString(), Integer.toHexString(first.length) + "\r\n", first,
                    "\r\n" + Integer.toHexString(second.length) + "\r\n", second, "\r\n0\r\n\r\n");
        }
        if (shape == 0) {
            head.append("Server: nginx\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\nContent-Type: application/json\r\n")
                    .append("Content-Length: ").append(payload.length).append("\r\nConnection: keep-alive\r\n\r\n");
        } else {
            head.append("content-length: ").append(payload.length).append("\r\n\r\n");
        }
        return concat(head.toString(), "", payload, "", new byte[0], "");
    }

    /** JSON with spaces and line breaks, as many servers write it. */
    private static String pretty(JsonNode json) {
        try {
            return StepCheck.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return json.toString();
        }
    }

    private static byte[] concat(String a, String b, byte[] c, String d, byte[] e, String f) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(a.getBytes(StandardCharsets.UTF_8));
        out.writeBytes(b.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(c);
        out.writeBytes(d.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(e);
        out.writeBytes(f.getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    /** The first status a check accepts, 2xx to 5xx before 1xx; 200 when it accepts none of them. */
    private static int accepted(long[] bits) {
        for (int pass = 0; pass < 2; pass++) {
            for (int s = pass == 0 ? 200 : 100; s < (pass == 0 ? 600 : 200); s++) {
                if ((bits[s >> 6] & (1L << s)) != 0) {
                    return s;
                }
            }
        }
        return 200;
    }

    /** An expected value as the JSON a server would send for it: a whole number or a boolean bare, else a string. */
    private static JsonNode value(String text) {
        if (text.matches("-?(0|[1-9][0-9]{0,17})")) {
            return LongNode.valueOf(Long.parseLong(text));
        }
        if (text.equals("true") || text.equals("false")) {
            return BooleanNode.valueOf(text.equals("true"));
        }
        return TextNode.valueOf(text);
    }

    /** Sets the value at a pointer of objects (a segment is a property, an index too); skipped where it conflicts. */
    private static void put(ObjectNode root, JsonPointer pointer, JsonNode value) {
        if (pointer.matches()) {
            return; // the whole body: not with other values
        }
        ObjectNode node = root;
        JsonPointer p = pointer;
        while (!p.tail().matches()) {
            JsonNode child = node.get(p.getMatchingProperty());
            if (child == null) {
                child = node.putObject(p.getMatchingProperty());
            } else if (!child.isObject()) {
                return;
            }
            node = (ObjectNode) child;
            p = p.tail();
        }
        node.set(p.getMatchingProperty(), value);
    }
}
