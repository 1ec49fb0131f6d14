package dev.pacer.stress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

/**
 * A caller far behind claims a run (its first: 2 slices) with one add while a fresh caller claims a single slot:
 * the run and the slot are disjoint, in either order, and no slot between them is skipped (the run right
 * after slot 0 and the single slot after it, or the other way round); the schedule handed to permits is
 * the three slices used.
 */
@JCStressTest
@Description("run claim (2 slices) racing a single-slot claim: disjoint slots, none skipped")
@Outcome(id = "1000000, 3000000, 3000000", expect = Expect.ACCEPTABLE, desc = "the run first, the slot after it")
@Outcome(id = "2000000, 1000000, 3000000", expect = Expect.ACCEPTABLE, desc = "the slot first, the run after it")
@Outcome(expect = Expect.FORBIDDEN, desc = "slots overlap or one was skipped, or time was lost")
@State
public class RunClaimVersusSingleSlot extends SyntheticLimiterState {

    long runStart;
    long single;

    public RunClaimVersusSingleSlot() {
        super("1000", SyntheticLimiter.TEN_SECONDS);
        l.limiter.acquire(l.first); // slot 0, 10 s behind: its next claim is a run
    }

    @Actor
    public void runClaimer() {
        l.limiter.acquire(l.first);
        runStart = SyntheticLimiter.offset(l.first.scheduledNanos());
    }

    @Actor
    public void singleSlot() {
        l.limiter.acquire(l.second);
        single = SyntheticLimiter.offset(l.second.scheduledNanos());
    }

    @Arbiter
    public void arbiter(JJJ_Result r) {
        r.r1 = runStart;
        r.r2 = single;
        r.r3 = l.accountedNanos();
    }
}
