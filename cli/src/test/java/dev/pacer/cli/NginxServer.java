package dev.pacer.cli;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private nginx for a test: its own config, log and temp folders under the test's folder, answering
 * {@code 200 ok} on one address, logging {@code $msec $status $request_uri} per request to {@code access.log}.
 * Started (optionally inside a network namespace) and waited for; {@link #close()} stops it with SIGTERM, so it
 * flushes its log.
 */
final class NginxServer implements AutoCloseable {

    private final Process process;

    private NginxServer(Process process) {
        this.process = process;
    }

    /** Debian's nginx, or null when it is not installed. */
    static Path binary() {
        for (String candidate : List.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }

    /**
     * Starts nginx listening on {@code host:port}, under {@code wrapper} (e.g. {@code ip netns exec NS}; empty for
     * none), and waits until it accepts a connection from here.
     */
    static NginxServer start(Path nginx, Path dir, List<String> wrapper, String host, int port) throws Exception {
        return start(nginx, dir, wrapper, host, port, "", "");
    }

    /**
     * As {@link #start(Path, Path, List, String, int)}, with options for the {@code listen} line ({@code http2}:
     * h2c with prior knowledge) and directives for the server block (e.g. {@code keepalive_requests 100;}: after
     * that many requests nginx ends a connection, with {@code Connection: close} or a GOAWAY).
     */
    static NginxServer start(Path nginx, Path dir, List<String> wrapper, String host, int port, String listenOptions,
                             String serverDirectives) throws Exception {
        return start(nginx, dir, wrapper, host, port, listenOptions, serverDirectives,
                "location / { return 200 \"ok\\n\"; }", "'$msec $status $request_uri'");
    }

    /** Starts nginx with these {@code location}s (statuses and bodies of a test's own) and this access log format. */
    static NginxServer startWithLocations(Path nginx, Path dir, List<String> wrapper, String host, int port,
                                          String locations, String logFormat) throws Exception {
        return start(nginx, dir, wrapper, host, port, "", "", locations, logFormat);
    }

    private static NginxServer start(Path nginx, Path dir, List<String> wrapper, String host, int port,
                                     String listenOptions, String serverDirectives, String locations,
                                     String logFormat) throws Exception {
        for (String t : List.of("body", "proxy", "fastcgi", "uwsgi", "scgi")) {
            Files.createDirectories(dir.resolve("tmp").resolve(t));
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        Files.writeString(dir.resolve("nginx.conf"), (root ? "user root;\n" : "") + """
                daemon off;
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 4096; }
                http {
                  log_format timed %7$s;
                  access_log %1$s/access.log timed;
                  client_body_temp_path %1$s/tmp/body;
                  proxy_temp_path %1$s/tmp/proxy;
                  fastcgi_temp_path %1$s/tmp/fastcgi;
                  uwsgi_temp_path %1$s/tmp/uwsgi;
                  scgi_temp_path %1$s/tmp/scgi;
                  keepalive_requests 1000000;
                  server {
                    listen %2$s:%3$d %4$s;
                    %5$s
                    %6$s
                  }
                }
                """.formatted(dir, host, port, listenOptions, serverDirectives, locations, logFormat));
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(List.of(nginx.toString(), "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("nginx.out")
                .toFile()).start();
        NginxServer server = new NginxServer(p);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                if (!p.isAlive()) {
                    throw new AssertionError("nginx exited with " + p.exitValue() + ": "
                            + Files.readString(dir.resolve("nginx.out")));
                }
                try (Socket s = new Socket(host, port)) {
                    return server;
                } catch (IOException notYet) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("nginx did not listen on " + host + ":" + port);
                    }
                    Thread.sleep(50);
                }
            }
        } catch (Exception | AssertionError e) {
            server.close();
            throw e;
        }
    }

    /** Stops nginx (SIGTERM: it flushes its log and exits) and waits for it. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
