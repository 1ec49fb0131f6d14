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
 * Strictness 0.5, ten seconds behind: two callers acquire twice each. A caller that reads the clock
 * forfeits half the open gap by CAS while the other advances the schedule with getAndAdd (or claims a
 * run). A forfeit may lose its race (the next clock reader tries again), and a later one may halve the
 * rest; whatever happens, forfeited time goes to idle and to no grant.
 */
@JCStressTest
@Description("compensating CAS racing getAndAdd: four slices accounted; forfeits land or are skipped")
@Outcome(id = "4000000, 1", expect = Expect.ACCEPTABLE, desc = "half the gap (or more, in several halvings) forfeited")
@Outcome(id = "4000000, 0", expect = Expect.ACCEPTABLE_INTERESTING, desc = "every forfeit lost its CAS to a grant; "
        + "left to the next reader")
@Outcome(expect = Expect.FORBIDDEN, desc = "forfeited time handed to a grant, or time lost")
@State
public class CompensationRace extends SyntheticLimiterState {

    public CompensationRace() {
        super("1000,0.5", SyntheticLimiter.TEN_SECONDS);
    }

    @Actor
    public void actor1() {
        l.limiter.acquire(l.first);
        l.limiter.acquire(l.first);
    }

    @Actor
    public void actor2() {
        l.limiter.acquire(l.second);
        l.limiter.acquire(l.second);
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = l.accountedNanos();
        // halving a ten-second gap forfeits about 5 s
        r.r2 = l.limiter.snapshot().idleNanos() >= 4_990_000_000L ? 1 : 0;
    }
}
