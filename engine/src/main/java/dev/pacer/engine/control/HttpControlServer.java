package dev.pacer.engine.control;

import dev.pacer.engine.api.ControlAction;
import dev.pacer.engine.api.ControlEndpoint;

import dev.pacer.engine.api.SettingException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.pacer.engine.api.Change;
import dev.pacer.engine.text.JdkServerSettings;
import dev.pacer.engine.text.Json;
import dev.pacer.engine.text.LoopbackHost;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.List;
import java.util.ArrayList;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The HTTP control endpoint of a running load, on the JDK's built-in {@link HttpServer}.
 *
 * <pre>
 *   GET  /status                          the status JSON (see {@link RunStatus#toJson()}), with the page's
 *                                         {@code viewers}: streams {@code open} and {@code dropped} for lagging
 *   POST /rate        body 8000 | 8k,0.5 | "8k,0.5" | {"rate": "8000,0.5"}
 *   POST /strictness  body 0.5  | {"strictness": 0.5}
 *   POST /threads     body 32   | {"threads": 32}
 *   POST /pause, /resume, /stop   (no body)
 *   GET  /                                the console page (see {@link ConsolePage}), when the run has a feed
 *   GET  /events                          the run's records as server-sent events, history first
 *   POST /command     body rate 8000      one console line: {"ok": .., "line": "ok: ..."}
 * </pre>
 * A change is recorded with the source {@code page} when its request carries the header the console page
 * sets ({@value #PAGE_HEADER}{@code : 1}), else {@code http} (curl, {@code pacer control}). The header
 * says who asks, not who may: every POST has passed the same-origin checks below, and another origin's
 * page cannot send it at all (a custom header needs a CORS preflight, which this endpoint never grants).
 * Answers are JSON: {@code 200 {"ok": true, "change": "...", "status": {...}}}; a bad value or
 * malformed JSON gets {@code 400 {"error": "..."}} and changes nothing. When a token is set, every
 * request must carry {@code Authorization: Bearer TOKEN}, else {@code 401} and nothing changes; a
 * token is mandatory when the endpoint binds a non-loopback address. The page itself ({@code GET /})
 * holds no data of the run and is served to anyone who can connect; it asks for the token and sends it
 * as that header. A POST (and the stream) from a page of another origin is refused (403): its
 * {@code Sec-Fetch-Site} must be {@code same-origin} or {@code none} and its {@code Origin}, when sent,
 * must be this endpoint's; on a loopback endpoint the {@code Host} must name this machine (a page of
 * another site that rebinds its name to 127.0.0.1 is refused).
 *
 * <p>Each exchange runs on a virtual thread of its own, so a client that stalls mid-request holds only
 * its own connection, which is closed once it has taken {@link #MAX_REQUEST_SECONDS} to send its headers.
 */
public final class HttpControlServer implements AutoCloseable {

    /** The source the console page's commands are recorded with. */
    public static final String PAGE_SOURCE = "page";
    /** The source every other client's commands are recorded with (curl, {@code pacer control}). */
    public static final String HTTP_SOURCE = "http";
    /** The request header the console page sets on its commands, with the value {@code 1}. */
    public static final String PAGE_HEADER = "Pacer-Page";
    private static final Pattern LINE_BREAK = Pattern.compile("\\R");
    /** A body's JSON: nothing after the value, no key twice, numbers exact. */
    private static final ObjectReader STRICT_JSON = Json.MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    /** How long a client may take to send its request line and headers. */
    static final long MAX_REQUEST_SECONDS = JdkServerSettings.MAX_REQUEST_SECONDS;

    static {
        JdkServerSettings.apply();
    }

    /** Connections waiting to be accepted. */
    static final int BACKLOG = JdkServerSettings.BACKLOG;
    /** Bodies larger than this are refused (400): control values are a few bytes. */
    static final int MAX_BODY = 64 * 1024;
    private final HttpServer server;
    private final ExecutorService exchanges;
    private final RunController controller;
    private final byte[] expectedToken;
    private final boolean loopback;
    /** The run's records for the page and its stream, or null (then neither is served). */
    private final LiveFeed feed;
    /** The threads writing a stream now: each adds and removes itself. */
    private final Set<Thread> streams = ConcurrentHashMap.newKeySet();

    private HttpControlServer(HttpServer server, ExecutorService exchanges, RunController controller, String token,
                              boolean loopback, LiveFeed feed) {
        this.server = server;
        this.exchanges = exchanges;
        this.controller = controller;
        this.expectedToken = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        this.loopback = loopback;
        this.feed = feed;
    }

    /**
     * Binds and starts the endpoint.
     *
     * @param token the bearer token, or null (then the endpoint must be loopback)
     * @throws IllegalArgumentException a non-loopback endpoint without a token, or a port in use
     */
    public static HttpControlServer start(ControlEndpoint endpoint, String token, RunController controller)
            throws IOException {
        return start(endpoint, token, controller, null);
    }

    /**
     * Binds and starts the endpoint, with the console page and its stream fed by {@code feed} (null: none).
     *
     * @param token the bearer token, or null (then the endpoint must be loopback)
     * @throws IllegalArgumentException a non-loopback endpoint without a token, or a port in use
     */
    public static HttpControlServer start(ControlEndpoint endpoint, String token, RunController controller,
                                          LiveFeed feed) throws IOException {
        if (token != null && token.isBlank()) {
            throw new SettingException("control-token", "", "must not be blank");
        }
        if (!endpoint.isLoopback() && token == null) {
            throw new SettingException("control", endpoint.text(), "listens beyond this machine, so it needs "
                    + "${control-token}");
        }
        HttpServer server;
        try {
            // a backlog of 16 dropped bursts of connections (a wall of viewers, scrapers, a script's loop): each
            // dropped one was retried a second later by the client's kernel
            server = HttpServer.create(endpoint.socketAddress(), BACKLOG);
        } catch (java.net.BindException e) {
            throw new SettingException("control", endpoint.text(), "cannot listen there (" + e.getMessage() + ")");
        }
        // Each exchange, from reading its request on, runs on a virtual thread of its own: on the server's one
        // dispatcher thread a client that sent one byte and waited would hold every other request (an
        // authorized one behind an unauthenticated one too) and then fill the accept backlog.
        ExecutorService exchanges = Executors.newVirtualThreadPerTaskExecutor();
        HttpControlServer s = new HttpControlServer(server, exchanges, controller, token, endpoint.isLoopback(),
                feed);
        server.createContext("/", s::handle);
        server.setExecutor(exchanges);
        server.start();
        return s;
    }

    /** The bound address (with the real port when 0 was asked). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            try {
                respond(ex);
            } catch (IllegalArgumentException | IllegalStateException e) {
                send(ex, 400, error(e.getMessage()));
            }
        }
    }

    private void respond(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String verb = path.startsWith("/") ? path.substring(1) : path;
        String method = ex.getRequestMethod();
        String host = ex.getRequestHeaders().getFirst("Host");
        if (loopback && host != null && !LoopbackHost.names(host)) {
            send(ex, 403, error("forbidden: Host '" + Origins.printable(host) + "' does not name this machine"));
            return;
        }
        if (feed != null && verb.isEmpty() && (method.equals("GET") || method.equals("HEAD"))) {
            ConsolePage.send(ex);
            return;
        }
        boolean stream = feed != null && verb.equals("events");
        if ((method.equals("POST") || stream) && !Origins.sameOrigin(ex.getRequestHeaders(), host)) {
            send(ex, 403, error("forbidden: a request from another site's page"));
            return;
        }
        if (!authorized(ex)) {
            send(ex, 401, error("unauthorized: send the header 'Authorization: Bearer <token>'"));
            return;
        }
        if (stream) {
            if (!method.equals("GET")) {
                send(ex, 405, error("use GET /events"));
                return;
            }
            streams.add(Thread.currentThread());
            try {
                EventStream.serve(ex, feed);
            } finally {
                streams.remove(Thread.currentThread());
            }
            return;
        }
        if (feed != null && verb.equals("command")) {
            if (!method.equals("POST")) {
                send(ex, 405, error("use POST /command"));
                return;
            }
            String line = oneLine("command", readBody(ex).strip());
            String answer = ConsoleControl.answer(controller, line, source(ex), RunController.HTTP_WAIT);
            ObjectNode ok = Json.MAPPER.createObjectNode().put("ok", !answer.startsWith("error: "));
            ok.put("line", answer);
            send(ex, 200, ok);
            return;
        }
        if (verb.equals("status")) {
            if (!method.equals("GET")) {
                send(ex, 405, error("use GET /status"));
                return;
            }
            ObjectNode status = controller.statusJson();
            if (feed != null) {
                status.putObject("viewers").put("open", feed.subscribers()).put("dropped", feed.dropped());
            }
            send(ex, 200, status);
            return;
        }
        if (!verb.matches("rate|strictness|threads|pause|resume|stop")) {
            send(ex, 404, error("unknown path '" + path + "': GET /status, POST /rate /strictness /threads /pause "
                    + "/resume /stop"));
            return;
        }
        if (!method.equals("POST")) {
            send(ex, 405, error("use POST /" + verb));
            return;
        }
        String value = verb.matches("rate|strictness|threads") ? value(verb, readBody(ex)) : null;
        Change change = controller.apply(ControlAction.of(verb, value), source(ex), RunController.HTTP_WAIT);
        ObjectNode ok = Json.MAPPER.createObjectNode().put("ok", true);
        ok.put("change", change == null ? verb : change.describe());
        ok.set("status", controller.statusJson());
        send(ex, 200, ok);
    }

    /** Who sent a POST that passed the same-origin checks: the console page when it says so, else a plain client. */
    private static String source(HttpExchange ex) {
        return "1".equals(ex.getRequestHeaders().getFirst(PAGE_HEADER)) ? PAGE_SOURCE : HTTP_SOURCE;
    }

    /** {@code Authorization: Bearer TOKEN}: the scheme in any case (RFC 7235), the token exactly. */
    private boolean authorized(HttpExchange ex) {
        if (expectedToken == null) {
            return true;
        }
        String given = ex.getRequestHeaders().getFirst("Authorization");
        String[] parts = given == null ? new String[0] : given.strip().split(" +", 2);
        return parts.length == 2 && parts[0].equalsIgnoreCase("Bearer")
                && MessageDigest.isEqual(expectedToken, parts[1].getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The value of a POST body: plain text ({@code 8k,0.5}, as {@code curl -d} sends it), a JSON scalar,
     * or a JSON object with the verb (or "value") as key.
     */
    static String value(String verb, String body) {
        String text = body.strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("POST /" + verb + " needs a body, e.g. " + example(verb));
        }
        if (!text.startsWith("{") && !text.startsWith("[") && !text.startsWith("\"")) {
            return oneLine(verb, text);
        }
        JsonNode node;
        try {
            node = STRICT_JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON body for /" + verb + ": "
                    + e.getOriginalMessage().split("\n")[0] + "; expected e.g. " + example(verb));
        }
        if (node.isObject()) {
            // one value, named: a key this verb does not take (a strictness beside a rate) is refused, not dropped
            List<String> keys = new ArrayList<>();
            node.fieldNames().forEachRemaining(keys::add);
            String stray = keys.stream().filter(k -> !k.equals(verb) && !k.equals("value")).findFirst()
                    .orElse(keys.size() > 1 ? "value" : null); // else both the verb's key and 'value'
            if (stray != null) {
                throw new IllegalArgumentException("POST /" + verb + " body takes one key, '" + verb + "' (or "
                        + "'value'), not '" + Origins.printable(stray) + "'"
                        + (node.has(verb) || node.has("value") ? " beside it" : "") + "; expected e.g. "
                        + example(verb));
            }
            node = node.has(verb) ? node.get(verb) : node.get("value");
        }
        if (node == null || !node.isValueNode() || node.isNull()) {
            throw new IllegalArgumentException("POST /" + verb + " body has no value; expected e.g. " + example(verb));
        }
        // a number as written (1e-400, not the 0.0 a double would make of it)
        return oneLine(verb, node.isNumber() ? node.decimalValue().toString() : node.asText());
    }

    /** A value is one line: one with a line break is refused without echoing it (the answer is one line too). */
    private static String oneLine(String verb, String value) {
        if (LINE_BREAK.matcher(value).find()) {
            throw new IllegalArgumentException("POST /" + verb + " body holds a line break; expected one value, e.g. "
                    + example(verb));
        }
        return value;
    }

    private static String example(String verb) {
        return switch (verb) {
            case "rate" -> "8000, 8k,0.5 or {\"rate\": \"8000,0.5\"}";
            case "strictness" -> "0.5 or {\"strictness\": 0.5}";
            case "command" -> "rate 8000 (a console line)";
            default -> "32 or {\"threads\": 32}";
        };
    }

    private static String readBody(HttpExchange ex) throws IOException {
        try (InputStream in = ex.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw new IllegalArgumentException("body over " + MAX_BODY + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static ObjectNode error(String message) {
        return Json.MAPPER.createObjectNode().put("error", message);
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] bytes = Json.PRETTY.writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(status, -1); // a HEAD answer has no body
            return;
        }
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /**
     * Stops serving: open streams first write what they hold (the run's end), for up to a second in all,
     * then every connection is closed.
     */
    @Override
    public void close() {
        if (feed != null) {
            feed.close();
            // the streams are real sockets written by real threads: their second is the system clock's
            dev.pacer.engine.api.RunClock real = dev.pacer.engine.api.RunClock.system();
            long end = real.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            for (Thread t : streams) {
                try {
                    t.join(Duration.ofNanos(Math.max(1, end - real.nanoTime())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        server.stop(0);
        exchanges.shutdownNow();
    }
}
