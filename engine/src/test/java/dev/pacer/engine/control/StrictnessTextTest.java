package dev.pacer.engine.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pacer.engine.api.ControlAction;
import dev.pacer.engine.api.SettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A strictness set live (console, POST /strictness, the API) is read as --rate's strictness is. */
@Timeout(10)
class StrictnessTextTest {

    @Test
    void javasOwnNumberSuffixesAreRefusedAndTheValueGivenIsTheOneNamed() {
        for (String text : new String[] {"0.5f", "1d", "0x1p-1", "Infinity", "NaN"}) {
            SettingException e = assertThrows(SettingException.class, () -> ControlAction.parse("strictness " + text),
                    text);
            assertEquals(text, e.value());
        }
        SettingException big = assertThrows(SettingException.class, () -> ControlAction.parse("strictness 1e400"));
        assertEquals("invalid strictness '1e400': must be between 0 and 100 (0 average, 0..1 burst compensation, 1 "
                + "strict, >1 burst allowance)", big.getMessage(), "not 'invalid strictness Infinity'");
        assertEquals(new ControlAction.SetStrictness(0.5), ControlAction.parse("strictness 0.5"));
        assertEquals(new ControlAction.SetStrictness(100), ControlAction.parse("strictness 1e2"));
    }

    @Test
    void threadsTakeAsciiDigitsOnlyAsEveryNumberDoes() {
        for (String text : new String[] {"\u0662", "\uff12", "2.0", "x"}) {
            SettingException e = assertThrows(SettingException.class, () -> ControlAction.parse("threads " + text),
                    text);
            assertEquals("invalid threads '" + text + "': expected a whole number", e.getMessage());
        }
    }
}
