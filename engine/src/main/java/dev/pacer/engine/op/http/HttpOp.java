package dev.pacer.engine.op.http;

import dev.pacer.engine.op.Op;
import dev.pacer.engine.op.Outcome;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * One HTTP request per call with {@link java.net.http.HttpClient}: one client shared by all workers
 * (connection reuse), the synchronous {@code send} on the worker's own thread (the workers are the
 * concurrency; with virtual threads thousands are cheap), the body discarded. Thread-safe.
 *
 * <p>A URL without {@code {cycle}} is built into one request once; a template builds its URI per call.
 */
final class HttpOp implements Op {

    private final HttpClient client;
    private final HttpRequestTemplate template;
    private final HttpOutcomes outcomes;
    private final HttpRequest fixed;

    HttpOp(HttpClient client, HttpRequestTemplate template, HttpOutcomes outcomes) {
        this.client = client;
        this.template = template;
        this.outcomes = outcomes;
        this.fixed = template.isFixed() ? template.request(0) : null;
    }

    @Override
    public Outcome run(long cycle) throws InterruptedException {
        HttpRequest request = fixed != null ? fixed : template.request(cycle);
        try {
            HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
            return outcomes.forStatus(response.statusCode());
        } catch (IOException e) {
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("interrupted during " + request.uri());
            }
            return HttpOutcomes.forFailure(e);
        }
    }

    /**
     * Loads and warms {@code java.net.http} (about 80 ms on a cold JVM) against a private server on
     * loopback, never the target: the first measured requests are then as fast as the rest.
     */
    @Override
    public void warmUp() throws IOException, InterruptedException {
        HttpWarmUp.run(client.version());
    }

    @Override
    public void close() {
        client.close();
    }
}
