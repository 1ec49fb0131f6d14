package dev.pacer.cli;

import dev.pacer.engine.api.Durations;
import dev.pacer.engine.api.SettingException;
import dev.pacer.ratelimit.api.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.api.NumberText;
import dev.pacer.ratelimit.api.RateSpec;
import java.math.BigDecimal;
import java.time.Duration;
import picocli.CommandLine;

/** picocli converters whose errors are one line naming the bad value. */
final class Converters {

    private Converters() {
    }

    static final class Rate implements CommandLine.ITypeConverter<RateSpec> {
        @Override
        public RateSpec convert(String value) {
            try {
                return RateSpec.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The designs, for the help text. */
    static final class LimiterNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return LimiterDesign.NAMES.iterator();
        }
    }

    static final class LimiterName implements CommandLine.ITypeConverter<LimiterDesign> {
        @Override
        public LimiterDesign convert(String value) {
            try {
                return LimiterDesign.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class ArrivalsName implements CommandLine.ITypeConverter<Arrivals> {
        @Override
        public Arrivals convert(String value) {
            try {
                return Arrivals.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** A duration that may be zero ({@code 0} needs no unit). */
    static final class NonNegativeDuration implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parse(value, "duration");
            } catch (SettingException e) {
                throw new CommandLine.TypeConversionException(e.render(setting -> "duration"));
            }
        }
    }

    static final class PositiveDuration implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Durations.parsePositive(value, "duration");
            } catch (SettingException e) {
                throw new CommandLine.TypeConversionException(e.render(setting -> "duration"));
            }
        }
    }

    /** A count, as {@link NumberText} reads it: {@code 20000}, {@code 20k}, {@code 20M}, {@code 1e6}. */
    static final class Count implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            BigDecimal n;
            try {
                n = NumberText.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("invalid count '" + value + "': " + e.getMessage());
            }
            if (n.signum() <= 0) {
                throw new CommandLine.TypeConversionException("invalid count '" + value
                        + "': must be at least 1 (without --cycles a run has no count limit)");
            }
            try {
                return n.longValueExact();
            } catch (ArithmeticException e) {
                throw new CommandLine.TypeConversionException("invalid count '" + value + "': not a whole number"
                        + (n.stripTrailingZeros().scale() <= 0 ? " below 2^63" : ""));
            }
        }
    }
}
