package dev.pacer.engine.workload;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the values at a few JSON pointers of a body in one pass of Jackson's streaming parser, without a tree: a
 * string's characters, a whole number, true, false or null, kept in arrays reused from body to body. The pass reads
 * the whole first value as {@code ObjectMapper.readTree} does (every number parsed, every string checked), so a
 * body that the tree could not read has no values here either; of a key written twice the later value counts, as
 * in the tree. A pointer at anything else (a fraction, a whole number beyond {@code long}, an object or an array)
 * is {@link #OTHER}: its text is the tree's to give.
 *
 * <p>Not thread-safe: one per connection, used on its event loop.
 */
final class JsonPointerReader {

    static final int MISSING = 0;
    static final int TEXT = 1;
    static final int INTEGER = 2;
    static final int TRUE = 3;
    static final int FALSE = 4;
    static final int NULL = 5;
    static final int OTHER = 6;

    private static final byte[][] LITERALS = {null, null, null, bytes("true"), bytes("false"), bytes("null")};

    private final JsonFactory factory;
    private int targets;
    /** Per level of the document: each target's rest of its pointer for the value at that level, or null. */
    private JsonPointer[][] tails = new JsonPointer[4][4];
    /** Per level: the next element's index in an array there. */
    private int[] index = new int[4];
    private int[] kind = new int[4];
    private long[] number = new long[4];
    private char[][] text = new char[4][];
    private int[] textLength = new int[4];
    private final Bytes digits = new Bytes(24);

    JsonPointerReader(JsonFactory factory) {
        this.factory = factory;
    }

    /**
     * Reads the values at {@code pointers[0, n)} in {@code body[0, length)}.
     *
     * @return false when the body is not JSON (then every value is {@link #MISSING})
     */
    boolean read(byte[] body, int length, JsonPointer[] pointers, int n) {
        room(n);
        targets = n;
        Arrays.fill(kind, 0, n, MISSING);
        if (length == 0) {
            return true;
        }
        try (JsonParser p = factory.createParser(body, 0, length)) {
            walk(p, pointers);
            return true;
        } catch (IOException e) {
            Arrays.fill(kind, 0, n, MISSING);
            return false;
        }
    }

    /** The kind of value found at target {@code i}. */
    int kind(int i) {
        return kind[i];
    }

    /** Whether target {@code i}'s value as text (a string's content, a number's digits) is UTF-8 {@code b[0, n)}. */
    boolean textEquals(int i, byte[] b, int n) {
        return switch (kind[i]) {
            case TEXT -> charsEqual(text[i], textLength[i], b, n);
            case INTEGER -> {
                digits.clear().append(number[i]);
                yield Arrays.equals(digits.array, 0, digits.length, b, 0, n);
            }
            case TRUE, FALSE, NULL -> Arrays.equals(LITERALS[kind[i]], 0, LITERALS[kind[i]].length, b, 0, n);
            default -> false;
        };
    }

    /** Target {@code i}'s value as text, or null when it is missing or {@link #OTHER}. */
    String text(int i) {
        return switch (kind[i]) {
            case TEXT -> new String(text[i], 0, textLength[i]);
            case INTEGER -> Long.toString(number[i]);
            case TRUE -> "true";
            case FALSE -> "false";
            case NULL -> "null";
            default -> null;
        };
    }

    private void walk(JsonParser p, JsonPointer[] pointers) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) {
            return; // no value at all
        }
        System.arraycopy(pointers, 0, tails[0], 0, targets);
        int level = 0;
        while (true) {
            // t is the first token of a value at `level`, whose targets' rest pointers are tails[level]
            visit(p, t, level);
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                level++;
                deeper(level);
                index[level] = 0;
            } else if (level == 0) {
                return; // a scalar document
            }
            t = p.nextToken();
            while (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                if (--level == 0) {
                    return; // the document's value is whole; what follows is not read, as readTree does
                }
                t = p.nextToken();
            }
            if (t == null) {
                throw new IOException("the document ended inside a value");
            }
            if (t == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                enter(level, name, -1);
                t = p.nextToken();
            } else {
                enter(level, null, index[level]++);
            }
        }
    }

    /** Computes each target's rest pointer for a child (a property, or an array element) at {@code level}. */
    private void enter(int level, String name, int element) {
        JsonPointer[] parent = tails[level - 1];
        JsonPointer[] here = tails[level];
        for (int i = 0; i < targets; i++) {
            JsonPointer at = parent[i];
            JsonPointer rest = at == null || at.matches() ? null
                    : name != null ? at.matchProperty(name) : at.matchElement(element);
            here[i] = rest;
            if (rest != null) {
                kind[i] = MISSING; // a key written again: the later value replaces what the earlier gave
            }
        }
    }

    /** Reads a value token as the tree would (parsing a number); keeps it where a target is. */
    private void visit(JsonParser p, JsonToken t, int level) throws IOException {
        int found;
        switch (t) {
            case VALUE_STRING -> found = TEXT; // skipped unless kept: the skip checks its UTF-8 and escapes too
            case VALUE_NUMBER_INT -> {
                JsonParser.NumberType nt = p.getNumberType();
                if (nt == JsonParser.NumberType.BIG_INTEGER) {
                    p.getBigIntegerValue();
                    found = OTHER;
                } else {
                    found = INTEGER;
                }
            }
            case VALUE_NUMBER_FLOAT -> {
                p.getDoubleValue();
                found = OTHER;
            }
            case VALUE_TRUE -> found = TRUE;
            case VALUE_FALSE -> found = FALSE;
            case VALUE_NULL -> found = NULL;
            default -> found = OTHER;
        }
        JsonPointer[] here = tails[level];
        for (int i = 0; i < targets; i++) {
            if (here[i] != null && here[i].matches()) {
                keep(p, i, found);
            }
        }
    }

    private void keep(JsonParser p, int i, int found) throws IOException {
        kind[i] = found;
        if (found == TEXT) {
            int n = p.getTextLength();
            if (text[i] == null || text[i].length < n) {
                text[i] = new char[Math.max(32, n)];
            }
            System.arraycopy(p.getTextCharacters(), p.getTextOffset(), text[i], 0, n);
            textLength[i] = n;
        } else if (found == INTEGER) {
            number[i] = p.getLongValue();
        }
    }

    private static boolean charsEqual(char[] c, int n, byte[] b, int m) {
        for (int i = 0; i < m; i++) {
            if (b[i] < 0) { // beyond ASCII: compare as text
                return new String(b, 0, m, StandardCharsets.UTF_8).contentEquals(java.nio.CharBuffer.wrap(c, 0, n));
            }
        }
        if (n != m) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (c[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    private void room(int n) {
        if (n > kind.length) {
            int size = Math.max(n, kind.length * 2);
            kind = Arrays.copyOf(kind, size);
            number = Arrays.copyOf(number, size);
            text = Arrays.copyOf(text, size);
            textLength = Arrays.copyOf(textLength, size);
            for (int l = 0; l < tails.length; l++) {
                tails[l] = new JsonPointer[size];
            }
        }
    }

    private void deeper(int level) {
        if (level >= tails.length) {
            int old = tails.length;
            tails = Arrays.copyOf(tails, old * 2);
            for (int l = old; l < tails.length; l++) {
                tails[l] = new JsonPointer[kind.length];
            }
            index = Arrays.copyOf(index, old * 2);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
