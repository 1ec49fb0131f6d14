package dev.pacer.engine.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TargetLedgerTest {

    static final long T0 = 5_000_000_000L;
    static final long MS = 1_000_000L;

    final TargetLedger ledger = new TargetLedger();

    @Test
    void aRateThatNeverChangesIsTheTargetExactly() {
        ledger.start(T0, 2000);
        TargetLedger.Target first = ledger.cut(T0 + 1_000 * MS);
        TargetLedger.Target second = ledger.cut(T0 + 1_700 * MS);
        assertEquals(2000, first.ops(), 1e-9);
        assertEquals(2000.0, first.rate());
        assertEquals(1400, second.ops(), 1e-9);
        assertEquals(2000.0, first.plus(second).rate(), "exact, not 1999.99...: summaries print it");
    }

    @Test
    void aChangeInsideAnIntervalCountsForTheTimeEachRateWasInForce() {
        ledger.start(T0, 1000);
        ledger.setRate(T0 + 500 * MS, 2000);
        TargetLedger.Target t = ledger.cut(T0 + 1_000 * MS);
        assertEquals(1500, t.ops(), 1e-9, "500 ops at 1000/s, then 1000 at 2000/s");
        assertEquals(1500, t.rate(), 1e-9, "not the 2000 in force at the end");
        assertEquals(2000.0, ledger.cut(T0 + 2_000 * MS).rate(), "the next interval ran at 2000 throughout");
    }

    @Test
    void aRampRetunedEvery10MsAsksForTheAreaUnderItsLine() {
        ledger.start(T0, 1000);
        for (int i = 0; i < 100; i++) { // 1000 -> 2000 over 1 s, each step the line's value mid-step
            ledger.setRate(T0 + i * 10 * MS, 1000 + 1000 * (i + 0.5) / 100);
        }
        TargetLedger.Target t = ledger.cut(T0 + 1_000 * MS);
        assertEquals(1500, t.ops(), 1e-6);
        assertEquals(1500, t.rate(), 1e-6);
    }

    @Test
    void pausedTimeAsksForNothingButStillCounts() {
        ledger.start(T0, 1000);
        ledger.setPaused(T0 + 500 * MS, true);
        ledger.setRate(T0 + 600 * MS, 4000); // a change while paused applies from the resume
        ledger.setPaused(T0 + 800 * MS, false);
        TargetLedger.Target t = ledger.cut(T0 + 1_000 * MS);
        assertEquals(500 + 800, t.ops(), 1e-9, "500 before the pause, none during it, 200 ms at 4000/s after");
        assertEquals(1.0, t.pacedSeconds(), 1e-12);
        assertEquals(1300, t.rate(), 1e-9);
    }

    @Test
    void anUnpacedRunHasNoTargetUntilARateIsSet() {
        ledger.start(T0, Double.NaN);
        TargetLedger.Target unpaced = ledger.cut(T0 + 1_000 * MS);
        assertTrue(Double.isNaN(unpaced.rate()));
        assertEquals(0, unpaced.pacedSeconds());
        ledger.setRate(T0 + 1_400 * MS, 1000);
        TargetLedger.Target t = ledger.cut(T0 + 2_000 * MS);
        assertEquals(0.6, t.pacedSeconds(), 1e-12, "only the paced part of the interval counts");
        assertEquals(1000.0, t.rate());
        assertEquals(1000.0, unpaced.plus(t).rate(), "totals compare with the paced time only");
    }
}
