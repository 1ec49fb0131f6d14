package dev.pacer.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.pacer.engine.api.ControlAction;
import dev.pacer.engine.api.ControlEndpoint;
import dev.pacer.engine.api.SettingException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pacer control}: changes a run started with {@code --control}, from another shell. */
@Command(name = "control", mixinStandardHelpOptions = true,
        description = {"Talks to the control endpoint of a running 'pacer run --control PORT'.", "",
                "Examples:",
                "  pacer control status",
                "  pacer control rate 8000",
                "  pacer control --to 127.0.0.1:7070 rate 8000,0.5",
                "  pacer control threads 4",
                "  pacer control pause | resume | stop", ""})
final class ControlCommand implements Callable<Integer> {

    /** The JSON of requests and answers (an ObjectMapper is thread-safe once configured; nothing reconfigures it). */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectWriter PRETTY_JSON = JSON.writer().with(SerializationFeature.INDENT_OUTPUT);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--to", paramLabel = "[HOST:]PORT", defaultValue = "127.0.0.1:7070",
            description = {"Where the run listens, written as for 'pacer run --control' (default: ${DEFAULT-VALUE}); "
                    + "several,",
                    "comma-separated, for the shards of one test: each gets the same (global) value and answers on its "
                            + "own line."})
    String to;

    @Option(names = "--token", paramLabel = "TOKEN", description = "Bearer token (default: $PACER_CONTROL_TOKEN).")
    String token;

    @Parameters(index = "0", paramLabel = "COMMAND", description = "status | rate | strictness | threads | pause | "
            + "resume | stop")
    String verb;

    @Parameters(index = "1", arity = "0..1", paramLabel = "VALUE", description = "The new value for rate, strictness, "
            + "threads.")
    String value;

    @Override
    public Integer call() throws Exception {
        // validates locally first
        ControlAction action = ControlAction.of(verb.toLowerCase(java.util.Locale.ROOT), value);
        List<String> targets = new ArrayList<>();
        for (String t : to.split(",")) {
            if (!t.isBlank()) {
                String where = address(t.strip());
                if (targets.contains(where)) { // a second stop would end the first's grace period at once
                    throw new SettingException("to", to, "names " + where + " twice; each run once");
                }
                targets.add(where);
            }
        }
        if (targets.isEmpty()) {
            throw new SettingException("to", to, "names no run");
        }
        String envToken = System.getenv("PACER_CONTROL_TOKEN"); // blank: none, as pacer run reads it
        String bearer = token != null ? token : envToken == null || envToken.isBlank() ? null : envToken;
        ControlEndpoint.checkToken(token != null ? "token" : "PACER_CONTROL_TOKEN", bearer);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int worst = PacerCommand.EXIT_OK;
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            // several targets: the shards of one test; each gets the same global value (a sharded run takes its
            // share of any rate itself), concurrently, and each answer is reported with its target
            List<java.util.concurrent.CompletableFuture<Integer>> answers = new ArrayList<>();
            for (String where : targets) {
                answers.add(java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> send(client, where, bearer, action, targets.size() > 1 ? where + ": " : "", out, err)));
            }
            for (var a : answers) {
                int code = a.join();
                if (code != PacerCommand.EXIT_OK && worst == PacerCommand.EXIT_OK) {
                    worst = code; // the first failure's code, in the order the targets were named
                }
            }
        }
        return worst;
    }

    private int send(HttpClient client, String where, String bearer, ControlAction action, String prefix,
                     PrintWriter out, PrintWriter err) {
        URI uri = URI.create("http://" + where + "/" + verb.toLowerCase(java.util.Locale.ROOT));
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        try {
            if (action instanceof ControlAction.Status) {
                request.GET();
            } else {
                String body = value == null ? "" : JSON.writeValueAsString(value);
                request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            }
            HttpResponse<String> response;
            try {
                response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (ConnectException e) {
                say(err, "pacer control: cannot reach a run at " + where + " (is 'pacer run --control' running "
                        + "there?)");
                return PacerCommand.EXIT_FAILED;
            } catch (IOException e) {
                say(err, "pacer control: " + where + ": " + PacerCommand.oneLine(String.valueOf(e.getMessage())));
                return PacerCommand.EXIT_FAILED;
            }
            JsonNode body = json(response.body());
            if (response.statusCode() == 200) {
                // a run answers a status with its state, a change with what changed; anything else is not a run
                JsonNode change = body == null ? null : body.get("change");
                boolean asARun = action instanceof ControlAction.Status ? body != null && body.isObject()
                        && body.has("running") : change != null && change.isTextual();
                if (!asARun) {
                    say(err, "pacer control: " + where + " answered 200 but not as a pacer run does ("
                            + (action instanceof ControlAction.Status ? "no 'running'" : "no 'change'") + " in "
                            + shown(response.body()) + "); is 'pacer run --control' listening there?");
                    return PacerCommand.EXIT_FAILED;
                }
                say(out, action instanceof ControlAction.Status
                        ? prefix + PRETTY_JSON.writeValueAsString(body)
                        : prefix + "ok: " + change.asText());
                return PacerCommand.EXIT_OK;
            }
            JsonNode error = body == null ? null : body.get("error");
            say(err, "pacer control: " + prefix + response.statusCode() + " "
                    + (error != null && error.isTextual() ? PacerCommand.oneLine(error.asText())
                    : shown(response.body())));
            return response.statusCode() == 400 ? PacerCommand.EXIT_USAGE : PacerCommand.EXIT_FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            say(err, "pacer control: " + where + ": interrupted");
            return PacerCommand.EXIT_FAILED;
        } catch (IOException e) {
            say(err, "pacer control: " + where + ": " + PacerCommand.oneLine(String.valueOf(e.getMessage())));
            return PacerCommand.EXIT_FAILED;
        }
    }

    /** The body as JSON, or null when it is not JSON (an empty body, an HTML page). */
    private static JsonNode json(String body) {
        try {
            JsonNode n = JSON.readTree(body);
            return n == null || n.isMissingNode() ? null : n;
        } catch (IOException e) {
            return null;
        }
    }

    /** A body as one short line: empty said so, the rest cut at 200 characters. */
    private static String shown(String body) {
        String line = body.strip().replaceAll("\\s+", " ");
        return line.isEmpty() ? "an empty body"
                : "'" + (line.length() > 200 ? line.substring(0, 200) + "..." : line) + "'";
    }

    private static void say(PrintWriter w, String line) {
        synchronized (w) {
            w.println(line);
            w.flush();
        }
    }

    /** {@code HOST:PORT} for a URI from what {@code --to} says, read as {@code --control} reads it. */
    private static String address(String to) {
        ControlEndpoint endpoint;
        try {
            endpoint = ControlEndpoint.parse(to);
        } catch (SettingException e) {
            throw new SettingException("to", e.value(), e.reason());
        }
        String host = endpoint.host().getHostAddress();
        return (endpoint.host() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + endpoint.port();
    }
}
