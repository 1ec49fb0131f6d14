package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pacer.engine.api.StopReason;
import dev.pacer.engine.api.Metric;
import dev.pacer.engine.api.ManualRunClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ManualClockRunTest {

    @Test
    void aTimedRunStartsExactlyTheSlotsBeforeItsEnd() throws Exception {
        ManualRunClock clock = new ManualRunClock();
        LoadTest.Result r = ManualClock.play(clock, LoadTest.rate("20").threads(2).op(cycle -> null)
                .duration(Duration.ofSeconds(2)));
        assertEquals(40, r.summary().ops());
        assertEquals(StopReason.DURATION, r.summary().stopReason());
        assertEquals(2.0, r.summary().durationSeconds(), 1e-9);
        assertEquals(0, r.histogram(Metric.WAIT).getMaxValue());
    }
}
