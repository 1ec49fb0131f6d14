package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The flags of {@code pacer run} that decide whether it passed: its gates and the error ratio it may reach. */
final class GateOptions {

    @Option(names = "--threshold", paramLabel = "GATE",
            description = {"A pass/fail gate, repeatable: 'response.p99<20ms', 'achieved>=0.99*target',"
                    + " 'errors<0.1%%'.", "A failed gate makes the exit code 1."})
    List<String> thresholds = new ArrayList<>();

    @Option(names = "--max-error-ratio", paramLabel = "RATIO", defaultValue = "0.01",
            description = "The run fails (exit 1) when errors/ops is over this (default: ${DEFAULT-VALUE}).")
    double maxErrorRatio;

    /** Sets the gates and the error ratio. */
    void applyTo(LoadTest test) {
        test.maxErrorRatio(maxErrorRatio);
        for (String t : thresholds) {
            test.threshold(t);
        }
    }
}
