package dev.pacer.ratelimit.api;

/**
 * The four behaviours one strictness value selects (see {@link RateSpec#strictness()}).
 *
 * <table>
 *   <caption>strictness → mode</caption>
 *   <tr><th>strictness</th><th>mode</th><th>after a stall</th></tr>
 *   <tr><td>0</td><td>{@link #AVERAGE}</td><td>late callers go at once until the schedule catches up</td></tr>
 *   <tr><td>(0, 1)</td><td>{@link #COMPENSATING}</td><td>each clock read forfeits that fraction of the open
 * gap</td></tr>
 *   <tr><td>1</td><td>{@link #STRICT}</td><td>the gap is forfeited; grants are scheduled one slice apart</td></tr>
 *   <tr><td>&gt; 1</td><td>{@link #BURST}</td><td>the backlog runs at up to strictness × rate until caught up</td></tr>
 * </table>
 */
public enum StrictnessMode {
    /** Strictness 0: only the average rate is enforced. */
    AVERAGE,
    /** Strictness in (0, 1): burst compensation, that fraction of the open gap is closed per clock read. */
    COMPENSATING,
    /**
     * Strictness 1: no two grants scheduled closer than one slice; lateness is forfeited to idle time.
     * Starts keep that spacing to within the park threshold (an early caller below it goes at once).
     */
    STRICT,
    /** Strictness above 1: while behind, ops run at up to strictness × rate, never faster. */
    BURST;

    /** The mode a (validated) strictness value selects. */
    public static StrictnessMode of(double strictness) {
        if (strictness == 0.0) {
            return AVERAGE;
        }
        if (strictness < 1.0) {
            return COMPENSATING;
        }
        return strictness == 1.0 ? STRICT : BURST;
    }
}
