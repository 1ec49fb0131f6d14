package dev.pacer.engine.control;

import dev.pacer.engine.api.ControlEndpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stream that is never read, through the endpoint's real sockets: its writer blocks once the kernel's
 * buffers for it are full, and the next record after the stall limit drops it (its connection closed, the
 * end never sent), while a stream that reads gets every record and the publisher never waits for either.
 *
 * <p>The records are published here, about 2 MB/s, so the never-read socket's buffers fill within
 * seconds: a run's one record per 10 ms interval (about 65 KB/s) takes most of a minute to fill loopback's,
 * which Linux sizes to 4 MB for loopback's 64 KB segments ({@code EventStreamLoadTest} has the run).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EventStreamDropTest {

    static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    @Test
    void aStreamThatIsNeverReadIsDroppedOnceItsBuffersFillAndAReaderGetsEveryRecord() throws Exception {
        // a queue of seconds of these records: the reader is never dropped for a scheduling hiccup
        LiveFeed feed = new LiveFeed(LiveFeed.DEFAULT_HISTORY, 8_192, STALL_NANOS, System::nanoTime);
        IntervalReport record = LiveFeedTest.interval(1, 100, Outcome.OK);
        // the records are published here: the run is never started, and only its stream is served
        ActivityConfig config = new ActivityConfig(OpSpec.parse("noop"), 1, false, RateSpec.parse("100"), null, 0);
        LoadRun idle = new LoadRun(RunOptions.builder(config).build(), cycle -> null,
                new PrintStream(OutputStream.nullOutputStream()), new PrintStream(OutputStream.nullOutputStream()));
        try (HttpControlServer server = HttpControlServer.start(ControlEndpoint.parse("127.0.0.1:0"), null,
                idle.controller(), feed)) {
            int port = server.address().getPort();
            AtomicLong read = new AtomicLong();
            AtomicBoolean readToTheEnd = new AtomicBoolean();
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            Thread reader = Thread.ofVirtual().start(() -> {
                HttpRequest events = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/events"))
                        .build();
                try (BufferedReader in = new BufferedReader(new InputStreamReader(
                        client.send(events, HttpResponse.BodyHandlers.ofInputStream()).body(),
                        StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.startsWith("data: {\"type\":\"interval\"")) {
                            read.incrementAndGet();
                        }
                    }
                    readToTheEnd.set(true);
                } catch (IOException | InterruptedException e) {
                    // counted as not having read to the end
                }
            });
            // The kernel's default receive buffer: a small one (set before connecting, it fixes the window's
            // scale) would fill no sooner, since the server's send buffer takes megabytes, and reading those
            // megabytes back through it can crawl at one segment per 200 ms delayed ACK (seen under load: 9 KB/s).
            Socket stalled = new Socket();
            stalled.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            stalled.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (feed.subscribers() < 2) {
                assertTrue(System.nanoTime() < deadline, "both streams open");
                Thread.sleep(10);
            }

            long connected = System.nanoTime();
            long published = 0;
            while (feed.dropped() == 0) {
                assertTrue(System.nanoTime() < deadline, "the stream that is never read is dropped; "
                        + published + " records published");
                for (int i = 0; i < 8; i++) {
                    feed.interval(record, null, false, 0);
                    published++;
                }
                Thread.sleep(2); // about 3 000 records a second
            }
            System.err.println("EventStreamDropTest: the stream never read was dropped "
                    + (System.nanoTime() - connected) / 1e9 + " s and " + published + " records after it opened");
            assertEquals(1, feed.subscribers(), "the reader's stream stays open");
            for (int i = 0; i < 100; i++) {
                feed.interval(record, null, false, 0);
                published++;
            }
            feed.close();
            reader.join(TimeUnit.SECONDS.toMillis(20));
            assertTrue(readToTheEnd.get(), "the reader's stream ends with the feed");
            assertEquals(published, read.get(), "the reader got every record");

            stalled.setSoTimeout(10_000);
            String tail = drain(stalled.getInputStream(), System.nanoTime() + TimeUnit.SECONDS.toNanos(15));
            stalled.close();
            assertFalse(tail.endsWith("0\r\n\r\n"), "it was cut, not ended");
            assertEquals(1, feed.dropped());
        }
    }

    /**
     * What the socket holds until its end (the last 1 000 characters); fails when it does not end by the
     * deadline (each read is bounded by the socket's timeout).
     */
    static String drain(InputStream in, long deadlineNanos) throws IOException {
        StringBuilder tail = new StringBuilder();
        byte[] buf = new byte[64 * 1024];
        long total = 0;
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                total += n;
                assertTrue(System.nanoTime() < deadlineNanos, "the stream that was dropped is still open, "
                        + total + " bytes read from it");
                tail.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                if (tail.length() > 1_000_000) {
                    tail.delete(0, tail.length() - 1_000);
                }
            }
        } catch (SocketException e) {
            // reset by the server: dropped
        }
        return tail.length() > 1_000 ? tail.substring(tail.length() - 1_000) : tail.toString();
    }
}
