package dev.pacer.stress;

import dev.pacer.ratelimit.api.RateSpec;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * A caller holding a run of slices at 1000 ops/s acquires while the rate is doubled. If it had read the new
 * settings before it acquired, its permit must cost the new slice, never the old run's; whichever slice it
 * used, once its grant is closed every unused slice has gone back exactly once (to the schedule, when the
 * run's tail was still its end, and then the slot may be claimed again at the new slice; else to idle): the
 * schedule handed to permits is 1 + 1 ms and then 1 ms (old slice) or 0.5 ms (new).
 */
@JCStressTest
@Description("run slot racing reconfigure 1000 -> 2000 ops/s: no old slice after the new settings, given back once")
@Outcome(id = "0, 3000000", expect = Expect.ACCEPTABLE, desc = "old settings: the run's next slot")
@Outcome(id = "0, 2500000", expect = Expect.ACCEPTABLE, desc = "new settings in force by the acquire: new slice")
@Outcome(id = "1, 2500000", expect = Expect.ACCEPTABLE, desc = "new settings read first: new slice")
@Outcome(expect = Expect.FORBIDDEN, desc = "an old slice after the new settings, or a slice given back twice or never")
@State
public class RunVersusRateChange extends SyntheticLimiterState {

    long sawNew;

    public RunVersusRateChange() {
        super("1000", SyntheticLimiter.TEN_SECONDS);
        l.limiter.acquire(l.first); // slot 0, 10 s behind
        l.limiter.acquire(l.first); // claims the run [1 ms, 3 ms) and uses 1 ms
    }

    @Actor
    public void acquirer() {
        sawNew = l.limiter.spec().opsPerSecond() == 2000 ? 1 : 0;
        l.limiter.acquire(l.first);
    }

    @Actor
    public void controller() {
        l.limiter.reconfigure(RateSpec.parse("2000"));
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        l.first.close();
        r.r1 = sawNew;
        r.r2 = l.accountedNanos();
    }
}
