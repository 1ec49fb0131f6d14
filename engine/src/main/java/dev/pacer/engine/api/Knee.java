package dev.pacer.engine.api;

import java.util.List;

/**
 * What a knee search found: the highest rate that met the SLO, the SLO's figures there, and every probe
 * in the order it ran.
 *
 * @param slo       the SLO as given ({@code response.p99<20ms and errors<1%})
 * @param status    {@code found}; {@code at-bound} (the highest rate searched still met it); {@code none}
 *                  (the lowest did not); {@code unstable} (a rate's verdict changed when it was probed
 *                  again: the system's capacity moved during the search, so no one number is true);
 *                  {@code unfinished} (the run ended first)
 * @param rate      the knee, ops/s: the highest rate that met the SLO; NaN unless found or at-bound
 * @param atKnee    the SLO's figures at the knee's probe (its judged window), or null
 * @param probes    every probe, in order
 */
public record Knee(String slo, String status, double rate, RunFigures atKnee, List<Probe> probes) {

    public Knee {
        probes = List.copyOf(probes);
    }

    /**
     * Whether the search gave a rate ({@code found} or {@code at-bound}); a run whose search did not ({@code none},
     * {@code unstable}, {@code unfinished}) fails, so its exit status is 1.
     */
    public boolean gaveARate() {
        return status.equals("found") || status.equals("at-bound");
    }

    /**
     * One probe: a rate held for a while and judged on the intervals after its settling time.
     *
     * @param rate        ops/s asked
     * @param startSec    seconds into the run when the probe began
     * @param judgedSec   seconds of intervals judged
     * @param passed      whether the SLO held
     * @param why         the gates' results, one line ({@code response.p99 31.2ms ✗}); why it ended early
     * @param figures     what was measured in the judged window
     * @param windowStartNanos first judged interval's start (monotonic clock)
     * @param windowEndNanos   last judged interval's end (monotonic clock)
     */
    public record Probe(double rate, double startSec, double judgedSec, boolean passed, String why, RunFigures figures,
                        long windowStartNanos, long windowEndNanos) {
    }
}
