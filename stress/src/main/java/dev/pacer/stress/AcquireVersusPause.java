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
 * A pause of 5 ms (on the synthetic clock) races one acquire. The paused time is given away as idle,
 * never to the grant: the caller either got slot 0 before the pause took hold, or the slot after the
 * paused stretch; an acquire that saw the pause waits for the resume.
 */
@JCStressTest
@Description("acquire racing pause, clock +5 ms, resume: one slice accounted, slot 0 or 5 ms")
@Outcome(id = "1000000, 0", expect = Expect.ACCEPTABLE, desc = "granted before the pause shifted the schedule")
@Outcome(id = "1000000, 5000000", expect = Expect.ACCEPTABLE, desc = "granted after the resume")
@Outcome(expect = Expect.FORBIDDEN, desc = "paused time handed to a grant, or time lost")
@State
public class AcquireVersusPause extends SyntheticLimiterState {

    long scheduled;

    public AcquireVersusPause() {
        super("1000", SyntheticLimiter.TEN_SECONDS);
    }

    @Actor
    public void acquirer() {
        l.limiter.acquire(l.first);
        scheduled = SyntheticLimiter.offset(l.first.scheduledNanos());
    }

    @Actor
    public void controller() {
        l.limiter.pause();
        l.clock.advance(5_000_000L);
        l.limiter.resume();
    }

    @Arbiter
    public void arbiter(JJ_Result r) {
        r.r1 = l.accountedNanos();
        r.r2 = scheduled;
    }
}
