package dev.pacer.cli;

import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.SettingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The flags of {@code --op http}, mixed into {@code pacer run}; they become the op's named options. */
final class HttpOptions {

    @Option(names = "--url", paramLabel = "URL",
            description = "http op: the URL; {cycle} is replaced by the op's cycle number (http://host/item/{cycle}).")
    String url;

    @Option(names = "--method", paramLabel = "METHOD", description = "http op: the method (default GET).")
    String method;

    @Option(names = {"-H", "--header"}, paramLabel = "'NAME: VALUE'", description = "http op: a request header, "
            + "repeatable.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--body", paramLabel = "TEXT|@FILE", description = "http op: the request body, or @file to send a "
            + "file's bytes.")
    String body;

    @Option(names = "--connect-timeout", paramLabel = "DURATION", description = "http op, workloads: connect "
            + "timeout (default 5s).")
    String connectTimeout;

    @Option(names = "--request-timeout", paramLabel = "DURATION", description = "http op, workloads: request "
            + "timeout (default 30s).")
    String requestTimeout;

    @Option(names = "--expect", paramLabel = "CLASSES",
            description = "http op: expected status classes (2xx or 2xx,3xx); other statuses count as errors.")
    String expect;

    @Option(names = "--http-version", paramLabel = "1.1|2",
            description = "http op: HTTP/1.1 (default) or 2 (prior knowledge, h2c, on http://; ALPN h2 on https://).")
    String httpVersion;

    @Option(names = "--http2", description = "http op: HTTP/2, the same as --http-version 2.")
    boolean http2;

    @Option(names = {"-c", "--connections"}, paramLabel = "N",
            description = "http op, workloads: connections to the server (HTTP/1.1: default 64, each one request "
                    + "(a workload: one cycle) at a time, so also the bound on those in flight; HTTP/2: default 1, "
                    + "streams multiplexed).")
    String connections;

    @Option(names = "--io-threads", paramLabel = "N",
            description = "http op, postgres --client vertx: event-loop threads (default: half the cores, 1 to 4).")
    String ioThreads;

    @Option(names = {"-k", "--insecure"}, description = "http op, workloads: trust any TLS "
            + "certificate (self-signed test servers).")
    boolean insecure;

    /** The options given, keyed as the op reads them. */
    Map<String, List<String>> toOptions() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        put(m, "url", url);
        put(m, "method", method);
        if (!headers.isEmpty()) {
            m.put("header", List.copyOf(headers));
        }
        put(m, "body", body);
        put(m, "connect-timeout", connectTimeout);
        put(m, "request-timeout", requestTimeout);
        put(m, "expect", expect);
        if (http2 && httpVersion != null && !httpVersion.equals("2")) {
            throw new SettingException("http-version", httpVersion, "--http2 says 2");
        }
        put(m, "http-version", http2 ? "2" : httpVersion);
        put(m, "connections", connections);
        put(m, "io-threads", ioThreads);
        if (insecure) {
            put(m, "insecure", "true");
        }
        return m;
    }

    /**
     * Refuses the op flags (given as flags or in a scenario file) that {@code op} does not read, naming the op that
     * does: the http op reads these, the postgres op five of them and its own ({@link PostgresOptions}), an HTTP
     * workload those of its client ({@link #WORKLOAD_TOO}).
     */
    static void refuseUnlessHttp(OpSpec op) {
        java.util.function.Predicate<String> takes = switch (op.name()) {
            case "http" -> key -> !PostgresOptions.OWN.contains(key);
            case "postgres" -> key -> POSTGRES_TOO.contains(key) || PostgresOptions.OWN.contains(key);
            case "workload" -> WORKLOAD_TOO::contains;
            default -> key -> false;
        };
        op.options().entrySet().stream().filter(e -> !takes.test(e.getKey())).findFirst().ifPresent(given -> {
            String key = given.getKey();
            throw new SettingException(key, given.getValue().get(0), PostgresOptions.OWN.contains(key)
                    ? "only the postgres op takes it: give ${workload} or a file with 'driver: postgres'"
                    : op.name().equals("workload") ? "a workload file's requests are set in the file; only the "
                    + "http op (${op} http, without a workload file) takes it"
                    : "only the http op takes it: add ${op} http");
        });
    }

    /** The http op's flags an HTTP workload's client reads too: the rest say what a request is, which its file does. */
    private static final java.util.Set<String> WORKLOAD_TOO = java.util.Set.of("connections", "connect-timeout",
            "request-timeout", "insecure");

    /** The http op's flags the postgres op reads too. */
    private static final java.util.Set<String> POSTGRES_TOO = java.util.Set.of("url", "connections", "connect-timeout",
            "request-timeout", "io-threads");

    /**
     * Refuses a body the op could not read as one line naming it: {@code @} without a file, {@code @FOLDER}, a file
     * that is not there or cannot be read (how much a file may hold is the op's to say). Null (no body) and text
     * bodies pass.
     */
    static void checkBody(String body) {
        if (body == null || !body.startsWith("@")) {
            return;
        }
        if (body.length() == 1) {
            throw new SettingException("body", body, "give a file after the @, e.g. @payload.json");
        }
        Path file = Path.of(body.substring(1));
        if (Files.isDirectory(file)) {
            throw new SettingException("body", body, file + " is a folder; give a file");
        }
        if (!Files.exists(file)) {
            throw new SettingException("body", body, "no file " + file);
        }
        if (!Files.isReadable(file)) {
            throw new SettingException("body", body, "cannot read " + file);
        }
    }

    private static void put(Map<String, List<String>> m, String key, String value) {
        if (value != null) {
            m.put(key, List.of(value));
        }
    }
}
