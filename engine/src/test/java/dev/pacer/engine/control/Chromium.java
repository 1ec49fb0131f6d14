package dev.pacer.engine.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pacer.engine.text.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's Chromium, headless, driven through the DevTools protocol over the JDK's WebSocket client: one
 * page, navigated, scripted ({@link #eval}), typed into ({@link #type}, {@link #key}) and photographed.
 * Skips the calling test loudly without Chromium, unless {@code PACER_REQUIRE_CHROMIUM=1} (CI, after
 * {@code .ci/chromium.sh}): then it fails.
 */
final class Chromium implements AutoCloseable {

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> calls = new ConcurrentHashMap<>();

    private Chromium(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    static Path executable() {
        for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        return null;
    }

    /** Aborts the test when Chromium is missing (fails it when it is required). */
    static Path required(String what) {
        Path chromium = executable();
        if (chromium == null) {
            if ("1".equals(System.getenv("PACER_REQUIRE_CHROMIUM"))) {
                throw new AssertionError("Chromium is required (PACER_REQUIRE_CHROMIUM=1) but not installed:"
                        + " run .ci/chromium.sh");
            }
            System.err.println("!!! SKIPPING " + what + ": Chromium is not installed (.ci/chromium.sh)");
            Assumptions.abort("chromium is not installed");
        }
        return chromium;
    }

    /** Starts Chromium with one blank page {@code width} x {@code height} CSS pixels, profile in {@code dir}. */
    static Chromium start(Path dir, int width, int height, String... extraArgs) throws Exception {
        Path chromium = required("the browser test of the console page");
        Path profile = dir.resolve("profile");
        Files.createDirectories(profile);
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync", "--hide-scrollbars", "--remote-debugging-port=0", "--remote-allow-origins=*",
                "--window-size=" + width + "," + height, "--user-data-dir=" + profile));
        command.addAll(List.of(extraArgs));
        command.add("about:blank");
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        try {
            Path active = profile.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(active) || Files.readAllLines(active).size() < 2) {
                if (System.nanoTime() > deadline || !p.isAlive()) {
                    throw new AssertionError("chromium did not open its DevTools port: "
                            + Files.readString(dir.resolve("chromium.log")));
                }
                Thread.sleep(50);
            }
            int port = Integer.parseInt(Files.readAllLines(active).get(0).strip());
            HttpClient http = HttpClient.newHttpClient();
            String ws = null;
            for (int i = 0; i < 100 && ws == null; i++) {
                HttpRequest list = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                        .build();
                JsonNode targets = Json.MAPPER.readTree(http.send(list, HttpResponse.BodyHandlers.ofString()).body());
                for (JsonNode t : targets) {
                    if (t.path("type").asText().equals("page")) {
                        ws = t.get("webSocketDebuggerUrl").asText();
                    }
                }
                if (ws == null) {
                    Thread.sleep(50);
                }
            }
            if (ws == null) {
                throw new AssertionError("chromium opened no page");
            }
            Chromium[] self = new Chromium[1];
            StringBuilder partial = new StringBuilder();
            WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(ws), new WebSocket.Listener() {
                @Override
                public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                    partial.append(data);
                    if (last) {
                        self[0].received(partial.toString());
                        partial.setLength(0);
                    }
                    w.request(1);
                    return null;
                }
            }).get(30, TimeUnit.SECONDS);
            self[0] = new Chromium(p, socket);
            self[0].call("Page.enable", Json.MAPPER.createObjectNode());
            return self[0];
        } catch (Exception | AssertionError e) {
            p.destroyForcibly();
            throw e;
        }
    }

    private void received(String text) {
        try {
            JsonNode m = Json.MAPPER.readTree(text);
            if (m.has("id")) {
                CompletableFuture<JsonNode> f = calls.remove(m.get("id").asInt());
                if (f != null) {
                    f.complete(m);
                }
            }
        } catch (Exception e) {
            // not JSON: ignored
        }
    }

    /** One DevTools command; its result, or an AssertionError naming its error. */
    JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        calls.put(id, answer);
        ObjectNode m = Json.MAPPER.createObjectNode().put("id", id).put("method", method);
        m.set("params", params);
        socket.sendText(m.toString(), true).get(10, TimeUnit.SECONDS);
        JsonNode r = answer.get(30, TimeUnit.SECONDS);
        if (r.has("error")) {
            throw new AssertionError(method + ": " + r.get("error"));
        }
        return r.get("result");
    }

    void navigate(String url) throws Exception {
        call("Page.navigate", Json.MAPPER.createObjectNode().put("url", url));
    }

    /**
     * Evaluates an expression in the page (awaiting a promise it returns) and returns its value. In it
     * {@code $(id)} is {@code document.getElementById(id)}.
     */
    JsonNode eval(String script) throws Exception {
        String expression = "(($) => (" + script + "))((id) => document.getElementById(id))";
        JsonNode r = call("Runtime.evaluate", Json.MAPPER.createObjectNode().put("expression", expression)
                .put("awaitPromise", true).put("returnByValue", true));
        if (r.has("exceptionDetails")) {
            throw new AssertionError("script failed: " + r.get("exceptionDetails") + "\n" + script);
        }
        return r.path("result").path("value");
    }

    /**
     * Waits until the script {@code condition} is true, polling; fails naming {@code what} and what the
     * script {@code show} says then.
     */
    void await(String condition, Duration timeout, String what, String show) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!eval("(() => { try { return !!(" + condition + "); } catch (e) { return false; } })()").asBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + timeout + ": " + what + "; page says: " + eval(show));
            }
            Thread.sleep(50);
        }
    }

    /** Types text into the focused element, as a keyboard would. */
    void type(String text) throws Exception {
        call("Input.insertText", Json.MAPPER.createObjectNode().put("text", text));
    }

    /** Presses and releases one key ({@code Enter}, {@code ArrowRight}, {@code Tab}) on the focused element. */
    void key(String key, int code) throws Exception {
        key(key, code, 0);
    }

    /** Shift, for {@link #key(String, int, int)}'s modifiers (the DevTools protocol's bit). */
    static final int SHIFT = 8;

    /**
     * Presses and releases one key with {@code modifiers} held, as a keyboard does: a key that types a character
     * ({@code Enter}, {@code " "} for Space) sends it on its way down, so the page sees keydown, keypress, keyup
     * and what the browser does with them (a button clicked, a form submitted, the focus moved by Tab).
     */
    void key(String key, int code, int modifiers) throws Exception {
        String text = key.equals("Enter") ? "\r" : key.equals(" ") ? " " : null;
        ObjectNode k = Json.MAPPER.createObjectNode().put("key", key).put("code", key.equals(" ") ? "Space" : key)
                .put("windowsVirtualKeyCode", code).put("nativeVirtualKeyCode", code).put("modifiers", modifiers);
        ObjectNode down = k.deepCopy().put("type", text == null ? "rawKeyDown" : "keyDown");
        if (text != null) {
            down.put("text", text).put("unmodifiedText", text);
        }
        call("Input.dispatchKeyEvent", down);
        call("Input.dispatchKeyEvent", k.deepCopy().put("type", "keyUp"));
    }

    /** Lets the page download files, into {@code dir} (headless Chromium refuses them by default). */
    void allowDownloads(Path dir) throws Exception {
        Files.createDirectories(dir);
        call("Browser.setDownloadBehavior", Json.MAPPER.createObjectNode().put("behavior", "allow")
                .put("downloadPath", dir.toAbsolutePath().toString()));
    }

    /** The page as a PNG. */
    byte[] screenshot() throws Exception {
        JsonNode r = call("Page.captureScreenshot", Json.MAPPER.createObjectNode().put("format", "png"));
        return java.util.Base64.getDecoder().decode(r.get("data").asText());
    }

    /** Sets the viewport's width (CSS pixels) and color scheme. */
    void emulate(int width, int height, String colorScheme) throws Exception {
        call("Emulation.setDeviceMetricsOverride", Json.MAPPER.createObjectNode().put("width", width)
                .put("height", height).put("deviceScaleFactor", 1).put("mobile", false));
        ObjectNode media = Json.MAPPER.createObjectNode();
        List<ObjectNode> features = new ArrayList<>();
        features.add(Json.MAPPER.createObjectNode().put("name", "prefers-color-scheme").put("value", colorScheme));
        media.putArray("features").addAll(features);
        call("Emulation.setEmulatedMedia", media);
    }

    @Override
    public void close() throws Exception {
        socket.abort();
        // taken while the browser runs: once it has ended, its helpers are no longer its descendants
        List<ProcessHandle> helpers = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        // its helpers (renderer, GPU, network service) can outlive it by a moment, writing into the profile while the
        // test's temporary directory is being deleted, which then fails ("DirectoryNotEmptyException: profile/Default")
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        helpers.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : helpers) {
            try {
                h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                h.destroyForcibly();
            }
        }
    }
}
