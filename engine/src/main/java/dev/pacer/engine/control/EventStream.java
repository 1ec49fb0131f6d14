package dev.pacer.engine.control;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /events}: the run's records as server-sent events ({@code text/event-stream}), one
 * {@code data:} line of JSON each, the history first, then live until the run ends. The exchange's own
 * thread writes: it is the only thread that ever blocks on this viewer, and the {@link LiveFeed} drops
 * the stream (interrupting this thread, which closes the connection) when the viewer lags.
 */
final class EventStream {

    private EventStream() {
    }

    /** Writes the stream on the calling thread until the run ends, the viewer leaves or lags. */
    static void serve(HttpExchange ex, LiveFeed feed) throws IOException {
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", "text/event-stream; charset=utf-8");
        h.set("Cache-Control", "no-store");
        h.set("X-Content-Type-Options", "nosniff");
        LiveFeed.Subscription sub = feed.subscribe();
        try {
            ex.sendResponseHeaders(200, 0);
            OutputStream out = new BufferedOutputStream(ex.getResponseBody(), 16 * 1024);
            for (String record; (record = sub.next()) != null; ) {
                sub.writing(feed.now());
                out.write(("data: " + record + "\n\n").getBytes(StandardCharsets.UTF_8));
                if (sub.caughtUp()) {
                    out.flush(); // the history in large writes, live records at once
                }
                sub.written();
            }
            out.flush();
            out.close();
        } catch (InterruptedException e) {
            // dropped for lagging (or the server is closing): the connection is closed with the exchange
        } catch (IOException e) {
            // the viewer left
        } finally {
            feed.leave(sub);
        }
    }
}
