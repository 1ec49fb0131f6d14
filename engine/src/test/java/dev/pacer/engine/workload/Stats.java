package dev.pacer.engine.workload;

/** Chi-square goodness of fit for the distribution tests. */
final class Stats {

    private Stats() {
    }

    /** Pearson's statistic of observed counts against expected probabilities (summing to 1). */
    static double chiSquare(long[] observed, double[] p) {
        long n = 0;
        for (long o : observed) {
            n += o;
        }
        double x = 0;
        for (int i = 0; i < observed.length; i++) {
            double e = n * p[i];
            x += (observed[i] - e) * (observed[i] - e) / e;
        }
        return x;
    }

    /** The chi-square quantile at 0.99 for k degrees of freedom (Wilson–Hilferty; close for k ≥ 5). */
    static double critical99(int k) {
        double z = 2.3263478740408408;
        double a = 2.0 / (9.0 * k);
        return k * Math.pow(1 - a + z * Math.sqrt(a), 3);
    }
}
