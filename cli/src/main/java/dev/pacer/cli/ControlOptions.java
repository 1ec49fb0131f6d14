package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.ControlEndpoint;
import picocli.CommandLine.Option;

/**
 * The flags of {@code pacer run} that let a run be watched and changed while it runs: the HTTP control endpoint,
 * the Prometheus endpoint, their token, and the console on stdin.
 */
final class ControlOptions {

    @Option(names = "--control", paramLabel = "[HOST:]PORT",
            description = {"Open the HTTP control endpoint: GET /status; POST /rate /strictness /threads /pause /resume"
                    + " /stop.", "GET / is a live web console of the run (charts and controls, docs/console.md).",
                    "Binds 127.0.0.1 unless HOST says otherwise; a non-loopback HOST requires a token."})
    String control;

    @Option(names = "--metrics", paramLabel = "[HOST:]PORT",
            description = {"Serve Prometheus metrics at http://HOST:PORT/metrics: wait/service/response histograms, "
                    + "ops",
                    "by outcome, target and achieved rate, threads, in flight, the limiter. Loopback unless HOST",
                    "says otherwise; then it requires the control token too."})
    String metrics;

    @Option(names = "--control-token", paramLabel = "TOKEN",
            description = "Bearer token the control endpoint requires (default: $PACER_CONTROL_TOKEN).")
    String controlToken;

    @Option(names = "--no-console",
            description = "Do not read commands (rate 8000, threads 32, status, stop, ...) from stdin.")
    boolean noConsole;

    /**
     * Opens the endpoints given, with the token ({@code --control-token}, else {@code $PACER_CONTROL_TOKEN}); a
     * token without an endpoint to protect is refused.
     */
    void applyTo(LoadTest test) {
        if (controlToken != null && control == null && metrics == null) {
            throw new IllegalArgumentException("--control-token protects the control and metrics endpoints: give"
                    + " --control or --metrics too");
        }
        String envToken = System.getenv("PACER_CONTROL_TOKEN");
        String token = controlToken != null ? controlToken : envToken == null || envToken.isBlank() ? null : envToken;
        ControlEndpoint.checkToken(controlToken != null ? "control-token" : "PACER_CONTROL_TOKEN", token);
        test.token(token);
        if (control != null) {
            test.control(control, token);
        }
        if (metrics != null) {
            test.metrics(metrics);
        }
    }

    /**
     * Whether the run reads commands: on a terminal through the live view ({@code live}), else from stdin when
     * it can be read, unless {@code --no-console}.
     */
    void console(LoadTest test, boolean live) {
        if (!live && !noConsole && Terminal.stdinIsReadable()) {
            test.console(System.in);
        }
    }
}
