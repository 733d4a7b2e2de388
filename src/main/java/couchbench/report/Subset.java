package couchbench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The few of many series a chart draws: the fastest, the median and the slowest by a figure, so that a chart of 60
 * requests shows their spread in lines a reader can tell apart, the CSV beside it holding them all.
 *
 * @param drawn the chosen items, from the lowest figure to the highest
 * @param of how many there were
 * @param <T> what is drawn
 */
public record Subset<T>(List<T> drawn, int of) {

  /**
   * @param items every item
   * @param figure the figure they are ranked by, lowest first (e.g. p99 latency: the fastest first)
   * @param most how many to draw at most, 3 or more
   * @param <T> what is drawn
   * @return all the items when there are no more than most, ranked; else the (most - 1) / 2 lowest, the median and
   *     the rest of most highest
   */
  public static <T> Subset<T> lowestMedianHighest(List<T> items, ToDoubleFunction<T> figure, int most) {
    if (most < 3) {
      throw new IllegalArgumentException("most: " + most + " (expected: >= 3)");
    }
    List<T> ranked = new ArrayList<>(items);
    ranked.sort(Comparator.comparingDouble(figure));
    if (ranked.size() <= most) {
      return new Subset<>(List.copyOf(ranked), items.size());
    }
    int low = (most - 1) / 2;
    int high = most - 1 - low;
    List<T> drawn = new ArrayList<>(ranked.subList(0, low));
    drawn.add(ranked.get(ranked.size() / 2));
    drawn.addAll(ranked.subList(ranked.size() - high, ranked.size()));
    return new Subset<>(List.copyOf(drawn), items.size());
  }

  /** @return whether some items are left out */
  public boolean partial() {
    return drawn.size() < of;
  }

  /**
   * @param things what the items are, plural (e.g. "requests")
   * @param figure the figure they were ranked by (e.g. "p99")
   * @param lowest what the lowest are (e.g. "fastest")
   * @param highest what the highest are (e.g. "slowest")
   * @return e.g. "The chart draws 7 of the 63 requests: the 3 fastest, the median and the 3 slowest by p99.", or
   *     empty when it draws them all
   */
  public String describe(String things, String figure, String lowest, String highest) {
    if (!partial()) {
      return "";
    }
    int low = (drawn.size() - 1) / 2;
    int high = drawn.size() - 1 - low;
    return "The chart draws " + drawn.size() + " of the " + of + " " + things + ": the " + low + " " + lowest
        + ", the median and the " + high + " " + highest + " by " + figure + "; the CSV has them all.";
  }
}
