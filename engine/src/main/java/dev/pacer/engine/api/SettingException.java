package dev.pacer.engine.api;

import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A value the engine cannot take, named in the engine's own words: the setting ({@code threads},
 * {@code duration}, {@code url}, ... the names scenario files use too), the value as given, and why.
 * Front ends name settings their own way: {@link #render(UnaryOperator)} lets the CLI say
 * {@code --threads} where a scenario file says {@code threads}. Every bad input the engine refuses is a
 * {@code SettingException} or a {@code ScenarioException} ({@code file:line: ...}); the CLI turns both
 * into one line and exit code 2.
 *
 * <p>A reason may refer to another setting as <code>${name}</code>; it is rendered with the same
 * naming (e.g. "needs ${control-token}" becomes "needs --control-token" in the CLI).
 */
public final class SettingException extends IllegalArgumentException {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{([a-z0-9-]+)}");

    private final String setting;
    private final String value;
    private final String reason;

    /**
     * @param setting the setting's name, e.g. {@code threads}
     * @param value   the value as given, or null when it is missing
     * @param reason  why it is refused, e.g. {@code must be between 1 and 4096}
     */
    public SettingException(String setting, String value, String reason) {
        super(render(setting, value, reason, UnaryOperator.identity()));
        this.setting = setting;
        this.value = value;
        this.reason = reason;
    }

    /** The setting's name in the engine's words. */
    public String setting() {
        return setting;
    }

    /** The value as given; null when it was missing. */
    public String value() {
        return value;
    }

    /** Why it was refused (may refer to settings as <code>${name}</code>). */
    public String reason() {
        return reason;
    }

    /** The one-line message with every setting named by {@code namer}: {@code invalid --threads '0': ...}. */
    public String render(UnaryOperator<String> namer) {
        return render(setting, value, reason, namer);
    }

    private static String render(String setting, String value, String reason, UnaryOperator<String> namer) {
        Matcher m = REFERENCE.matcher(reason);
        StringBuilder why = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(why, Matcher.quoteReplacement(namer.apply(m.group(1))));
        }
        m.appendTail(why);
        String name = namer.apply(setting);
        return value == null ? "missing " + name + ": " + why : "invalid " + name + " '" + visible(value) + "': " + why;
    }

    /**
     * The value on one line: a line break, a tab, another control character, a bidi or other invisible format
     * character (U+202E, U+200B) or a line or paragraph separator is shown escaped (backslash r, n, t, or backslash u
     * and the four hex digits of its code), so the reason after it is not cut off, and the terminal is neither driven
     * nor its text reordered by what was given (or read from a file).
     */
    public static String visible(String value) {
        StringBuilder b = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            int type = Character.getType(c);
            boolean control = Character.isISOControl(c) || type == Character.FORMAT
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
            if (control && b == null) {
                b = new StringBuilder(value.length() + 8).append(value, 0, i);
            }
            if (b != null) {
                switch (c) {
                    case '\r' -> b.append("\\r");
                    case '\n' -> b.append("\\n");
                    case '\t' -> b.append("\\t");
                    default -> b.append(control ? String.format("\\u%04x", (int) c) : String.valueOf(c));
                }
            }
        }
        return b == null ? value : b.toString();
    }
}
