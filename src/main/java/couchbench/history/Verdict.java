package couchbench.history;

import couchbench.rounds.Spread;
import java.util.Locale;

/**
 * The gate's verdict on one figure of one request: the run against the baseline. A figure regressed when it is worse
 * by more than its threshold and, where both runs had rounds, by more than the noise: every round of the run worse
 * than every round of the baseline (their ranges apart). That is the Mann-Whitney U test at its extreme, U = 0: it
 * assumes no distribution, which a handful of rounds cannot show, and its one-sided chance of failing a figure by
 * noise alone is 1 / C(n + m, n): 1 in 6 for 2 rounds against 2, 1 in 20 for 3 against 3, 1 in 252 for 5 against 5.
 * Without rounds on both sides the verdict rests on one measurement each, and says so. A baseline figure of 0 (a
 * latency under Gatling's millisecond) is not judged: no share of it is a threshold.
 *
 * @param request the request's name
 * @param figure the figure
 * @param baseline its spread in the baseline
 * @param run its spread in the run judged
 * @param worse how much worse the run's median is, as a fraction of the baseline's (negative: better)
 * @param threshold how much worse it may be
 * @param roundsApart whether both had rounds and every run round was worse than every baseline round; false when
 *     either had one round
 * @param regressed the verdict
 */
public record Verdict(String request, Figure figure, Spread baseline, Spread run, double worse, double threshold,
    boolean roundsApart, boolean regressed) {

  /**
   * @param request the request's name
   * @param rule the figure and its threshold
   * @param baseline the figure in the baseline
   * @param run the figure in the run judged
   * @return the verdict
   */
  public static Verdict of(String request, Regression rule, Spread baseline, Spread run) {
    boolean higherIsWorse = rule.figure().higherIsWorse();
    double worse = baseline.median() == 0 ? 0
        : (higherIsWorse ? run.median() - baseline.median() : baseline.median() - run.median()) / baseline.median();
    boolean rounds = baseline.rounds() > 1 && run.rounds() > 1;
    boolean apart = rounds && (higherIsWorse ? run.above(baseline) : run.below(baseline));
    return new Verdict(request, rule.figure(), baseline, run, worse, rule.fraction(), apart,
        worse > rule.fraction() && (apart || !rounds));
  }

  /** @return whether both runs had rounds, so that the noise was tested */
  public boolean noiseTested() {
    return baseline.rounds() > 1 && run.rounds() > 1;
  }

  /** @return whether the baseline's figure is 0, so that no share of it can be a threshold: not judged */
  public boolean notJudged() {
    return baseline.median() == 0;
  }

  /** @return the verdict in a line, e.g. "p99 of memcache get regressed: 2,310 us against 180 us (+1183%, ...)" */
  public String describe() {
    String change = String.format(Locale.ROOT, "%s %s of %s: %,.1f %s against %,.1f %s in the baseline (%s%.1f%%"
            + " worse, threshold %.1f%%)", regressed ? "REGRESSED" : "passed", figure.label(), request, run.median(),
        figure.unit(), baseline.median(), figure.unit(), worse >= 0 ? "+" : "", worse * 100, threshold * 100);
    if (notJudged()) {
      return change + "; not judged: the baseline's figure is 0 (a latency under the clock's millisecond)";
    }
    if (!noiseTested()) {
      return change + "; the verdict rests on one measurement of each run (give both -Drounds=3 or more for a"
          + " noise test)";
    }
    return change + String.format(Locale.ROOT, "; over %d and %d rounds, %s", run.rounds(), baseline.rounds(),
        roundsApart ? "every round worse than every baseline round" : "the rounds' ranges overlap: within the noise");
  }
}
