package dev.pacer.engine.op;

import dev.pacer.engine.api.OpSpec;
import dev.pacer.engine.api.Outcome;

import dev.pacer.engine.api.SettingException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServiceTimeTest {

    @Test
    void fixedUniformAndExponentialHaveTheirMeans() {
        assertEquals(2_000_000, ServiceTime.parse("2ms", "sleep").nextNanos());
        ServiceTime uniform = ServiceTime.parse("uniform(1ms,5ms)", "sleep");
        ServiceTime exp = ServiceTime.parse("exp(2ms)", "sleep");
        double sumU = 0;
        double sumE = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            long u = uniform.nextNanos();
            assertTrue(u >= 1_000_000 && u <= 5_000_000);
            sumU += u;
            long e = exp.nextNanos();
            assertTrue(e >= 0);
            sumE += e;
        }
        assertEquals(3_000_000, sumU / n, 30_000, "uniform mean");
        assertEquals(2_000_000, sumE / n, 40_000, "exponential mean");
    }

    @Test
    void badDistributionsNameTheText() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceTime.parse("uniform(5ms,1ms)", "sleep"))
                .getMessage().contains("uniform(5ms,1ms)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceTime.parse("gauss(1ms)", "sleep"))
                .getMessage().contains("gauss"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceTime.parse("", "sleep"))
                .getMessage().contains("needs a duration"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServiceTime.parse("-1ms", "cpu"))
                .getMessage().contains("-1ms"));
    }

    @Test
    void outcomesAreInternedAndExceptionsMapToTheirClassName() {
        assertTrue(Outcome.of("2xx", false) == Outcome.of("2xx", false));
        Outcome o = Outcome.forThrowable(new IllegalStateException("x"));
        assertEquals("IllegalStateException", o.label());
        assertTrue(o.isError());
        assertTrue(o == Outcome.forThrowable(new IllegalStateException("y")));
    }

    @Test
    void unknownOpsAreRejectedListingTheKnownOnes() {
        SettingException e = assertThrows(SettingException.class, () -> Ops.create(OpSpec.parse("nope")));
        assertEquals("op", e.setting());
        assertTrue(e.getMessage().startsWith("invalid op 'nope': no such op; known ops are "), e.getMessage());
        assertTrue(e.getMessage().contains("noop") && e.getMessage().contains("sleep")
                && e.getMessage().contains("cpu"));
    }
}
