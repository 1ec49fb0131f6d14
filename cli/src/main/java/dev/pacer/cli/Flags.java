package dev.pacer.cli;

import java.util.Map;

/**
 * The engine names settings in its own words ({@code threads}, {@code url}, the words scenario files
 * use); the CLI names them by their flags. This is the one place that maps one to the other.
 */
final class Flags {

    /** Settings whose flag is not {@code --} followed by their name. */
    private static final Map<String, String> RENAMED = Map.of(
            "strictness", "strictness (after the rate: --rate RATE,STRICTNESS)",
            "slo", "--search");

    private Flags() {
    }

    /** The flag for an engine setting: {@code threads} is {@code --threads}; an environment variable keeps its name. */
    static String of(String setting) {
        if (setting.matches("[A-Z][A-Z0-9_]*")) { // an environment variable (JOB_COMPLETION_INDEX): its own name
            return setting;
        }
        return RENAMED.getOrDefault(setting, "--" + setting);
    }
}
