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

    /**
     * An int or long flag in ASCII digits only (picocli's own would take other scripts' digits, {@code '٢'} and
     * {@code '２'}, that no other flag takes), or a message in the words of every other bad value.
     */
    static long wholeNumber(String value, long min, long max) {
        if (!value.matches("[+-]?[0-9]{1,40}")) {
            throw new CommandLine.TypeConversionException("invalid whole number '" + value + "': expected a whole "
                    + "number in ASCII digits, such as 8");
        }
        java.math.BigInteger n = new java.math.BigInteger(value);
        if (n.compareTo(java.math.BigInteger.valueOf(max)) > 0) {
            throw new CommandLine.TypeConversionException("invalid whole number '" + value + "': too large (at most "
                    + max + ")");
        }
        if (n.compareTo(java.math.BigInteger.valueOf(min)) < 0) {
            throw new CommandLine.TypeConversionException("invalid whole number '" + value + "': too small (at least "
                    + min + ")");
        }
        return n.longValueExact();
    }

    /** A double flag as {@link NumberText} reads every number: {@code 0.5}, {@code 1e-3}, {@code 2k}; no hex. */
    static double number(String value) {
        try {
            return NumberText.parse(value).doubleValue();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("invalid number '" + value + "': " + e.getMessage());
        }
    }

    /** Registers {@link #wholeNumber} and {@link #number} for every int, long and double flag of {@code cl}. */
    static void registerNumbers(CommandLine cl) {
        cl.registerConverter(Integer.class, v -> (int) wholeNumber(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
        cl.registerConverter(Integer.TYPE, v -> (int) wholeNumber(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
        cl.registerConverter(Long.class, v -> wholeNumber(v, Long.MIN_VALUE, Long.MAX_VALUE));
        cl.registerConverter(Long.TYPE, v -> wholeNumber(v, Long.MIN_VALUE, Long.MAX_VALUE));
        cl.registerConverter(Double.class, Converters::number);
        cl.registerConverter(Double.TYPE, Converters::number);
    }
}
