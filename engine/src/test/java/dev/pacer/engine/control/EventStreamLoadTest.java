package dev.pacer.engine.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pacer.engine.LoadTest;
import dev.pacer.engine.text.Json;
import dev.pacer.engine.api.Summary;
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
 * keeps its rate and every reader gets every record to the end. In a run this short the records the one
 * that never reads is sent all fit in the kernel's buffers for it, so it is not dropped here:
 * {@code EventStreamDropTest} fills them and sees it dropped.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EventStreamLoadTest {

    static final int READERS = 50;
    static final double RATE = 100_000;
    /** How long the run goes on with every stream open, in 10 ms intervals. */
    static final int INTERVALS_WATCHED = 400;

    @Test
    void fiftyReadersAndOneThatNeverReadsLeaveTheRunsRateAloneAndEveryReaderGetsEverything() throws Exception {
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
        Socket stalled = new Socket();
        stalled.setReceiveBufferSize(4096);
        stalled.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        OutputStream request = stalled.getOutputStream();
        request.write(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        request.flush();

        // every stream open, then the run goes on for a while with all of them
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        JsonNode viewers;
        do {
            Thread.sleep(100);
            HttpRequest status = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status")).build();
            viewers = Json.MAPPER.readTree(client.send(status, HttpResponse.BodyHandlers.ofString()).body());
            assertTrue(System.nanoTime() < deadline, "every stream opens: " + viewers);
        } while (viewers.get("viewers").get("open").asInt() < READERS + 1);
        long watchedFrom = intervals.get();
        long watchedUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (intervals.get() < watchedFrom + INTERVALS_WATCHED) {
            assertTrue(System.nanoTime() < watchedUntil, "the run goes on");
            Thread.sleep(50);
        }
        HttpRequest status = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status")).build();
        viewers = Json.MAPPER.readTree(client.send(status, HttpResponse.BodyHandlers.ofString()).body());
        assertTrue(viewers.get("running").asBoolean(), viewers.toString());
        assertTrue(viewers.get("viewers").get("open").asInt() >= READERS, "the readers' streams stay open: " + viewers);
        run.stop();

        Summary s = run.await(Duration.ofSeconds(60)).summary();
        stalled.close();
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
}
