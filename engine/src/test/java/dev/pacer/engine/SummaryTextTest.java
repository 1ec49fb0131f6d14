package dev.pacer.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pacer.engine.api.ManualRunClock;
import dev.pacer.engine.api.Summary;
import dev.pacer.engine.sink.SummaryText;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The summary's headline rate, on the manual clock. */
class SummaryTextTest {

    /**
     * A run stopped within its first slot (an output that failed at once, 3 ms in) read "achieved 306.1 ops/s, target
     * 10.0 (3061.22 %)": its one op over that instant. It now says what happened instead of a rate.
     */
    @Test
    void aRunEndedWithinItsFirstSlotShowsNoRate() throws Exception {
        ManualRunClock clock = new ManualRunClock();
        Summary s = ManualClock.play(clock, LoadTest.rate("10").threads(1).op(cycle -> null)
                .duration(Duration.ofMillis(5))).summary();
        assertEquals(1, s.ops());
        String ops = SummaryText.format(s).lines().filter(l -> l.startsWith("  ops")).findFirst().orElseThrow();
        assertEquals("  ops        1         achieved - (1 in 5.00ms, within its first slot), target 10.0, "
                + "strictness 0", ops);
        Summary whole = ManualClock.play(new ManualRunClock(), LoadTest.rate("10").threads(1).op(cycle -> null)
                .duration(Duration.ofSeconds(1))).summary();
        assertTrue(SummaryText.format(whole).contains("achieved 10.0 ops/s, target 10.0 (100.00 %)"),
                SummaryText.format(whole));
    }
}
