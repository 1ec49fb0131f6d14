package dev.pacer.cli;

import dev.pacer.engine.LoadTest;
import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.Scenario;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.RateSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The flags of {@code pacer run} that pace it: the rate, how arrivals are spaced, and the limiter that keeps it. */
final class RateOptions {

    @Option(names = {"-r", "--rate"}, paramLabel = "RATE[,STRICTNESS]", converter = Converters.Rate.class,
            description = {"Target ops/s: 1000, 2.5k, 1.5M; optional strictness after a comma:",
                    "0 average (default), 0..1 burst compensation, 1 strict, >1 burst allowance (1.1 = up to 110 %%).",
                    "Without --rate the run is unpaced (as fast as the threads go)."})
    RateSpec rate;

    @Option(names = "--arrivals", paramLabel = "uniform|poisson", converter = Converters.ArrivalsName.class,
            description = {"How ops arrive at the target rate: uniform (a metronome, the default) or poisson (each gap",
                    "drawn from an exponential distribution with the same mean, as open traffic arrives)."})
    Arrivals arrivals;

    @Option(names = "--limiter", paramLabel = "NAME[:KEY=VALUE,...]", converter = Converters.LimiterName.class,
            description = {"The limiter design that paces the run (default: atomic, pacer's lock-free limiter): "
                    + "${COMPLETION-CANDIDATES}.",
                    "The others model limiters from the field, e.g. leaky:queue=10, warmup:period=10s; "
                            + "docs/limiters.md has each one's options."},
            completionCandidates = Converters.LimiterNames.class)
    LimiterDesign limiter;

    @Option(names = "--bytes-rate", paramLabel = "BYTES_PER_S",
            description = {"With the bucket limiter: a second bucket for bytes, filled at this rate (10M = 10 MB/s);",
                    "each op is charged its size (http: the request's) before it starts."})
    String bytesRate;

    @Option(names = "--pacing-tick", paramLabel = "DURATION", converter = Converters.PositiveDuration.class,
            description = {"Wake each worker at most once per DURATION (e.g. 1ms, as wrk2 paces) and send every op due"
                    + " by then,", "each late by its wait: fewer wake-ups, less CPU per op, at most about a tick of"
                    + " wait. Default: as often", "as this machine parks well (about every 0.1 ms on a VM). Needs "
                    + "strictness 0."})
    Duration pacingTick;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the Poisson arrivals' generators: the same seed gives the same gaps; each --shard"
                    + " mixes its index in (default: random).")
    Long seed;

    /**
     * The test these flags start: at the rate, unpaced without one, or the scenario's (whose phases set the rate).
     * Refuses what an unpaced run would ignore (a design, a bytes rate, arrivals) and a rate beside a scenario.
     */
    LoadTest newTest(Scenario scenario) {
        if (scenario != null) {
            if (rate != null) {
                throw new IllegalArgumentException("--search".equals(scenario.source())
                        ? "--rate cannot be combined with --search: its probes set the rate (--from, --to)"
                        : "--rate cannot be combined with a scenario: its phases set the rate");
            }
            return LoadTest.scenario(scenario);
        }
        // an unpaced run has no limiter: a design or a bytes rate given without a rate would be ignored
        if (rate == null && limiter != null) {
            throw new SettingException("limiter", limiter.toString(), "needs a rate: give ${rate} too, or a scenario");
        }
        if (rate == null && bytesRate != null) {
            throw new SettingException("bytes-rate", bytesRate, "needs a rate: give ${rate} too, or a scenario");
        }
        if (rate == null && pacingTick != null) {
            throw new SettingException("pacing-tick", Durations.format(pacingTick),
                    "needs a rate: give ${rate} too, or a scenario");
        }
        if (rate == null && arrivals != null) {
            throw new SettingException("arrivals", arrivals.toString(),
                    "needs a rate: give ${rate} too, or a scenario");
        }
        return rate == null ? LoadTest.unpaced() : LoadTest.rate(rate);
    }

    /** Sets the arrivals, the seed and the limiter given (with the scenario's, which these override). */
    void applyTo(LoadTest test, Scenario scenario) {
        Arrivals spacing = arrivals != null ? arrivals
                : scenario != null && scenario.arrivals() != null ? scenario.arrivals() : Arrivals.UNIFORM;
        if (seed != null && spacing != Arrivals.POISSON) {
            throw new SettingException("seed", seed.toString(), "seeds Poisson arrivals: give ${arrivals} poisson too");
        }
        if (arrivals != null) {
            test.arrivals(arrivals);
        }
        if (seed != null) {
            test.seed(seed);
        }
        LimiterDesign design = limiter;
        if (bytesRate != null) {
            design = withBytesRate(design != null ? design : scenario != null ? scenario.limiter() : null, bytesRate);
        }
        if (design != null) {
            test.limiter(design);
        }
        if (pacingTick != null) {
            test.pacingTick(pacingTick);
        }
    }

    /** {@code design} (a bucket, or none: then a bucket) with a bytes bucket at {@code rate}. */
    private static LimiterDesign withBytesRate(LimiterDesign design, String rate) {
        if (rate.isBlank()) {
            throw new SettingException("bytes-rate", rate, "expected bytes per second, e.g. 10M");
        }
        if (design != null && !design.name().equals("bucket")) {
            throw new SettingException("bytes-rate", rate, "needs the bucket limiter, not " + design.name());
        }
        if (design != null && design.options().containsKey("bytes-rate")) {
            throw new SettingException("bytes-rate", rate, "and the limiter's own bytes-rate="
                    + design.options().get("bytes-rate") + " are two rates for one bucket: give one");
        }
        Map<String, String> o = new LinkedHashMap<>(design == null ? Map.of() : design.options());
        o.put("bytes-rate", rate);
        StringBuilder text = new StringBuilder("bucket");
        String sep = ":";
        for (Map.Entry<String, String> e : o.entrySet()) {
            text.append(sep).append(e.getKey()).append('=').append(e.getValue());
            sep = ",";
        }
        try {
            return LimiterDesign.parse(text.toString());
        } catch (IllegalArgumentException e) {
            throw new SettingException("bytes-rate", rate, e.getMessage());
        }
    }
}
