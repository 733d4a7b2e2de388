package couchbench.distributions;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * Pearson's chi-square tests of the distributions' draws, at a significance level of 1e-4: a test of draws that do
 * follow the distribution fails once in 10,000 runs. The critical value is Wilson and Hilferty's approximation of the
 * chi-square quantile (within 1 % of it from 10 degrees of freedom up), as the JDK has no chi-square distribution.
 */
final class ChiSquare {

  /** The standard normal's upper 1e-4 quantile. */
  private static final double Z = 3.719016485455681;
  /** The least expected count of a bin for the chi-square approximation to hold well. */
  private static final double MIN_EXPECTED = 5;

  private ChiSquare() {
  }

  /**
   * Asserts that counts drawn fit the probabilities (bins that together hold all of the probability); a bin of
   * probability 0 must have no draw, and is no degree of freedom.
   */
  static void assertFits(String what, long[] counts, double[] probabilities) {
    double statistic = statistic(counts, probabilities);
    int degrees = (int) Arrays.stream(probabilities).filter(probability -> probability > 0).count() - 1;
    double critical = critical(degrees);
    assertTrue(statistic < critical, what + ": chi-square " + statistic + " >= " + critical + " (" + degrees
        + " degrees of freedom, significance 1e-4)");
  }

  /** Asserts that two samples of the same size may come from one distribution (bins where both have draws). */
  static void assertSameDistribution(String what, long[] ours, long[] reference) {
    double statistic = twoSampleStatistic(ours, reference);
    double critical = critical(binsWithDraws(ours, reference) - 1);
    assertTrue(statistic < critical, what + ": two-sample chi-square " + statistic + " >= " + critical
        + " (significance 1e-4)");
  }

  static double statistic(long[] counts, double[] probabilities) {
    long draws = Arrays.stream(counts).sum();
    double statistic = 0;
    for (int i = 0; i < counts.length; i++) {
      if (probabilities[i] == 0) {
        assertTrue(counts[i] == 0, "bin " + i + " of probability 0 has " + counts[i] + " draws");
        continue;
      }
      double expected = draws * probabilities[i];
      assertTrue(expected >= MIN_EXPECTED, "bin " + i + " expects " + expected + " draws: draw more or bin wider");
      statistic += (counts[i] - expected) * (counts[i] - expected) / expected;
    }
    return statistic;
  }

  static double twoSampleStatistic(long[] ours, long[] reference) {
    assertTrue(Arrays.stream(ours).sum() == Arrays.stream(reference).sum(), "samples of different sizes");
    double statistic = 0;
    for (int i = 0; i < ours.length; i++) {
      long both = ours[i] + reference[i];
      if (both > 0) {
        statistic += (double) (ours[i] - reference[i]) * (ours[i] - reference[i]) / both;
      }
    }
    return statistic;
  }

  /** @return the value a chi-square statistic of these degrees of freedom exceeds with probability 1e-4 */
  static double critical(int degreesOfFreedom) {
    double k = degreesOfFreedom;
    double root = 1 - 2 / (9 * k) + Z * Math.sqrt(2 / (9 * k));
    return k * root * root * root;
  }

  private static int binsWithDraws(long[] ours, long[] reference) {
    int bins = 0;
    for (int i = 0; i < ours.length; i++) {
      bins += ours[i] + reference[i] > 0 ? 1 : 0;
    }
    return bins;
  }

  /** @return counts of draws in [0, bins): a draw outside fails */
  static long[] counts(int bins, int draws, LongSupplier draw) {
    long[] counts = new long[bins];
    for (int i = 0; i < draws; i++) {
      long value = draw.getAsLong();
      assertTrue(value >= 0 && value < bins, "draw " + value + " outside 0.." + (bins - 1));
      counts[(int) value]++;
    }
    return counts;
  }
}
