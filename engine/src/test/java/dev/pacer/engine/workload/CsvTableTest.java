package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A malformed CSV row is named by the line it begins on, as an editor counts: blank lines and quoted breaks too. */
@Timeout(10)
class CsvTableTest {

    @Test
    void aShortRowIsNamedByItsLineAfterBlankLinesAndAQuotedLineBreak() {
        String text = "id,name\n1,a\n\n2,\"two\nlines\"\r\n3\n";
        assertEquals("line 6 has 1 field, the header 2",
                assertThrows(IllegalArgumentException.class, () -> CsvTable.parse(text)).getMessage());
    }

    /** A blank line is skipped, as most readers do; an empty value in a one-column file is a quoted nothing. */
    @Test
    void aBlankLineIsSkippedAndAQuotedNothingIsAnEmptyValue() {
        CsvTable t = CsvTable.parse("name\na\n\n\"\"\r\nb\n\n");
        assertEquals(3, t.rows);
        assertEquals("", new String(t.columns[0][1], java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void anUnclosedQuoteIsNamedByTheLineItOpensOn() {
        String text = "id,name\r\n1,a\r\n2,\"b\r\n3,c\r\n";
        assertEquals("line 3: a quoted field is not closed",
                assertThrows(IllegalArgumentException.class, () -> CsvTable.parse(text)).getMessage());
    }
}
