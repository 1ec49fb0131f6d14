package dev.pacer.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * Strict mode, ten seconds behind: two racing callers are granted by CAS at max(schedule, now). The
 * lateness is forfeited, and the two starts are exactly one slice apart (the second parks for it).
 */
@JCStressTest
@Description("strict CAS race: starts one slice apart, two slices accounted, the lateness idle")
@Outcome(id = "1000000, 2000000", expect = Expect.ACCEPTABLE, desc = "one slice apart, nothing lost")
@Outcome(expect = Expect.FORBIDDEN, desc = "two grants closer than a slice, or time lost")
@State
public class StrictAcquirersKeepASlice extends SyntheticLimiterState {

    long start1;
    long start2;

    public StrictAcquirersKeepASlice() {
        super("1000,1", SyntheticLimiter.TEN_SECONDS);
    }

    @Actor
    public void actor1() {
        l.limiter.acquire(l.first);
        start1 = l.first.startNanos();
    }

    @Actor
    public void actor2() {
        l.limiter.acquire(l.second);
        start2 = l.second.startNanos();
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = Math.abs(start1 - start2);
        r.r2 = l.accountedNanos();
    }
}
