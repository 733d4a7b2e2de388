package couchbench.variants;

import couchbench.history.JudgedFigures;
import couchbench.rounds.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each figure's rounds, variant by variant, and every variant's verdict against the first: better, worse, or no
 * difference within the noise, by the gate's rule (issue 48): a variant differs when every one of its rounds is on one
 * side of every round of the first, their ranges apart. That is the Mann-Whitney U test at its extreme (U = 0), which
 * assumes no distribution; the chance that noise alone puts n rounds and m rounds apart, one way or the other, is
 * 2 / C(n + m, n): 1 in 3 for 2 rounds each, 1 in 10 for 3, 1 in 35 for 4, 1 in 126 for 5, 1 in 462 for 6, 1 in 1,716
 * for 7, 1 in 6,435 for 8.
 *
 * @param variants the variants' names, the first the one the others are compared with
 * @param figures each figure, in the order the rounds' runs first give them
 */
record Comparison(List<String> variants, List<Judged> figures) {

  /** A variant's verdict on a figure against the first variant. */
  enum Verdict {
    BETTER("better"), WORSE("worse"), SAME("no difference within the noise"),
    NOT_JUDGED("not judged: fewer than 2 rounds of each");

    private final String words;

    Verdict(String words) {
      this.words = words;
    }

    /** @return how the page says it */
    String words() {
      return words;
    }
  }

  /**
   * One figure across the variants.
   *
   * @param figure what it is, as the first round that has it gives it (its value is that round's)
   * @param rounds its value in each round, variant by variant in {@link #variants}' order; a variant whose runs lack
   *     it has none
   */
  record Judged(JudgedFigures.Value figure, List<List<Double>> rounds) {

    /** @return each variant's median and range; null for a variant whose runs lack it */
    List<Spread> spreads() {
      return rounds.stream().map(values -> values.isEmpty() ? null : Spread.of(values)).toList();
    }

    /**
     * @param variant a variant's index, 1 or more
     * @return its median over the first variant's; NaN where either lacks the figure or the first's is 0
     */
    double ratio(int variant) {
      List<Spread> spreads = spreads();
      return spreads.get(0) == null || spreads.get(variant) == null || spreads.get(0).median() == 0 ? Double.NaN
          : spreads.get(variant).median() / spreads.get(0).median();
    }

    /**
     * @param variant a variant's index, 1 or more
     * @return its verdict against the first variant
     */
    Verdict verdict(int variant) {
      if (rounds.get(0).size() < 2 || rounds.get(variant).size() < 2) {
        return Verdict.NOT_JUDGED;
      }
      Spread first = Spread.of(rounds.get(0));
      Spread other = Spread.of(rounds.get(variant));
      if (!other.above(first) && !other.below(first)) {
        return Verdict.SAME;
      }
      return other.above(first) == figure.higherIsWorse() ? Verdict.WORSE : Verdict.BETTER;
    }

    /**
     * @param variant a variant's index, 1 or more
     * @return the chance that noise alone gives this figure a verdict of better or worse, for the rounds each had
     */
    double chanceByNoise(int variant) {
      return Comparison.chanceByNoise(rounds.get(0).size(), rounds.get(variant).size());
    }
  }

  /**
   * @param variants the variants' names, in order
   * @param runs each variant's rounds' figures, in the same order
   * @return every figure any round has, with its values
   */
  static Comparison of(List<String> variants, List<List<List<JudgedFigures.Value>>> runs) {
    Map<String, JudgedFigures.Value> firstSeen = new LinkedHashMap<>();
    Map<String, List<List<Double>>> values = new LinkedHashMap<>();
    for (int v = 0; v < variants.size(); v++) {
      for (List<JudgedFigures.Value> round : runs.get(v)) {
        for (JudgedFigures.Value value : round) {
          firstSeen.putIfAbsent(value.key(), value);
          int variant = v;
          values.computeIfAbsent(value.key(), key -> emptyLists(variants.size())).get(variant).add(value.value());
        }
      }
    }
    List<Judged> figures = new ArrayList<>();
    firstSeen.forEach((key, figure) -> figures.add(new Judged(figure, values.get(key).stream()
        .map(List::copyOf).toList())));
    return new Comparison(List.copyOf(variants), List.copyOf(figures));
  }

  /**
   * @param n the rounds of one variant
   * @param m the rounds of the other
   * @return 2 / C(n + m, n): the chance that every round of one falls on one side of every round of the other, either
   *     way, when both are the same thing measured (their rounds exchangeable); 1 when either had fewer than 2
   */
  static double chanceByNoise(int n, int m) {
    if (n < 2 || m < 2) {
      return 1;
    }
    double ways = 1;
    for (int i = 1; i <= n; i++) {
      ways = ways * (m + i) / i;
    }
    return Math.min(1, 2 / ways);
  }

  /**
   * @param chance a chance, e.g. 0.0079
   * @return e.g. "1 in 126"
   */
  static String oneIn(double chance) {
    return chance >= 1 ? "certain" : String.format(Locale.ROOT, "1 in %,d", Math.round(1 / chance));
  }

  private static List<List<Double>> emptyLists(int count) {
    List<List<Double>> lists = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      lists.add(new ArrayList<>());
    }
    return lists;
  }
}
