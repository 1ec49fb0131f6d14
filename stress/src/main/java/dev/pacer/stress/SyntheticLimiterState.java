package dev.pacer.stress;

/** Base of the stress tests' state: one fresh {@link SyntheticLimiter} per trial. */
abstract class SyntheticLimiterState {

    final SyntheticLimiter l;

    SyntheticLimiterState(String spec, long lateByNanos) {
        l = new SyntheticLimiter(spec, lateByNanos);
    }
}
