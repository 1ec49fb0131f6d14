package dev.pacer.engine.scenario;

import dev.pacer.engine.ManualClock;
import dev.pacer.engine.LoadTest;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pacer.engine.api.Change;
import dev.pacer.engine.api.ChangeKind;
import dev.pacer.engine.api.Shard;
import dev.pacer.engine.api.Scenario;
import java.util.List;
import dev.pacer.engine.api.ManualRunClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A scenario played by one shard of a test: its phases' rates are the test's, the shard runs its share. */
@Timeout(60)
class ScenarioOnAShardTest {

    @Test
    void theFirstPhaseIsTheRateTheShardStartedAtAndOnlyLaterPhasesChangeIt() throws Exception {
        Scenario s = ScenarioParser.parse("""
                name: two-phases
                op: noop
                phases:
                  - name: warm
                    duration: 400ms
                    rate: 4000
                    warmup: true
                  - name: measure
                    duration: 400ms
                    rate: 8000
                """, "two-phases.yaml");
        LoadTest.Result r = ManualClock.play(new ManualRunClock(), LoadTest.scenario(s).shard(new Shard(1, 4)));
        List<String> rates = r.summary().changes().stream().filter(c -> c.kind() == ChangeKind.RATE).map(Change::value)
                .toList();
        assertEquals(List.of("8000,0"), rates, "the shard started at the first phase's rate; the second phase changed "
                + "it");
        assertEquals(2000, r.summary().limiter().spec().opsPerSecond(), "a quarter of the test's 8000");
        // a quarter of the measured phase's 3 200 slots (the warm-up left out): the slot a waiting worker held at
        // the old slice is taken back by the rate increase, so the new phase loses none
        assertEquals(800, r.summary().ops());
    }
}
