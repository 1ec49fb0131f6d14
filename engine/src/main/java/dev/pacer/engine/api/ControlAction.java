package dev.pacer.engine.api;

import dev.pacer.ratelimit.api.NumberText;
import dev.pacer.ratelimit.api.RateSpec;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * One command to a running load, from the console ({@code rate 8000,0.5}) or the HTTP endpoint
 * ({@code POST /rate} with {@code 8000}): what the user asked, validated, not yet applied.
 */
public sealed interface ControlAction {

    /** The verbs, as typed and as HTTP paths. */
    String VERBS = "rate RATE[,STRICTNESS] | strictness S | threads N | pause | resume | status | stop | help";

    /**
     * A new target rate.
     *
     * @param spec            the rate, and the strictness when one was given
     * @param keepsStrictness no strictness was given ({@code rate 8000}): the one in force stays
     */
    record SetRate(RateSpec spec, boolean keepsStrictness) implements ControlAction {
    }

    record SetStrictness(double strictness) implements ControlAction {
    }

    record SetThreads(int threads) implements ControlAction {
    }

    record Pause() implements ControlAction {
    }

    record Resume() implements ControlAction {
    }

    record Status() implements ControlAction {
    }

    record Stop() implements ControlAction {
    }

    /** Lists the commands (console only). */
    record Help() implements ControlAction {
    }

    /**
     * Parses a console line: a verb and at most one value.
     *
     * @throws IllegalArgumentException one line naming the bad verb or value
     */
    static ControlAction parse(String line) {
        String t = line == null ? "" : line.strip();
        String[] parts = t.split("\\s+", 2);
        String verb = parts[0].toLowerCase(Locale.ROOT);
        return of(verb, parts.length > 1 ? parts[1].strip() : null);
    }

    /**
     * Builds an action from a verb and its value (null when none was given).
     *
     * @throws IllegalArgumentException one line naming the bad verb or value
     */
    static ControlAction of(String verb, String value) {
        switch (verb) {
            case "rate" -> {
                String v = required(verb, value);
                return new SetRate(RateSpec.parse(v), !v.contains(","));
            }
            case "strictness" -> {
                String v = required(verb, value);
                BigDecimal s;
                try { // as --rate's strictness is read: not Java's grammar, which takes 0.5f, 0x1p-1 and 1e400
                    s = NumberText.parsePlain(v);
                } catch (IllegalArgumentException e) {
                    throw new SettingException("strictness", v, "expected a number between 0 and 100");
                }
                if (s.signum() < 0 || s.compareTo(BigDecimal.valueOf(RateSpec.MAX_STRICTNESS)) > 0) {
                    throw new SettingException("strictness", v, "must be between 0 and 100 (0 average, 0..1 burst"
                            + " compensation, 1 strict, >1 burst allowance)");
                }
                return new SetStrictness(s.doubleValue());
            }
            case "threads" -> {
                String v = required(verb, value);
                try {
                    if (!v.matches("[+-]?[0-9]{1,10}")) { // ASCII digits, as every number
                        throw new NumberFormatException(v);
                    }
                    return new SetThreads(Integer.parseInt(v));
                } catch (NumberFormatException e) {
                    throw new SettingException("threads", v, "expected a whole number");
                }
            }
            case "pause", "resume", "status", "stop", "help" -> {
                if (value != null && !value.isEmpty()) {
                    throw new IllegalArgumentException("'" + verb + "' takes no value, got '" + value + "'");
                }
                return switch (verb) {
                    case "pause" -> new Pause();
                    case "resume" -> new Resume();
                    case "status" -> new Status();
                    case "help" -> new Help();
                    default -> new Stop();
                };
            }
            default -> throw new IllegalArgumentException("unknown command '" + verb + "': expected " + VERBS);
        }
    }

    private static String required(String verb, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("'" + verb + "' needs a value, e.g. " + switch (verb) {
                case "rate" -> "rate 8000 or rate 8000,0.5";
                case "strictness" -> "strictness 1";
                default -> "threads 32";
            });
        }
        return value;
    }
}
