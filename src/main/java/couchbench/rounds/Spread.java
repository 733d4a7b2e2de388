package couchbench.rounds;

import java.util.List;

/**
 * One figure over the rounds that measured it: their median, and the range from the smallest to the largest.
 *
 * @param median the middle value; with an even number of rounds, the mean of the two middle ones
 * @param min the smallest value
 * @param max the largest value
 * @param rounds how many values there were
 */
public record Spread(double median, double min, double max, int rounds) {

  public Spread {
    if (rounds < 1 || !(min <= median && median <= max)) {
      throw new IllegalArgumentException("not a spread: median " + median + ", range " + min + "-" + max
          + ", " + rounds + " rounds");
    }
  }

  /**
   * @param values one value per round, in any order, at least one, none NaN
   * @return their median and range
   * @throws IllegalArgumentException when there is no value, or one is null or NaN
   */
  public static Spread of(List<? extends Number> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("a spread needs at least one value");
    }
    double[] sorted = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
    if (Double.isNaN(sorted[sorted.length - 1])) { // NaN sorts last
      throw new IllegalArgumentException("a spread of values that are not numbers: " + values);
    }
    int middle = sorted.length / 2;
    double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    return new Spread(median, sorted[0], sorted[sorted.length - 1], sorted.length);
  }

  /**
   * The rounds of two spreads apart, the gate's rule of a difference (the Mann-Whitney U test at U = 0).
   *
   * @param other another figure's spread
   * @return whether every round of this one is above every round of the other
   */
  public boolean above(Spread other) {
    return min > other.max;
  }

  /**
   * @param other another figure's spread
   * @return whether every round of this one is below every round of the other
   */
  public boolean below(Spread other) {
    return max < other.min;
  }

  /**
   * @param value a figure measured once
   * @return that figure as a spread of one round, no range
   */
  public static Spread once(double value) {
    return of(List.of(value));
  }
}
