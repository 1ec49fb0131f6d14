package dev.pacer.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/** Two late callers race for the first two slots: each owns one, none is handed out twice or skipped. */
@JCStressTest
@Description("average mode, both callers late: scheduled times are 0 and one slice, in either order")
@Outcome(id = "0, 1000000", expect = Expect.ACCEPTABLE, desc = "actor 1 took the first slot")
@Outcome(id = "1000000, 0", expect = Expect.ACCEPTABLE, desc = "actor 2 took the first slot")
@Outcome(expect = Expect.FORBIDDEN, desc = "a slot handed out twice, or one skipped")
@State
public class LateAcquirersTakeDistinctSlots extends SyntheticLimiterState {

    public LateAcquirersTakeDistinctSlots() {
        super("1000", SyntheticLimiter.TEN_SECONDS);
    }

    @Actor
    public void actor1(JJ_Result r) {
        l.limiter.acquire(l.first);
        r.r1 = SyntheticLimiter.offset(l.first.scheduledNanos());
    }

    @Actor
    public void actor2(JJ_Result r) {
        l.limiter.acquire(l.second);
        r.r2 = SyntheticLimiter.offset(l.second.scheduledNanos());
    }
}
