package dev.pacer.engine;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A server of known capacity: the JDK's HTTP server with a fixed pool of {@code workers} threads, each
 * taking {@code serviceMillis} per request, so it serves at most workers × 1000 / serviceMillis
 * requests per second; beyond that requests queue. The pool can be resized while it runs.
 */
final class CapacityServer implements AutoCloseable {

    private final HttpServer server;
    private final ThreadPoolExecutor pool;
    private final AtomicLong served = new AtomicLong();

    CapacityServer(int workers, long serviceMillis) throws IOException {
        pool = new ThreadPoolExecutor(workers, workers, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.setExecutor(pool);
        byte[] body = "ok\n".getBytes();
        server.createContext("/", ex -> {
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(serviceMillis);
            // the request holds its worker for the service time: sleep the bulk, spin the rest
            long left;
            while ((left = until - System.nanoTime()) > 0) {
                if (left > 1_000_000) {
                    try {
                        Thread.sleep(Math.max(1, (left - 500_000) / 1_000_000));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                } else {
                    Thread.onSpinWait();
                }
            }
            ex.getRequestBody().readAllBytes();
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
            served.incrementAndGet();
        });
        server.start();
    }

    /**
     * A capacity is only what the machine leaves the server: these tests measure against 4 workers' worth
     * of CPU time, so on a machine already busier than its cores (other builds beside the test) they are
     * skipped, loudly, rather than judged on a capacity nobody set.
     */
    static void assumeQuietMachine() {
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        int cores = Runtime.getRuntime().availableProcessors();
        org.junit.jupiter.api.Assumptions.assumeTrue(load < cores,
                "skipped: load average " + load + " on " + cores + " cores leaves the server less than its capacity");
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /** Changes the number of workers, so the capacity, while requests are served. */
    void resize(int workers) {
        if (workers > pool.getMaximumPoolSize()) {
            pool.setMaximumPoolSize(workers);
            pool.setCorePoolSize(workers);
        } else {
            pool.setCorePoolSize(workers);
            pool.setMaximumPoolSize(workers);
        }
    }

    long served() {
        return served.get();
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
