package dev.pacer.engine.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Text with {@code {name}} slots, compiled once: literal bytes and slots that write a binding's value, a value
 * saved by an earlier step, or the cycle. A <code>&#123;</code> that does not start a name is literal text, so JSON
 * written as a text body needs no escaping; {@code {{name}}} is written as the literal {@code {name}}.
 * Immutable, thread-safe.
 */
final class Template {

    /** How a slot's value is written where it stands. */
    enum Encoding {
        /** As it is (a text body). */
        RAW,
        /** Percent-encoded except RFC 3986's unreserved characters (a path or query). */
        URL,
        /** A header value: line breaks become spaces. */
        HEADER,
        /** Inside a JSON string: quotes, backslashes and control characters escaped. */
        JSON_STRING,
        /** A whole JSON value: numbers bare, text quoted and escaped. */
        JSON_VALUE
    }

    /** What a slot names. */
    interface Slot {
        /** Writes the value as text. */
        void write(CycleState st, Bytes out);

        /** Writes the value as a JSON value. */
        void writeJson(CycleState st, Bytes out);

        /** The name as written, for messages and {@code pacer show}. */
        String name();
    }

    static final Pattern NAME = Pattern.compile("\\{\\{([A-Za-z_][A-Za-z0-9_-]*)}}|\\{([A-Za-z_][A-Za-z0-9_-]*)}");

    /** Literal parts (UTF-8) and slots in order: parts[i] is followed by slots[i] (the last part by nothing). */
    private final byte[][] parts;
    private final Slot[] slots;
    private final Encoding[] encodings;
    private final String text;

    private Template(String text, byte[][] parts, Slot[] slots, Encoding[] encodings) {
        this.text = text;
        this.parts = parts;
        this.slots = slots;
        this.encodings = encodings;
    }

    /**
     * Compiles text; {@code resolve} gives the slot of a name, or throws IllegalArgumentException naming what is
     * wrong.
     */
    static Template of(String text, Encoding encoding, Function<String, Slot> resolve) {
        Builder b = new Builder();
        b.text(text, encoding, resolve);
        return b.build(text);
    }

    /** Builds a template from pieces (a JSON body: literal syntax, values and text with slots). */
    static final class Builder {
        private final StringBuilder literal = new StringBuilder();
        private final List<byte[]> parts = new ArrayList<>();
        private final List<Slot> slots = new ArrayList<>();
        private final List<Encoding> encodings = new ArrayList<>();

        Builder literal(String s) {
            literal.append(s);
            return this;
        }

        Builder slot(Slot slot, Encoding e) {
            parts.add(literal.toString().getBytes(StandardCharsets.UTF_8));
            literal.setLength(0);
            slots.add(slot);
            encodings.add(e);
            return this;
        }

        /** Text with {@code {name}} slots; its literal text is escaped for JSON_STRING. */
        Builder text(String text, Encoding e, Function<String, Slot> resolve) {
            Matcher m = NAME.matcher(text);
            int at = 0;
            while (m.find()) {
                literal(escape(text.substring(at, m.start()), e));
                if (m.group(1) != null) {
                    literal(escape("{" + m.group(1) + "}", e));
                } else {
                    slot(resolve.apply(m.group(2)), e);
                }
                at = m.end();
            }
            literal(escape(text.substring(at), e));
            return this;
        }

        private static String escape(String s, Encoding e) {
            if (e != Encoding.JSON_STRING) {
                return s;
            }
            StringBuilder b = new StringBuilder();
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format("\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            return b.toString();
        }

        Template build(String text) {
            List<byte[]> all = new ArrayList<>(parts);
            all.add(literal.toString().getBytes(StandardCharsets.UTF_8));
            return new Template(text, all.toArray(byte[][]::new), slots.toArray(Slot[]::new),
                    encodings.toArray(Encoding[]::new));
        }
    }

    /** True when the template has no slots: its bytes are the same every cycle. */
    boolean isConstant() {
        return slots.length == 0;
    }

    /** The names of its slots, in order. */
    List<String> names() {
        List<String> out = new ArrayList<>();
        for (Slot s : slots) {
            out.add(s.name());
        }
        return out;
    }

    /** Writes this cycle's text. */
    void render(CycleState st, Bytes out) {
        for (int i = 0; i < slots.length; i++) {
            out.append(parts[i]);
            int start = out.length;
            if (encodings[i] == Encoding.JSON_VALUE) {
                slots[i].writeJson(st, out);
                continue;
            }
            slots[i].write(st, out);
            switch (encodings[i]) {
                case URL -> urlEncode(out, start);
                case HEADER -> {
                    for (int j = start; j < out.length; j++) {
                        if (out.array[j] == '\r' || out.array[j] == '\n') {
                            out.array[j] = ' ';
                        }
                    }
                }
                case JSON_STRING -> jsonEscape(out, start);
                default -> {
                }
            }
        }
        out.append(parts[parts.length - 1]);
    }

    /** This cycle's text as a string (allocates). */
    String render(CycleState st) {
        Bytes b = new Bytes(64);
        render(st, b);
        return b.toString();
    }

    private static boolean unreserved(byte c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
                || c == '~';
    }

    private static void urlEncode(Bytes out, int start) {
        for (int j = start; j < out.length; j++) {
            if (!unreserved(out.array[j])) { // rare for ids: encode a copy
                byte[] raw = java.util.Arrays.copyOfRange(out.array, start, out.length);
                out.length = start;
                for (byte c : raw) {
                    if (unreserved(c)) {
                        out.append(c);
                    } else {
                        out.appendPercentEncoded(c & 0xff);
                    }
                }
                return;
            }
        }
    }

    private static void jsonEscape(Bytes out, int start) {
        for (int j = start; j < out.length; j++) {
            byte b = out.array[j];
            if (b == '"' || b == '\\' || (b >= 0 && b < 0x20)) {
                byte[] raw = java.util.Arrays.copyOfRange(out.array, start, out.length);
                out.length = start;
                out.appendJsonEscaped(raw, 0, raw.length);
                return;
            }
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
