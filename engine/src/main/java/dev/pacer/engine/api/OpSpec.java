package dev.pacer.engine.api;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An op as the user named it: {@code --op NAME[:ARGUMENT]} plus the named options that some ops take
 * from their own flags (for http: {@code url}, {@code method}, {@code header}, {@code body}, ...).
 *
 * @param name     the op's name, e.g. {@code sleep}
 * @param argument the text after the first ':' ({@code 2ms}, {@code uniform(1ms,5ms)}), or empty
 * @param options  named options; each may be given several times (e.g. headers), in order
 */
public record OpSpec(String name, String argument, Map<String, List<String>> options) {

    public OpSpec {
        Objects.requireNonNull(name, "name");
        argument = argument == null ? "" : argument;
        options = options == null ? Map.of() : Map.copyOf(options);
    }

    /** Parses {@code NAME[:ARGUMENT]}. */
    public static OpSpec parse(String text) {
        return parse(text, Map.of());
    }

    /** Parses {@code NAME[:ARGUMENT]} with named options. */
    public static OpSpec parse(String text, Map<String, List<String>> options) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            throw new SettingException("op", "", "expected an op name such as noop, sleep:2ms or cpu:50us");
        }
        int colon = t.indexOf(':');
        String name = colon < 0 ? t : t.substring(0, colon).trim();
        if (name.isEmpty()) {
            throw new SettingException("op", text, "expected an op name before the ':', such as sleep:2ms");
        }
        return new OpSpec(name, colon < 0 ? "" : t.substring(colon + 1).trim(), options);
    }

    /** The last value given for an option, or null. */
    public String option(String key) {
        List<String> values = options.get(key);
        return values == null || values.isEmpty() ? null : values.get(values.size() - 1);
    }

    /**
     * A yes-or-no option: false when not given, true when given empty or {@code true}.
     *
     * @throws SettingException naming the value when it is neither true nor false
     */
    public boolean flag(String key) {
        String text = option(key);
        if (text == null || text.equals("false")) {
            return false;
        }
        if (text.isEmpty() || text.equals("true")) {
            return true;
        }
        throw new SettingException(key, text, "expected true or false");
    }

    /** Every value given for an option, in order. */
    public List<String> optionValues(String key) {
        return options.getOrDefault(key, List.of());
    }

    @Override
    public String toString() {
        return argument.isEmpty() ? name : name + ":" + argument;
    }
}
