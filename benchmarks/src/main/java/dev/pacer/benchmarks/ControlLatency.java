package dev.pacer.benchmarks;

import dev.pacer.engine.ActivityConfig;
import dev.pacer.engine.LoadRun;
import dev.pacer.engine.RunOptions;
import dev.pacer.engine.control.ControlEndpoint;
import dev.pacer.engine.control.HttpControlServer;
import dev.pacer.engine.control.RunController;
import dev.pacer.engine.control.RunStatus;
import dev.pacer.engine.op.OpSpec;
import dev.pacer.ratelimit.RateSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How long a {@code POST /rate} takes to show in the op stream: a run at 1000 ops/s with 2 threads and
 * its HTTP control endpoint; 100 changes alternating 1000 ↔ 4000 ops/s, 300-500 ms apart. Every op's
 * start time is recorded; for each change, "taking effect" is the start of the first op that follows
 * its predecessor at the new spacing (gap on the new side of the 500 µs midpoint).
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
        LoadRun run = new LoadRun(new RunOptions(config, Duration.ofSeconds(1), null, null, false, List.of(), 1),
                cycle -> {
                    int i = n.getAndIncrement();
                    if (i < starts.length) {
                        starts[i] = System.nanoTime();
                    }
                    return null;
                }, sink, sink);
        RunController controller = new RunController(run, new RunStatus(run.activity()));
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
        try (HttpControlServer server = HttpControlServer.start(ControlEndpoint.parse("0"), null, controller);
             HttpClient client = HttpClient.newHttpClient()) {
            URI rate = URI.create("http://127.0.0.1:" + server.address().getPort() + "/rate");
            client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.address().getPort() + "/status"))
                    .build(), HttpResponse.BodyHandlers.discarding()); // connection and JIT warm-up
            Thread.sleep(1000);
            for (int c = 0; c < changes; c++) {
                newRate[c] = c % 2 == 0 ? 4000 : 1000;
                HttpRequest post = HttpRequest.newBuilder(rate)
                        .POST(HttpRequest.BodyPublishers.ofString(Long.toString((long) newRate[c]))).build();
                sent[c] = System.nanoTime();
                HttpResponse<String> r = client.send(post, HttpResponse.BodyHandlers.ofString());
                answered[c] = System.nanoTime();
                if (r.statusCode() != 200) {
                    throw new IllegalStateException(r.body());
                }
                Thread.sleep(300 + ThreadLocalRandom.current().nextInt(200));
            }
        }
        run.requestStop("done", "harness");
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
