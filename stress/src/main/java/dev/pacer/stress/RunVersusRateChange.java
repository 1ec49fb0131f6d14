package dev.pacer.stress;

import dev.pacer.ratelimit.RateSpec;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * A caller holding a run of slices at 1000 ops/s acquires while the rate is doubled. If it had read the
 * new settings before it acquired, it must not use the old run's next slot (2 ms); whichever slice it
 * used, once its grant is closed every unused slice has reached idle exactly once: the schedule handed to
 * permits is 1 + 1 ms and then 1 ms (old slice) or 0.5 ms (new).
 */
@JCStressTest
@Description("run slot racing reconfigure 1000 -> 2000 ops/s: no old slice after the new settings, idle once")
@Outcome(id = "0, 1, 3000000", expect = Expect.ACCEPTABLE, desc = "old settings: the run's next slot")
@Outcome(id = "0, 0, 2500000", expect = Expect.ACCEPTABLE, desc = "new settings in force by the acquire: new slice")
@Outcome(id = "1, 0, 2500000", expect = Expect.ACCEPTABLE, desc = "new settings read first: new slice")
@Outcome(expect = Expect.FORBIDDEN, desc = "an old slice after the new settings, or a slice idle twice or never")
@State
public class RunVersusRateChange extends SyntheticLimiterState {

    long sawNew;
    long usedOldRun;

    public RunVersusRateChange() {
        super("1000", SyntheticLimiter.TEN_SECONDS);
        l.limiter.acquire(l.first); // slot 0, 10 s behind
        l.limiter.acquire(l.first); // claims the run [1 ms, 3 ms) and uses 1 ms
    }

    @Actor
    public void acquirer() {
        sawNew = l.limiter.spec().opsPerSecond() == 2000 ? 1 : 0;
        l.limiter.acquire(l.first);
        usedOldRun = SyntheticLimiter.offset(l.first.scheduledNanos()) == 2 * SyntheticLimiter.SLICE ? 1 : 0;
    }

    @Actor
    public void controller() {
        l.limiter.reconfigure(RateSpec.parse("2000"));
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        l.first.close();
        r.r1 = sawNew;
        r.r2 = usedOldRun;
        r.r3 = l.accountedNanos();
    }
}
