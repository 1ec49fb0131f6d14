package dev.pacer.stress;

import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * On schedule (not late), two tryAcquire calls with no timeout race for the one slot that is due now:
 * exactly one succeeds, and the loser reserves nothing (the schedule holds exactly one slice).
 */
@JCStressTest
@Description("tryAcquire race: one success, one slice allocated, nothing reserved for the loser")
@Outcome(id = "1, 1000000", expect = Expect.ACCEPTABLE, desc = "one winner, nothing reserved by the loser")
@Outcome(expect = Expect.FORBIDDEN, desc = "both or neither got the slot, or the loser reserved one")
@State
public class TryAcquireNeverReservesUnusedSlot extends SyntheticLimiterState {

    boolean got1;
    boolean got2;

    public TryAcquireNeverReservesUnusedSlot() {
        super("1000", 0);
    }

    @Actor
    public void actor1() {
        got1 = l.limiter.tryAcquire(1, Duration.ZERO);
    }

    @Actor
    public void actor2() {
        got2 = l.limiter.tryAcquire(1, Duration.ZERO);
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = (got1 ? 1 : 0) + (got2 ? 1 : 0);
        r.r2 = l.limiter.snapshot().allocatedNanos();
    }
}
