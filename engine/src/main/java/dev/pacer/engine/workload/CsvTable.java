package dev.pacer.engine.workload;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A CSV file loaded once for {@code csv(...)} bindings: a header row naming the columns, then rows (RFC 4180:
 * commas, double-quoted fields with {@code ""} for a quote). Each column's values are kept as UTF-8 bytes.
 * Immutable after loading.
 */
final class CsvTable {

    final List<String> header;
    /** columns[c][row]: the value's UTF-8 bytes. */
    final byte[][][] columns;
    final int rows;

    private CsvTable(List<String> header, byte[][][] columns, int rows) {
        this.header = header;
        this.columns = columns;
        this.rows = rows;
    }

    /**
     * Parses CSV text.
     *
     * @throws IllegalArgumentException naming the line of a malformed row ("line N: ...")
     */
    static CsvTable parse(String text) {
        if (text.startsWith("\uFEFF")) { // a byte order mark, as spreadsheets write it: not part of the first name
            text = text.substring(1);
        }
        List<Integer> lines = new ArrayList<>();
        List<List<String>> records = records(text, lines);
        if (records.isEmpty()) {
            throw new IllegalArgumentException("the file is empty; it needs a header row naming its columns");
        }
        List<String> header = records.get(0);
        for (int c = 0; c < header.size(); c++) {
            if (header.indexOf(header.get(c)) != c) {
                throw new IllegalArgumentException("the header names column '" + header.get(c) + "' twice");
            }
        }
        int rows = records.size() - 1;
        if (rows == 0) {
            throw new IllegalArgumentException("the file has a header but no rows");
        }
        byte[][][] columns = new byte[header.size()][rows][];
        for (int r = 0; r < rows; r++) {
            List<String> rec = records.get(r + 1);
            if (rec.size() != header.size()) {
                throw new IllegalArgumentException("line " + lines.get(r + 1) + " has " + rec.size()
                        + (rec.size() == 1 ? " field" : " fields") + ", the header " + header.size());
            }
            for (int c = 0; c < header.size(); c++) {
                columns[c][r] = rec.get(c).getBytes(StandardCharsets.UTF_8);
            }
        }
        return new CsvTable(List.copyOf(header), columns, rows);
    }

    /** The records of {@code text}; the line each begins on goes into {@code lines} (1-based, as an editor counts). */
    private static List<List<String>> records(String text, List<Integer> lines) {
        List<List<String>> out = new ArrayList<>();
        List<String> rec = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean any = false;
        int line = 1;
        int recordLine = 1;
        int quoteLine = 0;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '\n' || ch == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) {
                line++; // a line ends here (\r\n counts at its \n)
            }
            if (quoted) {
                if (ch == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
                quoteLine = line;
                any = true;
            } else if (ch == ',') {
                rec.add(field.toString());
                field.setLength(0);
                any = true;
            } else if (ch == '\n' || ch == '\r') {
                if (ch == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                    line++;
                }
                if (any || field.length() > 0) {
                    rec.add(field.toString());
                    out.add(rec);
                    lines.add(recordLine);
                }
                rec = new ArrayList<>();
                field.setLength(0);
                any = false;
                recordLine = line;
            } else {
                field.append(ch);
                any = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("line " + quoteLine + ": a quoted field is not closed");
        }
        if (any || field.length() > 0) {
            rec.add(field.toString());
            out.add(rec);
            lines.add(recordLine);
        }
        return out;
    }

    /** How a {@code csv} binding picks a row for a cycle. */
    enum Pick {
        /** A row drawn uniformly from a hash of the cycle (the default). */
        HASH,
        /** Row {@code cycle mod rows}: the file in order, again and again. */
        SEQ,
        /** Row {@code p(cycle mod rows)} for a fixed keyed permutation p: each pass reads every row once. */
        SHUFFLE,
        /** Row {@code cycle}: every row once over the whole test (all shards together); later cycles have none. */
        ONCE
    }

    /** {@code csv(file, column[, pick])}: one column's value from a row picked per cycle. */
    static final class Column extends Fn {
        private final byte[][] values;
        private final Pick pick;
        private final Fns.Permutation shuffle;

        Column(long salt, CsvTable table, int column, Pick pick) {
            super(salt);
            this.values = table.columns[column];
            this.pick = pick;
            this.shuffle = pick == Pick.SHUFFLE ? new Fns.Permutation(salt, values.length) : null;
        }

        @Override
        Kind kind() {
            return Kind.TEXT;
        }

        int row(long cycle) {
            int n = values.length;
            return switch (pick) {
                case HASH -> (int) new CycleRandom(salt, cycle).nextBelow(n);
                case SEQ -> (int) (cycle % n);
                case SHUFFLE -> (int) shuffle.apply(cycle % n);
                case ONCE -> (int) cycle;
            };
        }

        @Override
        boolean has(long cycle) {
            return pick != Pick.ONCE || cycle >= 0 && cycle < values.length;
        }

        @Override
        void write(long cycle, Bytes out) {
            out.append(values[row(cycle)]);
        }
    }

    /** {@code extract(file, min, max)}: a slice of a text file, its length uniform in [min, max] bytes. */
    static final class Extract extends Fn {
        private final byte[] text;
        private final int min;
        private final int max;

        Extract(long salt, byte[] text, int min, int max) {
            super(salt);
            this.text = text;
            this.min = Math.min(min, text.length);
            this.max = Math.min(max, text.length);
        }

        @Override
        Kind kind() {
            return Kind.TEXT;
        }

        @Override
        void write(long cycle, Bytes out) {
            CycleRandom r = new CycleRandom(salt, cycle);
            int n = (int) r.between(min, max);
            int start = (int) r.nextBelow(text.length - n + 1);
            int end = start + n;
            while (start < end && (text[start] & 0xC0) == 0x80) { // not inside a UTF-8 character
                start++;
            }
            while (end > start && end < text.length && (text[end] & 0xC0) == 0x80) {
                end--;
            }
            out.append(text, start, end - start);
        }
    }
}
