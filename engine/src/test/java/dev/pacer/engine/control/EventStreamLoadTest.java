package dev.pacer.engine.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.text.Json;
import dev.pacer.engine.result.Summary;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many viewers of the console's stream during a fast run: 50 that read and one that never does. The run
 * keeps its rate, every reader gets every record to the end, and the one that never reads is dropped
 * while the run goes on (its connection closed before the run's end, which it never gets).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class EventStreamLoadTest {

    static final int READERS = 50;
    static final double RATE = 100_000;

    @Test
    void fiftyReadersAndOneThatNeverReadsLeaveTheRunsRateAloneAndTheStalledOneIsDropped() throws Exception {
        AtomicLong intervals = new AtomicLong();
        LoadTest.Running run = LoadTest.rate(RATE).threads(2).op("noop").duration(Duration.ofSeconds(200))
                .interval(Duration.ofMillis(10)).control("127.0.0.1:0", null)
                .onInterval(r -> intervals.incrementAndGet()).start();
        int port = ConsolePageInBrowserTest.port(run);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<AtomicLong> received = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        List<AtomicBoolean> sawEnd = new ArrayList<>();
        for (int i = 0; i < READERS; i++) {
            AtomicBoolean end = new AtomicBoolean();
            sawEnd.add(end);
            AtomicLong records = new AtomicLong();
            received.add(records);
            readers.add(Thread.ofVirtual().start(() -> {
                try {
                    HttpRequest events = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/events"))
                            .build();
                    HttpResponse<InputStream> r = client.send(events, HttpResponse.BodyHandlers.ofInputStream());
                    try (var in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            if (line.startsWith("data: {\"type\":\"interval\"")) {
                                records.incrementAndGet();
                            } else if (line.startsWith("data: {\"type\":\"end\"")) {
                                end.set(true);
                            }
                        }
                    }
                } catch (IOException | InterruptedException e) {
                    // counted as not having seen the end
                }
            }));
        }
        Thread.sleep(1_000);
        Socket stalled = new Socket();
        stalled.setReceiveBufferSize(4096);
        stalled.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        OutputStream request = stalled.getOutputStream();
        request.write(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        request.flush();
        long connected = System.nanoTime();

        // its stream's writer blocks once the kernel's socket buffers are full (a few megabytes on loopback: about a
        // minute of 10 ms intervals); after the stall limit the next record drops it, while the run goes on and the
        // readers keep reading
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
        JsonNode viewers;
        do {
            Thread.sleep(200);
            HttpRequest status = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status")).build();
            viewers = Json.MAPPER.readTree(client.send(status, HttpResponse.BodyHandlers.ofString()).body());
            assertTrue(viewers.get("running").asBoolean(), "the run is still running: " + viewers);
            assertTrue(System.nanoTime() < deadline, "the stream that is never read is dropped: " + viewers);
        } while (viewers.get("viewers").get("dropped").asInt() == 0);
        System.err.println("EventStreamLoadTest: the stream never read was dropped "
                + (System.nanoTime() - connected) / 1e9 + " s after it connected");
        assertEquals(1, viewers.get("viewers").get("dropped").asInt(), viewers.toString());
        assertEquals(READERS, viewers.get("viewers").get("open").asInt(), "the readers' streams stay open");
        stalled.setSoTimeout(10_000);
        String tail = drain(stalled.getInputStream());
        assertFalse(tail.contains("{\"type\":\"end\""), "it was cut, not ended");
        stalled.close();
        Thread.sleep(1_000);
        run.stop();

        Summary s = run.await(Duration.ofSeconds(60)).summary();
        for (Thread t : readers) {
            t.join(TimeUnit.SECONDS.toMillis(10));
        }
        for (int i = 0; i < READERS; i++) {
            assertTrue(sawEnd.get(i).get(), "reader " + i + " read to the run's end");
        }
        for (int i = 0; i < READERS; i++) {
            assertEquals(intervals.get(), received.get(i).get(), "reader " + i + " got every interval");
        }
        assertEquals(RATE, s.achievedRate(), RATE * 0.02, "the run's rate, with 51 viewers");
    }

    /** Reads what the socket holds until its end; fails when it does not end within the socket's timeout. */
    private static String drain(InputStream in) throws IOException {
        StringBuilder tail = new StringBuilder();
        byte[] buf = new byte[64 * 1024];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                tail.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                if (tail.length() > 1_000_000) {
                    tail.delete(0, tail.length() - 1_000);
                }
            }
        } catch (java.net.SocketException e) {
            // reset by the server: dropped
        }
        return tail.toString();
    }
}
