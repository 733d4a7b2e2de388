package couchbench.rounds;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * How many times a simulation repeats its measured part ({@code -Drounds=R}), so that each figure is the median of R
 * runs with their range beside it. The rounds run one after the other, each whole (a sweep's every step, then the
 * next round's), so that a slow minute of a shared machine spreads over the steps instead of landing on one.
 *
 * @param count the rounds, at least 1; 1 runs the measured part once, as without the parameter
 */
public record Rounds(int count) {

  /** The run parameter. */
  public static final String PARAMETER = "rounds";

  /** Enough for a median and a range; more only lengthens the run by a multiple nobody expects. */
  public static final int MAX = 100;

  /** Once, as a run without the parameter. */
  public static final Rounds ONCE = new Rounds(1);

  /** How {@link #name} ends a round's name. */
  private static final Pattern ROUND = Pattern.compile(" round \\d+$");

  public Rounds {
    if (count < 1 || count > MAX) {
      throw new IllegalArgumentException("rounds must be 1 to " + MAX + ", got " + count);
    }
  }

  /**
   * @param settings the run's settings
   * @return the rounds -Drounds asks for, 1 by default
   * @throws SettingsException when it is not a whole number from 1 to {@link #MAX}
   */
  public static Rounds from(Settings settings) {
    int count = settings.intValue(PARAMETER, 1, 1);
    if (count > MAX) {
      throw new SettingsException(
          "-D" + PARAMETER + "=" + count + " is too large (expected 1 to " + MAX + ")");
    }
    return new Rounds(count);
  }

  /** @return true when there is more than one round, so that figures have a spread */
  public boolean repeated() {
    return count > 1;
  }

  /** @return the round numbers, 1 to count */
  public List<Integer> numbers() {
    return IntStream.rangeClosed(1, count).boxed().toList();
  }

  /**
   * The name of something measured in one round: Gatling's request and scenario names must differ between rounds for
   * each round's figures to be read apart.
   *
   * @param name the name with one round, e.g. {@code bulk B=64 T=2}
   * @param round the round, 1 to count
   * @return the name itself with one round, else e.g. {@code bulk B=64 T=2 round 3}
   */
  public String name(String name, int round) {
    if (round < 1 || round > count) {
      throw new IllegalArgumentException("round " + round + " of " + count);
    }
    return repeated() ? name + " round " + round : name;
  }

  /**
   * The inverse of {@link #name}, for a run read back from its results.
   *
   * @param name a name as {@link #name} made it, e.g. {@code bulk B=64 T=2 round 3}
   * @return the name with one round, e.g. {@code bulk B=64 T=2}; the name itself without rounds
   */
  public String withoutRound(String name) {
    return repeated() ? ROUND.matcher(name).replaceFirst("") : name;
  }

  /**
   * @param round the round, 1 to count
   * @return how the round names what it measures: {@link #name} with that round, for chains that name several
   *     requests and groups
   */
  public UnaryOperator<String> names(int round) {
    name("", round); // refuses a round out of range when the chain is built, not at its first request
    return name -> name(name, round);
  }

  /** @return how a page says where its figures come from, e.g. "median of 3 rounds (range: min-max)" */
  public String describe() {
    return repeated() ? "median of " + count + " rounds, with the range from the smallest to the largest round"
        : "one round (-Drounds=R repeats the measured part and gives the median and range)";
  }
}
