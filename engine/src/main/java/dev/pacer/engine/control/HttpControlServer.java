package dev.pacer.engine.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.pacer.engine.Change;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The HTTP control endpoint of a running load, on the JDK's built-in {@link HttpServer}.
 *
 * <pre>
 *   GET  /status                          the status JSON (see {@link RunStatus#toJson()})
 *   POST /rate        body 8000 | "8k,0.5" | {"rate": "8000,0.5"}
 *   POST /strictness  body 0.5  | {"strictness": 0.5}
 *   POST /threads     body 32   | {"threads": 32}
 *   POST /pause, /resume, /stop   (no body)
 * </pre>
 * Answers are JSON: {@code 200 {"ok": true, "change": "...", "status": {...}}}; a bad value or
 * malformed JSON gets {@code 400 {"error": "..."}} and changes nothing. When a token is set, every
 * request must carry {@code Authorization: Bearer TOKEN}, else {@code 401} and nothing changes; a
 * token is mandatory when the endpoint binds a non-loopback address.
 */
public final class HttpControlServer implements AutoCloseable {

    static {
        // The JDK server leaves Nagle's algorithm on by default; with delayed ACKs that adds milliseconds to
        // every answer. Control answers are small and should be immediate. (Read once, when the server's
        // configuration class loads, so it must be set before the first server is created.)
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
    }

    /** Bodies larger than this are refused (400): control values are a few bytes. */
    static final int MAX_BODY = 64 * 1024;

    private final HttpServer server;
    private final RunController controller;
    private final byte[] expectedAuthorization;

    private HttpControlServer(HttpServer server, RunController controller, String token) {
        this.server = server;
        this.controller = controller;
        this.expectedAuthorization = token == null ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Binds and starts the endpoint.
     *
     * @param token the bearer token, or null (then the endpoint must be loopback)
     * @throws IllegalArgumentException a non-loopback endpoint without a token, or a port in use
     */
    public static HttpControlServer start(ControlEndpoint endpoint, String token, RunController controller)
            throws IOException {
        if (token != null && token.isBlank()) {
            throw new IllegalArgumentException("invalid --control-token: must not be blank");
        }
        if (!endpoint.isLoopback() && token == null) {
            throw new IllegalArgumentException("--control " + endpoint.text() + " listens beyond this machine: give --control-token"
                    + " or set PACER_CONTROL_TOKEN");
        }
        HttpServer server;
        try {
            server = HttpServer.create(endpoint.socketAddress(), 16);
        } catch (java.net.BindException e) {
            throw new IllegalArgumentException("invalid --control '" + endpoint.text() + "': cannot listen there ("
                    + e.getMessage() + ")");
        }
        HttpControlServer s = new HttpControlServer(server, controller, token);
        server.createContext("/", s::handle);
        server.setExecutor(null); // handlers run on the server's own thread: requests are tiny and rare, and a
                                  // hand-off to an executor thread costs ~0.5 ms on a small VM
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
        if (!authorized(ex)) {
            send(ex, 401, error("unauthorized: send the header 'Authorization: Bearer <token>'"));
            return;
        }
        String path = ex.getRequestURI().getPath();
        String verb = path.startsWith("/") ? path.substring(1) : path;
        String method = ex.getRequestMethod();
        if (verb.equals("status")) {
            if (!method.equals("GET")) {
                send(ex, 405, error("use GET /status"));
                return;
            }
            send(ex, 200, controller.statusJson());
            return;
        }
        if (!verb.matches("rate|strictness|threads|pause|resume|stop")) {
            send(ex, 404, error("unknown path '" + path + "': GET /status, POST /rate /strictness /threads /pause /resume /stop"));
            return;
        }
        if (!method.equals("POST")) {
            send(ex, 405, error("use POST /" + verb));
            return;
        }
        String value = verb.matches("rate|strictness|threads") ? value(verb, readBody(ex)) : null;
        Change change = controller.apply(ControlAction.of(verb, value), "http");
        ObjectNode ok = RunStatus.JSON.createObjectNode().put("ok", true);
        ok.put("change", change == null ? verb : change.describe());
        ok.set("status", controller.statusJson());
        send(ex, 200, ok);
    }

    private boolean authorized(HttpExchange ex) {
        if (expectedAuthorization == null) {
            return true;
        }
        String given = ex.getRequestHeaders().getFirst("Authorization");
        return given != null && MessageDigest.isEqual(expectedAuthorization, given.getBytes(StandardCharsets.UTF_8));
    }

    /** The value of a POST body: a JSON scalar, or an object with the verb (or "value") as key. */
    static String value(String verb, String body) {
        if (body.isBlank()) {
            throw new IllegalArgumentException("POST /" + verb + " needs a JSON body, e.g. " + example(verb));
        }
        JsonNode node;
        try {
            node = RunStatus.JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed JSON body for /" + verb + ": "
                    + e.getOriginalMessage().split("\n")[0] + "; expected e.g. " + example(verb));
        }
        if (node.isObject()) {
            node = node.has(verb) ? node.get(verb) : node.get("value");
        }
        if (node == null || !node.isValueNode() || node.isNull()) {
            throw new IllegalArgumentException("POST /" + verb + " body has no value; expected e.g. " + example(verb));
        }
        return node.asText();
    }

    private static String example(String verb) {
        return switch (verb) {
            case "rate" -> "8000, \"8k,0.5\" or {\"rate\": \"8000,0.5\"}";
            case "strictness" -> "0.5 or {\"strictness\": 0.5}";
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
        return RunStatus.JSON.createObjectNode().put("error", message);
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] bytes = RunStatus.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(body);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
