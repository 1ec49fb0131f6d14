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
 * A caller far behind acquires twice (the second time it may claim a run of slices) while the rate is
 * doubled. The schedule handed to permits is two slices at whichever rate each grant saw: the backlog
 * shift of the rate change goes to idle, never to a grant, and no time is lost or counted twice.
 */
@JCStressTest
@Description("acquire x2 racing reconfigure 1000 -> 2000 ops/s: allocated = grants + idle + reserved")
@Outcome(id = "2000000, 1", expect = Expect.ACCEPTABLE, desc = "both grants at the old slice")
@Outcome(id = "1500000, 1", expect = Expect.ACCEPTABLE, desc = "one grant at each slice")
@Outcome(id = "1000000, 1", expect = Expect.ACCEPTABLE, desc = "both grants at the new slice")
@Outcome(expect = Expect.FORBIDDEN, desc = "time lost or double-counted, or the schedule went backwards")
@State
public class AcquireVersusRateIncrease extends SyntheticLimiterState {

    long firstScheduled;
    long secondScheduled;

    public AcquireVersusRateIncrease() {
        super("1000", SyntheticLimiter.TEN_SECONDS);
    }

    @Actor
    public void acquirer() {
        l.limiter.acquire(l.first);
        firstScheduled = l.first.scheduledNanos();
        l.limiter.acquire(l.first);
        secondScheduled = l.first.scheduledNanos();
    }

    @Actor
    public void controller() {
        l.limiter.reconfigure(RateSpec.parse("2000"));
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = l.accountedNanos();
        r.r2 = secondScheduled > firstScheduled ? 1 : 0;
    }
}
