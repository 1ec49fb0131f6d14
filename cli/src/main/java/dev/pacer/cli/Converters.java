package dev.pacer.cli;

import dev.pacer.engine.text.Durations;
import dev.pacer.engine.text.SettingException;
import dev.pacer.ratelimit.Arrivals;
import dev.pacer.ratelimit.LimiterDesign;
import dev.pacer.ratelimit.RateSpec;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /** A duration that may be zero; a bare {@code 0} is zero (no unit needed for none). */
    static final class NonNegativeDuration implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            if (value.strip().equals("0")) {
                return Duration.ZERO;
            }
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

    /** A count with an optional SI suffix: {@code 20000}, {@code 20k}, {@code 20M}, {@code 1G}. */
    static final class Count implements CommandLine.ITypeConverter<Long> {
        private static final Pattern COUNT = Pattern.compile("(\\d+(?:\\.\\d+)?)([kKMG]?)");

        @Override
        public Long convert(String value) {
            Matcher m = COUNT.matcher(value.trim());
            if (!m.matches()) {
                throw new CommandLine.TypeConversionException("invalid count '" + value
                        + "': expected a whole number such as 20000, 20k or 20M");
            }
            BigDecimal n = new BigDecimal(m.group(1)).scaleByPowerOfTen(switch (m.group(2)) {
                case "k", "K" -> 3;
                case "M" -> 6;
                case "G" -> 9;
                default -> 0;
            });
            long count;
            try {
                count = n.longValueExact();
            } catch (ArithmeticException e) {
                throw new CommandLine.TypeConversionException("invalid count '" + value + "': not a whole number"
                        + (n.signum() > 0 && n.scale() <= 0 ? " below 2^63" : ""));
            }
            if (count == 0) {
                throw new CommandLine.TypeConversionException("invalid count '" + value
                        + "': must be at least 1 (without --cycles a run has no count limit)");
            }
            return count;
        }
    }
}
