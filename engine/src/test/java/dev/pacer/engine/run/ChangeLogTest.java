package dev.pacer.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.OpSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The changes a summary lists, in time order whatever order their threads recorded them in. */
@Timeout(10)
class ChangeLogTest {

    @Test
    void aPhaseMarkedAtTheReportersCutAfterARateMadeJustPastItIsListedFirstAndListenersHearBothAsMade() {
        Object lock = new Object();
        ManualRunClock clock = new ManualRunClock();
        RunTimeline timeline = new RunTimeline(lock, new ActivityConfig(OpSpec.parse("noop"), 1, false,
                null, null, 0), clock);
        ChangeLog log = new ChangeLog(lock, clock, timeline);
        List<String> heard = new ArrayList<>();
        log.addListener(c -> heard.add(c.value()));
        synchronized (lock) {
            timeline.claimStart();
            long start = timeline.start(null, origin -> null);
            clock.advance(TimeUnit.MILLISECONDS.toNanos(10_002));
            log.record(ChangeKind.RATE, "1000,1.1", "scenario"); // the scenario's thread, at 10.002 s
            log.markPhase("find-knee", "scenario", start + TimeUnit.SECONDS.toNanos(10)); // the reporter's cut
            clock.advance(TimeUnit.MILLISECONDS.toNanos(1));
            log.record(ChangeKind.STOP, "", "signal");
        }
        assertEquals(List.of("1000,1.1", "find-knee", ""), heard, "listeners are called as changes are made");
        assertEquals(List.of("phase 10.000", "rate 10.002", "stop 10.003"), log.changes().stream()
                .map(ChangeLogTest::shortly).toList());
    }

    private static String shortly(Change c) {
        return c.kind().label() + String.format(Locale.ROOT, " %.3f", c.elapsedSec());
    }
}
