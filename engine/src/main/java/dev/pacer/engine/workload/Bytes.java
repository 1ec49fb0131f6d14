package dev.pacer.engine.workload;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte array that rendered requests are written into: ASCII, decimal numbers and UTF-8 text
 * without a {@code String} per value. Not thread-safe: one per thread or per cycle, reused with {@link #clear}.
 */
final class Bytes {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);
    /** A percent-encoding's digits: RFC 3986 2.1 asks producers for upper case (a signature over the URL differs). */
    private static final byte[] HEX_UPPER = "0123456789ABCDEF".getBytes(StandardCharsets.ISO_8859_1);

    byte[] array;
    int length;

    Bytes(int capacity) {
        array = new byte[Math.max(16, capacity)];
    }

    Bytes clear() {
        length = 0;
        return this;
    }

    private void room(int n) {
        if (length + n > array.length) {
            array = Arrays.copyOf(array, Math.max(array.length * 2, length + n));
        }
    }

    Bytes append(byte b) {
        room(1);
        array[length++] = b;
        return this;
    }

    Bytes append(byte[] b) {
        return append(b, 0, b.length);
    }

    Bytes append(byte[] b, int from, int n) {
        room(n);
        System.arraycopy(b, from, array, length, n);
        length += n;
        return this;
    }

    /** Decimal digits of {@code v}. */
    Bytes append(long v) {
        if (v == Long.MIN_VALUE) {
            return appendUtf8("-9223372036854775808");
        }
        room(20);
        if (v < 0) {
            array[length++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v / 10; t > 0; t /= 10) {
            digits++;
        }
        for (int i = length + digits - 1; i >= length; i--) {
            array[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        length += digits;
        return this;
    }

    /** Java's shortest decimal form of {@code v} (a finite double). */
    Bytes append(double v) {
        return appendUtf8(Double.toString(v));
    }

    /** The lowest {@code digits} hex digits of {@code v}, most significant first. */
    Bytes appendHex(long v, int digits) {
        room(digits);
        for (int i = digits - 1; i >= 0; i--) {
            array[length++] = HEX[(int) (v >>> (i * 4)) & 0xf];
        }
        return this;
    }

    /** {@code %} and the byte {@code b} in two upper-case hex digits: a percent-encoded octet. */
    Bytes appendPercentEncoded(int b) {
        room(3);
        array[length++] = '%';
        array[length++] = HEX_UPPER[(b >>> 4) & 0xf];
        array[length++] = HEX_UPPER[b & 0xf];
        return this;
    }

    /** UTF-8 of {@code s}. */
    Bytes appendUtf8(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                append((byte) c);
            } else {
                appendChar(s, i, c);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    i++;
                }
            }
        }
        return this;
    }

    private void appendChar(CharSequence s, int i, char c) {
        int cp = Character.isHighSurrogate(c) && i + 1 < s.length() ? Character.codePointAt(s, i) : c;
        byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
        append(b);
    }

    /** Bytes already UTF-8 written inside a JSON string: quotes, backslashes and control characters escaped. */
    Bytes appendJsonEscaped(byte[] b, int from, int n) {
        room(n);
        for (int i = from; i < from + n; i++) {
            byte c = b[i];
            if (c == '"' || c == '\\') {
                append((byte) '\\').append(c);
            } else if (c >= 0 && c < 0x20) {
                switch (c) {
                    case '\n' -> append((byte) '\\').append((byte) 'n');
                    case '\r' -> append((byte) '\\').append((byte) 'r');
                    case '\t' -> append((byte) '\\').append((byte) 't');
                    default -> append((byte) '\\').append((byte) 'u').appendHex(c, 4);
                }
            } else {
                append(c);
            }
        }
        return this;
    }

    byte[] toArray() {
        return Arrays.copyOf(array, length);
    }

    @Override
    public String toString() {
        return new String(array, 0, length, StandardCharsets.UTF_8);
    }
}
