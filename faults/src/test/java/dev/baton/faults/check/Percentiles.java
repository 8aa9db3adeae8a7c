package dev.baton.faults.check;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

/** p50 / p99 / max of a sample, nearest-rank. */
final class Percentiles {

    private Percentiles() {}

    static double of(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** @return e.g. {@code n=120 p50=35 ms p99=1830 ms max=2410 ms} */
    static String summary(Collection<Double> millis) {
        double[] sorted = millis.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        if (sorted.length == 0) {
            return "n=0";
        }
        return String.format(
                Locale.ROOT,
                "n=%d p50=%.0f ms p99=%.0f ms max=%.0f ms",
                sorted.length,
                of(sorted, 50),
                of(sorted, 99),
                sorted[sorted.length - 1]);
    }
}
