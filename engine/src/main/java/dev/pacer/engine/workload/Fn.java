package dev.pacer.engine.workload;

/**
 * A compiled binding function: its value for a global cycle, a pure function of (its salt, the cycle). Immutable,
 * thread-safe; evaluating allocates nothing.
 */
abstract class Fn {

    /** What a binding's values are: JSON writes numbers bare and text quoted. */
    enum Kind { LONG, DOUBLE, TEXT }

    /** The binding's salt (seed and name), set once when it is compiled. */
    final long salt;

    Fn(long salt) {
        this.salt = salt;
    }

    abstract Kind kind();

    /** The value as a whole number (LONG bindings only). */
    long asLong(long cycle) {
        throw new UnsupportedOperationException(kind() + " binding has no whole-number value");
    }

    /** Whether this cycle has a value (false only past the end of a {@code csv(..., once)} file). */
    boolean has(long cycle) {
        return true;
    }

    /** The value's text form (decimal numbers, text as UTF-8). */
    abstract void write(long cycle, Bytes out);

    /** The value as JSON: numbers bare, text as a quoted, escaped string. */
    void writeJson(long cycle, Bytes out) {
        if (kind() != Kind.TEXT) {
            write(cycle, out);
            return;
        }
        out.append((byte) '"');
        int start = out.length;
        write(cycle, out);
        for (int i = start; i < out.length; i++) {
            byte b = out.array[i];
            if (b == '"' || b == '\\' || (b >= 0 && b < 0x20)) { // rare: escape the copy
                byte[] raw = java.util.Arrays.copyOfRange(out.array, start, out.length);
                out.length = start;
                out.appendJsonEscaped(raw, 0, raw.length);
                break;
            }
        }
        out.append((byte) '"');
    }

    /** The value as a Java string (for {@code pacer show} and checks; allocates). */
    String text(long cycle) {
        Bytes b = new Bytes(32);
        write(cycle, b);
        return b.toString();
    }

    /** A whole-number function with a declared range: every value lies in [lo, hi]. */
    abstract static class LongFn extends Fn {
        final long lo;
        final long hi;

        LongFn(long salt, long lo, long hi) {
            super(salt);
            this.lo = lo;
            this.hi = hi;
        }

        @Override
        final Kind kind() {
            return Kind.LONG;
        }

        @Override
        abstract long asLong(long cycle);

        @Override
        final void write(long cycle, Bytes out) {
            out.append(asLong(cycle));
        }
    }

    /** A function of a whole-number input: a stage after {@code |}. */
    abstract static class Stage extends LongFn {
        final LongFn in;

        Stage(LongFn in, long salt, long lo, long hi) {
            super(salt, lo, hi);
            this.in = in;
        }

        @Override
        boolean has(long cycle) {
            return in.has(cycle);
        }
    }
}
