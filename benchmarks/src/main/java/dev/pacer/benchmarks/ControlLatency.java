package dev.pacer.benchmarks;

import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import dev.pacer.engine.api.ControlEndpoint;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How long a {@code POST /rate} takes to show in the op stream: a run at 1000 ops/s with 2 threads and
 * its HTTP control endpoint; 100 changes alternating 1000 ↔ 4000 ops/s, 300-500 ms apart. Every op's
 * start time is recorded; for each change, "taking effect" is the start of the first op that follows
 * its predecessor at the new spacing (gap on the new side of the 500 µs midpoint). Requests go over one
 * keep-alive connection written by hand, so the figures are the endpoint's, not an HTTP client's.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.pacer.benchmarks.ControlLatency [changes]</pre>
 */
public final class ControlLatency {

    public static void main(String[] args) throws Exception {
        int changes = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        long[] starts = new long[2_000_000];
        AtomicInteger n = new AtomicInteger();
        ActivityConfig config = new ActivityConfig(OpSpec.parse("record"), 2, false, RateSpec.parse("1000"), null, 0);
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        LoadRun run = new LoadRun(RunOptions.builder(config).control(ControlEndpoint.parse("0"), null).build(),
                cycle -> {
                    int i = n.getAndIncrement();
                    if (i < starts.length) {
                        starts[i] = System.nanoTime();
                    }
                    return null;
                }, sink, sink);
        Thread runner = new Thread(() -> {
            try {
                run.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        runner.start();
        run.activity().awaitStarted(10, TimeUnit.SECONDS);
        long[] sent = new long[changes];
        long[] answered = new long[changes];
        double[] newRate = new double[changes];
        try (Socket socket = new Socket("127.0.0.1", run.controlAddress().getPort())) {
            // a plain keep-alive HTTP/1.1 connection, as curl or a script would hold: "sent" is when the
            // request is written, with no client library in between
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            post(out, in, "1000"); // connection and JIT warm-up
            Thread.sleep(1000);
            for (int c = 0; c < changes; c++) {
                newRate[c] = c % 2 == 0 ? 4000 : 1000;
                sent[c] = System.nanoTime();
                int status = post(out, in, Long.toString((long) newRate[c]));
                answered[c] = System.nanoTime();
                if (status != 200) {
                    throw new IllegalStateException("POST /rate answered " + status);
                }
                Thread.sleep(300 + ThreadLocalRandom.current().nextInt(200));
            }
        }
        run.requestStop(StopReason.CONTROL, "harness");
        runner.join();

        int ops = Math.min(n.get(), starts.length);
        long[] s = Arrays.copyOf(starts, ops);
        Arrays.sort(s);
        double[] roundTrip = new double[changes];
        double[] effect = new double[changes];
        for (int c = 0; c < changes; c++) {
            boolean faster = newRate[c] == 4000;
            int k = Arrays.binarySearch(s, sent[c]);
            k = k < 0 ? -k - 1 : k;
            while (k < ops && (k == 0 || (faster ? s[k] - s[k - 1] >= 500_000 : s[k] - s[k - 1] < 500_000))) {
                k++;
            }
            roundTrip[c] = (answered[c] - sent[c]) / 1e3;
            effect[c] = (s[Math.min(k, ops - 1)] - sent[c]) / 1e3;
        }
        System.out.printf("changes %d (1000 <-> 4000 ops/s, 2 threads), ops recorded %d%n", changes, ops);
        print("POST /rate round trip (request sent -> 200 received)", roundTrip);
        print("POST /rate -> first op at the new spacing", effect);
        print("  ... of which 1000 -> 4000", every(effect, 0));
        print("  ... of which 4000 -> 1000", every(effect, 1));
    }

    /** POST /rate on a keep-alive connection; returns the status code after reading the whole answer. */
    private static int post(OutputStream out, InputStream in, String body) throws IOException {
        out.write(("POST /rate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String statusLine = line(in);
        int length = 0;
        for (String h; !(h = line(in)).isEmpty(); ) {
            if (h.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(h.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return Integer.parseInt(statusLine.split(" ")[1]);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                throw new IOException("connection closed");
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    private static double[] every(double[] v, int offset) {
        double[] out = new double[(v.length - offset + 1) / 2];
        for (int i = offset, j = 0; i < v.length; i += 2, j++) {
            out[j] = v[i];
        }
        return out;
    }

    private static void print(String what, double[] micros) {
        double[] v = micros.clone();
        Arrays.sort(v);
        System.out.printf("%-55s median %8.0f us  p90 %8.0f us  max %8.0f us%n", what, v[v.length / 2],
                v[(int) (v.length * 0.9)], v[v.length - 1]);
    }
}
