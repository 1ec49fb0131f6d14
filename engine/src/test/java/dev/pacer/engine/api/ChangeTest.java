package dev.pacer.engine.api;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Changes, their kinds and the reasons a run stops: the words the logs and summaries use. */
@Timeout(10)
class ChangeTest {

    @Test
    void everyKindReadsBackFromItsLabelAndAnUnknownOneIsNamed() {
        for (ChangeKind k : ChangeKind.values()) {
            assertEquals(k, ChangeKind.ofLabel(k.label()));
            assertEquals(k.name().toLowerCase(java.util.Locale.ROOT), k.label());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ChangeKind.ofLabel("Rate"));
        assertEquals("unknown change kind 'Rate'", e.getMessage());
    }

    @Test
    void onlyTheEndsARunPlansArePlanned() {
        EnumSet<StopReason> planned = EnumSet.noneOf(StopReason.class);
        for (StopReason r : StopReason.values()) {
            if (r.planned()) {
                planned.add(r);
            }
        }
        assertEquals(EnumSet.of(StopReason.DURATION, StopReason.CYCLES, StopReason.END, StopReason.SEARCH), planned);
        assertFalse(StopReason.SIGNAL.planned(), "a Ctrl-C is logged as a change");
        assertEquals("control", StopReason.CONTROL.label());
    }

    @Test
    void aChangeWithoutValueOrNoteDescribesItselfInOneLine() {
        Change pause = new Change(5, 1.5, ChangeKind.PAUSE, null, "console", null);
        assertEquals("", pause.value());
        assertEquals("", pause.note());
        assertEquals("pause (console) at 1.500s", pause.describe());
        Change rate = new Change(5, 12.3456, ChangeKind.RATE, "8000,0.5", "http", "reset the window");
        assertEquals("rate 8000,0.5 (http) at 12.346s; reset the window", rate.describe());
        assertTrue(assertThrows(NullPointerException.class, () -> new Change(0, 0, null, "", "x")).getMessage()
                .contains("kind"));
    }
}
