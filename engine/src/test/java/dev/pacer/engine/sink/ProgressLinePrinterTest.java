package dev.pacer.engine.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.IntervalReport;
import dev.pacer.engine.api.IntervalStats;
import dev.pacer.engine.metrics.MetricsRegistry;
import dev.pacer.ratelimit.api.RateSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Where change lines go among the interval lines, whichever thread tells the printer first. */
@Timeout(10)
class ProgressLinePrinterTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final ProgressLine.Printer printer = new ProgressLine.Printer(
            new PrintStream(bytes, true, StandardCharsets.UTF_8), 1.0, "console");

    @Test
    void aScenarioRateMadeBeforeALaggingReporterCutsGoesBelowThatIntervalAndItsPhaseMarker() {
        printer.interval(interval(9.0, "warmup"));
        // the scenario's thread sets the new phase's rate just after the boundary, before the reporter cuts there
        printer.change(change(10.002, ChangeKind.RATE, "1000,1.1"));
        printer.interval(interval(10.0, "warmup"));
        printer.change(change(10.0, ChangeKind.PHASE, "find-knee")); // the reporter marks the phase at its cut
        printer.change(change(10.5, ChangeKind.THREADS, "16"));
        printer.change(change(10.4, ChangeKind.RATE, "2000,1.1")); // made earlier, told later
        printer.interval(interval(11.0, "find-knee"));
        printer.change(change(11.2, ChangeKind.STOP, ""));
        printer.flush();

        assertEquals(List.of("[    9.0s warmup]", "[   10.0s warmup]", ">> phase find-knee", ">> rate 1000,1.1",
                ">> rate 2000,1.1", ">> threads 16", "[   11.0s find-knee]", ">> stop"), lines());
    }

    @Test
    void theConsolesOwnCommandsAreNotRepeatedAndNothingIsHeldAfterTheFlush() {
        printer.change(change(0.5, ChangeKind.RATE, "10"));
        printer.change(new Change(0, 0.6, ChangeKind.RATE, "20", "console"));
        printer.interval(interval(1.0, null));
        printer.flush();
        printer.flush();
        assertEquals(List.of(">> rate 10", "[    1.0s]"), lines());
    }

    /** Each line's start: the interval's stamp, or the change's kind and value. */
    private List<String> lines() {
        return bytes.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> !l.startsWith("pacer: each line"))
                .map(l -> l.startsWith("[") ? l.substring(0, l.indexOf(']') + 1)
                        : l.trim().substring(0, l.trim().indexOf(" (")))
                .toList();
    }

    private static Change change(double at, ChangeKind kind, String value) {
        return new Change((long) (at * 1e9), at, kind, value, "scenario");
    }

    private static IntervalReport interval(double elapsed, String phase) {
        MetricsRegistry registry = new MetricsRegistry();
        registry.attach(false).record(1_000, 2_000, dev.pacer.engine.api.Outcome.OK);
        long end = (long) (elapsed * 1e9);
        IntervalStats stats = registry.drain(end - 1_000_000_000L, end, 0, 1000);
        return new IntervalReport(stats, elapsed, RateSpec.of(100), 100, 2, phase, false, false, 0, 1, elapsed, 0);
    }
}
