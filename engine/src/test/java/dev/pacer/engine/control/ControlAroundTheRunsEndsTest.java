package dev.pacer.engine.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.ControlEndpoint;
import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.internal.LoadRun;
import dev.pacer.engine.internal.RunOptions;
import dev.pacer.engine.run.ActivityConfig;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Control over HTTP at the run's two ends. Before the start: a change asked while the run waits for a far --start-at
 * is answered at once, refused, and never applied later (it waited up to 60 s in the server, past {@code pacer
 * control}'s 10 s, which then reported a failure for a change the run made when it started). After the stop: a
 * second stop ends the grace for ops in flight, as a second Ctrl-C does (it was refused: the run had stopped).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControlAroundTheRunsEndsTest {

    @Test
    void aSecondStopOverHttpEndsTheGraceForOpsInFlightAtOnce() throws Exception {
        java.util.concurrent.CountDownLatch opStarted = new java.util.concurrent.CountDownLatch(1);
        ActivityConfig config = new ActivityConfig(OpSpec.parse("sleep:40s"), 1, false, RateSpec.parse("100"),
                Duration.ofSeconds(60), 0);
        LoadRun run = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(100))
                .grace(Duration.ofSeconds(60)).build(), cycle -> {
                    opStarted.countDown();
                    Thread.sleep(40_000);
                    return null;
                }, new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()));
        Thread runner = started(run);
        try (HttpClient client = HttpClient.newHttpClient();
             HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), null, run.controller())) {
            assertTrue(run.activity().awaitStarted(30, TimeUnit.SECONDS));
            assertTrue(opStarted.await(30, TimeUnit.SECONDS), "the first op, of 40 s, is under way");
            HttpRequest stop = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.address().getPort()
                    + "/stop")).timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.noBody()).build();
            assertEquals(200, client.send(stop, HttpResponse.BodyHandlers.ofString()).statusCode());
            runner.join(1000);
            assertTrue(runner.isAlive(), "the first stop leaves its op of 40 s its grace");
            long t0 = System.nanoTime();
            HttpResponse<String> second = client.send(stop, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, second.statusCode(), second.body());
            runner.join(20_000);
            assertFalse(runner.isAlive(), "the second stop ended the grace");
            assertTrue(System.nanoTime() - t0 < 20_000_000_000L);
            List<String> stops = run.activity().changes().stream().filter(c -> c.kind() == ChangeKind.STOP)
                    .map(c -> c.source() + ": " + c.note()).toList();
            assertEquals(List.of("http: ", "http: ended the grace for ops in flight"), stops,
                    "both recorded, the second saying why the op in flight was cancelled");
        } finally {
            run.requestStop(StopReason.CONTROL, "test");
            runner.join(60_000);
        }
    }

    @Test
    void aChangeBeforeAFarStartAtIsRefusedAtOnceAndNeverApplied() throws Exception {
        Instant startAt = Instant.now().plusSeconds(3600);
        ActivityConfig config = new ActivityConfig(OpSpec.parse("noop"), 1, false, RateSpec.parse("1000"),
                Duration.ofSeconds(5), 0, 0, Arrivals.UNIFORM, null, null, startAt, LimiterDesign.ATOMIC, null);
        LoadRun run = new LoadRun(RunOptions.builder(config).interval(Duration.ofMillis(100)).build(),
                cycle -> null, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()));
        Thread runner = started(run);
        try (HttpClient client = HttpClient.newHttpClient();
             HttpControlServer s = HttpControlServer.start(ControlEndpoint.parse("0"), null, run.controller())) {
            for (String[] ask : new String[][] {{"/rate", "3000"}, {"/threads", "4"}}) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                + s.address().getPort() + ask[0])).timeout(Duration.ofSeconds(5))
                        .POST(HttpRequest.BodyPublishers.ofString(ask[1])).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(400, r.statusCode(), r.body());
                assertTrue(r.body().contains("starts at " + startAt) && r.body().contains("(--start-at)"), r.body());
            }
            assertFalse(run.activity().awaitStarted(0, TimeUnit.NANOSECONDS), "still waiting for its start");
            assertEquals(java.util.List.of(), run.activity().changes(), "nothing changed");
        } finally {
            run.requestStop(StopReason.CONTROL, "test");
            runner.join(20_000);
        }
        assertFalse(runner.isAlive(), "the run ended when stopped before its start");
    }

    /** A thread running {@code run}, started. */
    private static Thread started(LoadRun run) {
        Thread runner = new Thread(() -> {
            try {
                run.run();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        runner.start();
        return runner;
    }
}
