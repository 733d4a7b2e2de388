package couchbench.curve;

import java.util.List;
import java.util.OptionalDouble;

/**
 * Which target rate comes next: a fixed staircase (-Dtargets=1000,2000,4000) runs every step; a search
 * (-Dtargets=auto) doubles its rate while each step meets the goal, then bisects between the highest rate that met
 * it and the lowest that did not, until they are within {@link #RESOLUTION} of each other or the steps run out.
 */
public final class RateSearch {

  /** A search stops when the rate that met the goal is within this share of the one that did not. */
  static final double RESOLUTION = 0.1;

  private final List<Double> fixed;
  private final boolean searching;
  private final int maxSteps;
  private final double lowest;
  private int steps;
  private double highestMet = Double.NaN;
  private double lowestMissed = Double.NaN;

  private RateSearch(List<Double> fixed, boolean searching, int maxSteps, double lowest) {
    this.fixed = fixed;
    this.searching = searching;
    this.maxSteps = maxSteps;
    this.lowest = lowest;
  }

  /**
   * @param targets the rates, in the order they run
   * @return a staircase of those steps
   */
  public static RateSearch fixed(List<Double> targets) {
    return new RateSearch(List.copyOf(targets), false, targets.size(), 0);
  }

  /**
   * @param start the first step's rate
   * @param maxSteps the most steps it runs
   * @param lowest the lowest rate it tries: when a step at twice that misses, the search ends without a rate
   * @return a search from that rate
   */
  public static RateSearch auto(double start, int maxSteps, double lowest) {
    return new RateSearch(List.of(start), true, maxSteps, lowest);
  }

  /** @return the first step's rate */
  public double first() {
    return fixed.get(0);
  }

  /** @return whether it searches (-Dtargets=auto) rather than runs a fixed staircase */
  public boolean searches() {
    return searching;
  }

  /**
   * A step ended.
   *
   * @param target its rate
   * @param met whether it met the goal at (nearly) that rate
   * @return the next step's rate; empty when the staircase or the search is done
   */
  public OptionalDouble next(double target, boolean met) {
    steps++;
    if (met && (Double.isNaN(highestMet) || target > highestMet)) {
      highestMet = target;
    }
    if (!met && (Double.isNaN(lowestMissed) || target < lowestMissed)) {
      lowestMissed = target;
    }
    if (steps >= maxSteps) {
      return OptionalDouble.empty();
    }
    if (!searches()) {
      return OptionalDouble.of(fixed.get(steps));
    }
    if (Double.isNaN(lowestMissed)) {
      return OptionalDouble.of(target * 2);
    }
    if (Double.isNaN(highestMet)) {
      return target / 2 >= lowest ? OptionalDouble.of(target / 2) : OptionalDouble.empty();
    }
    if ((lowestMissed - highestMet) / lowestMissed <= RESOLUTION) {
      return OptionalDouble.empty();
    }
    double middle = Math.rint((highestMet + lowestMissed) / 2);
    // Rounded to a whole rate, the middle of two close rates may be one of them, tried already: that is as near as
    // the search gets.
    return middle == highestMet || middle == lowestMissed ? OptionalDouble.empty() : OptionalDouble.of(middle);
  }

  /** @return the highest rate that met the goal; empty when none did */
  public OptionalDouble highestMet() {
    return Double.isNaN(highestMet) ? OptionalDouble.empty() : OptionalDouble.of(highestMet);
  }
}
