package dev.pacer.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BindingsTest {

    private static final int N = 200_000;

    @TempDir
    Path dir;

    private Fn fn(String text) {
        return fn(text, "x", 42);
    }

    private Fn fn(String text, String name, long seed) {
        return new BindingParser(dir, new HashMap<>()).compile(text, CycleRandom.salt(seed, name));
    }

    private static long[] counts(Fn f, long lo, int bins) {
        long[] c = new long[bins];
        for (long cycle = 0; cycle < N; cycle++) {
            long v = f.asLong(cycle);
            c[(int) (v - lo)]++;
        }
        return c;
    }

    private static void fits(long[] observed, double[] p, String what) {
        double x = Stats.chiSquare(observed, p);
        double limit = observed.length - 1 == 2 ? 9.21 : Stats.critical99(observed.length - 1);
        assertTrue(x < limit, what + ": chi-square " + x + " ≥ " + limit);
        for (int i = 0; i < observed.length; i++) {
            assertTrue(observed[i] > 0, what + ": value " + i + " never drawn");
        }
    }

    @Test
    void uniformFitsItsLawAndReachesBothEnds() {
        double[] p = new double[50];
        java.util.Arrays.fill(p, 1.0 / 50);
        fits(counts(fn("uniform(1, 50)"), 1, 50), p, "uniform(1, 50)");
    }

    @Test
    void uniformOverEveryLongStaysDeterministicAndSpreads() {
        Fn f = fn("uniform(-9223372036854775808, 9223372036854775807)");
        long negative = LongStream.range(0, 10_000).filter(c -> f.asLong(c) < 0).count();
        assertTrue(negative > 4_700 && negative < 5_300, "half negative: " + negative);
    }

    @Test
    void zipfFitsItsLaw() {
        int n = 100;
        double s = 1.1;
        double[] p = new double[n];
        double sum = 0;
        for (int k = 1; k <= n; k++) {
            p[k - 1] = 1 / Math.pow(k, s);
            sum += p[k - 1];
        }
        for (int k = 0; k < n; k++) {
            p[k] /= sum;
        }
        fits(counts(fn("zipf(100, 1.1)"), 1, n), p, "zipf(100, 1.1)");
    }

    @Test
    void zipfBelowOneFitsItsLawToo() {
        int n = 30;
        double s = 0.5;
        double[] p = new double[n];
        double sum = 0;
        for (int k = 1; k <= n; k++) {
            p[k - 1] = 1 / Math.pow(k, s);
            sum += p[k - 1];
        }
        for (int k = 0; k < n; k++) {
            p[k] /= sum;
        }
        fits(counts(fn("zipf(30, 0.5)"), 1, n), p, "zipf(30, 0.5)");
    }

    @Test
    void exponentialFitsPgbenchsLaw() {
        int n = 20;
        double param = 2.0;
        double[] p = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = (Math.exp(-param * i / n) - Math.exp(-param * (i + 1) / n)) / (1 - Math.exp(-param));
        }
        fits(counts(fn("exponential(1, 20, 2.0)"), 1, n), p, "exponential(1, 20, 2)");
    }

    @Test
    void gaussianFitsPgbenchsCutNormalLaw() {
        int n = 20;
        double param = 2.5;
        double[] p = new double[n];
        double mass = phi(param) - phi(-param);
        for (int i = 0; i < n; i++) {
            p[i] = (phi(-param + 2 * param * (i + 1) / n) - phi(-param + 2 * param * i / n)) / mass;
        }
        fits(counts(fn("gaussian(1, 20, 2.5)"), 1, n), p, "gaussian(1, 20, 2.5)");
    }

    @Test
    void aTinyExponentialParameterIsNearlyUniformAndAHugeGaussianOneIsTheCentre() {
        // 1 − e^(−p) rounds to 0 below p ≈ 1e-16: every draw was lo; the law tends to uniform
        for (String p : new String[] {"1e-16", "1e-17", "1e-300"}) {
            fits(counts(fn("exponential(1, 10, " + p + ")"), 1, 10), uniform(10), "exponential(1, 10, " + p + ")");
        }
        // (stdev + p) / 2p overflowed to a rand of 0 past p = 1e308 / 2: every draw was lo
        Fn huge = fn("gaussian(1, 10, 1e308)");
        for (long cycle = 0; cycle < 1000; cycle++) {
            assertEquals(6, huge.asLong(cycle), "the centre of [1, 10] at cycle " + cycle);
        }
    }

    @Test
    void exponentialAndGaussianStayInTheirRangeAtItsWidest() {
        long lo = -(1L << 62);
        long hi = lo + (Long.MAX_VALUE - 1); // hi − lo + 1 = 2^63 − 1 values, the most there can be
        long[][] ranges = {{lo, hi}, {lo, hi}, {0, Long.MAX_VALUE - 1}};
        String[] laws = {"exponential(" + lo + ", " + hi + ", 1)", "gaussian(" + lo + ", " + hi + ", 2)",
            "exponential(0, " + (Long.MAX_VALUE - 1) + ", 1e-20)"};
        for (int i = 0; i < laws.length; i++) {
            Fn f = fn(laws[i]);
            long atHi = 0;
            for (long cycle = 0; cycle < 20_000; cycle++) {
                long v = f.asLong(cycle);
                assertTrue(v >= ranges[i][0] && v <= ranges[i][1], laws[i] + ": " + v);
                atHi += v == ranges[i][1] ? 1 : 0;
            }
            assertTrue(atHi < 5, laws[i] + ": " + atHi + " of 20 000 draws were hi");
        }
    }

    @Test
    void aRangeOfMoreThanALongsValuesOrPickWeightsPastALongAreRefusedByName() {
        for (String law : new String[] {"exponential(0, 9223372036854775807, 1)",
                "gaussian(-4611686018427387904, 4611686018427387904, 2)",
                "exponential(-9223372036854775808, 9223372036854775807, 1)"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> fn(law));
            assertTrue(e.getMessage().contains("at most 2^63 − 1 values"), law + ": " + e.getMessage());
        }
        IllegalArgumentException sum = assertThrows(IllegalArgumentException.class,
                () -> fn("pick(a:9223372036854775807, b:1)"));
        assertTrue(sum.getMessage().contains("the weights add up past 9223372036854775807"), sum.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> fn("pick(a:1, b:2, a:2)"));
        assertTrue(twice.getMessage().contains("label 'a' is given twice"), twice.getMessage());
        Fn big = fn("pick(a:4611686018427387904, b:4611686018427387903)"); // just inside a long
        long b = 0;
        for (long cycle = 0; cycle < 2000; cycle++) {
            b += big.text(cycle).equals("b") ? 1 : 0;
        }
        assertTrue(b > 850 && b < 1150, "b about half the time: " + b);
    }

    private static double[] uniform(int n) {
        double[] p = new double[n];
        java.util.Arrays.fill(p, 1.0 / n);
        return p;
    }

    /** The standard normal CDF by Simpson's rule (ample for a test). */
    private static double phi(double x) {
        int steps = 20_000;
        double a = -10;
        double h = (x - a) / steps;
        double sum = 0;
        for (int i = 0; i <= steps; i++) {
            double t = a + i * h;
            double f = Math.exp(-t * t / 2);
            sum += (i == 0 || i == steps) ? f : (i % 2 == 1 ? 4 * f : 2 * f);
        }
        return sum * h / 3 / Math.sqrt(2 * Math.PI);
    }

    @Test
    void pickFitsItsWeights() {
        Fn f = fn("pick(a:70, b:25, c:5)");
        long[] c = new long[3];
        for (long cycle = 0; cycle < N; cycle++) {
            c[f.text(cycle).charAt(0) - 'a']++;
        }
        fits(c, new double[] {0.70, 0.25, 0.05}, "pick");
    }

    @Test
    void doubleIsUniformByKolmogorovSmirnov() {
        Fn f = fn("double(0, 1)");
        int n = 20_000;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = Double.parseDouble(f.text(i));
        }
        java.util.Arrays.sort(v);
        double d = 0;
        for (int i = 0; i < n; i++) {
            d = Math.max(d, Math.max((i + 1.0) / n - v[i], v[i] - (double) i / n));
        }
        assertTrue(d < 1.628 / Math.sqrt(n), "KS D " + d); // 1.628: the 0.99 quantile of Kolmogorov's law
    }

    /** Where the doubles near lo are coarse beside hi - lo, lo + (hi - lo) * u rounded to hi in 6-48 % of cycles. */
    @Test
    void doubleNeverReachesItsTopWhateverItsRange() {
        for (String range : new String[] {"1000000000000000, 1000000000000001", "0.5, 0.5000000000000001",
                "-1, 0"}) {
            Fn f = fn("double(" + range + ")");
            double lo = Double.parseDouble(range.split(", ")[0]);
            double hi = Double.parseDouble(range.split(", ")[1]);
            java.util.Set<Double> seen = new java.util.HashSet<>();
            for (long cycle = 0; cycle < 4_000; cycle++) {
                double d = Double.parseDouble(f.text(cycle));
                assertTrue(d >= lo && d < hi, "double(" + range + ") at cycle " + cycle + ": " + d);
                seen.add(d);
            }
            assertTrue(seen.size() > 1 || Math.nextUp(lo) == hi, "more than one value: " + seen.size());
        }
    }

    @Test
    void permuteIsABijectionOfItsRange() {
        Fn f = fn("permute(1000)");
        Set<Long> seen = new HashSet<>();
        for (long c = 0; c < 1000; c++) {
            long v = f.asLong(c);
            assertTrue(v >= 0 && v < 1000);
            seen.add(v);
        }
        assertEquals(1000, seen.size());
        assertNotEquals(LongStream.range(0, 1000).boxed().toList(),
                LongStream.range(0, 1000).map(f::asLong).boxed().toList(), "not the identity");
    }

    @Test
    void zipfThenPermuteStaysInItsRangeAndMovesTheHotValue() {
        Fn plain = fn("zipf(1000, 1.2)");
        Fn spread = fn("zipf(1000, 1.2) | permute");
        assertEquals(0, hottest(counts(plain, 1, 1000)), "zipf alone: 1 is the most popular value");
        long[] c = counts(spread, 1, 1000);
        int hottest = hottest(c);
        assertNotEquals(0, hottest, "the most popular value is no longer 1");
        assertTrue(c[hottest] > N / 20, "still skewed: " + c[hottest]);
    }

    /** The bin with the most values. */
    private static int hottest(long[] c) {
        int hottest = 0;
        for (int i = 1; i < c.length; i++) {
            hottest = c[i] > c[hottest] ? i : hottest;
        }
        return hottest;
    }

    @Test
    void arithmeticStagesComposeInOrder() {
        Fn f = fn("seq() | mul(10) | add(3) | mod(7) | div(2)");
        for (long c = 0; c < 100; c++) {
            assertEquals(Math.floorDiv(Math.floorMod(c * 10 + 3, 7), 2), f.asLong(c));
        }
    }

    @Test
    void uuidIsAVersionFourUuid() {
        Fn f = fn("uuid()");
        Set<String> seen = new HashSet<>();
        for (long c = 0; c < 1000; c++) {
            String u = f.text(c);
            assertTrue(u.matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), u);
            assertEquals(u, java.util.UUID.fromString(u).toString());
            seen.add(u);
        }
        assertEquals(1000, seen.size());
    }

    @Test
    void alnumLengthsReachBothEndsAndCharactersAreUniform() {
        Fn f = fn("alnum(2, 6)");
        Set<Integer> lengths = new HashSet<>();
        long[] chars = new long[62];
        String alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        for (long c = 0; c < 50_000; c++) {
            String s = f.text(c);
            lengths.add(s.length());
            for (char ch : s.toCharArray()) {
                chars[alphabet.indexOf(ch)]++;
            }
        }
        assertEquals(Set.of(2, 3, 4, 5, 6), lengths);
        double[] p = new double[62];
        java.util.Arrays.fill(p, 1.0 / 62);
        fits(chars, p, "alnum characters");
    }

    @Test
    void timestampStepsFromItsStart() {
        Fn f = fn("timestamp(2026-01-01T00:00:00Z, 250ms)");
        assertEquals(1767225600000L, f.asLong(0));
        assertEquals(1767225600000L + 250 * 41, f.asLong(41));
    }

    @Test
    void csvPicksRowsByHashSeqShuffleAndOnce() throws IOException {
        StringBuilder csv = new StringBuilder("id,name\n");
        for (int i = 0; i < 10; i++) {
            csv.append(i).append(",\"n, ").append(i).append("\"\n");
        }
        Files.writeString(dir.resolve("people.csv"), csv);
        Fn seq = fn("csv(people.csv, name, seq)");
        assertEquals("n, 3", seq.text(13));
        Fn shuffle = fn("csv(people.csv, id, shuffle)");
        for (int pass = 0; pass < 3; pass++) {
            Set<String> rows = new HashSet<>();
            for (long c = pass * 10L; c < pass * 10L + 10; c++) {
                rows.add(shuffle.text(c));
            }
            assertEquals(10, rows.size(), "each pass reads each row once");
        }
        Fn once = fn("csv(people.csv, id, once)");
        assertTrue(once.has(9));
        assertFalse(once.has(10));
        assertEquals("9", once.text(9));
        Fn hash = fn("csv(people.csv, id)");
        long[] c = new long[10];
        for (long cycle = 0; cycle < N; cycle++) {
            c[Integer.parseInt(hash.text(cycle))]++;
        }
        double[] p = new double[10];
        java.util.Arrays.fill(p, 0.1);
        fits(c, p, "csv hash");
    }

    @Test
    void aValueIsAPureFunctionOfSeedNameAndCycle() {
        Fn a = fn("uniform(1, 1000000)", "item", 7);
        Fn again = fn("uniform(1, 1000000)", "item", 7);
        Fn other = fn("uniform(1, 1000000)", "user", 7);
        Fn reseeded = fn("uniform(1, 1000000)", "item", 8);
        long[] serial = LongStream.range(0, 10_000).map(a::asLong).toArray();
        long[] parallel = LongStream.range(0, 10_000).parallel().map(again::asLong).toArray();
        assertEquals(java.util.Arrays.toString(serial), java.util.Arrays.toString(parallel));
        long same = LongStream.range(0, 10_000).filter(c -> a.asLong(c) == other.asLong(c)).count();
        long sameSeed = LongStream.range(0, 10_000).filter(c -> a.asLong(c) == reseeded.asLong(c)).count();
        assertTrue(same < 5 && sameSeed < 5, "names and seeds give independent values: " + same + ", " + sameSeed);
    }
}
