package couchbench.curve;

import couchbench.results.Histograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * One step of a staircase, for results.json and the page: the rate asked, the rate achieved, and the latencies of
 * the operations that ended in its measured part, on both clocks.
 *
 * @param target operations per second asked
 * @param achieved operations per second that ended in its measured part, OK or not
 * @param ok operations that ended OK in it (a write refused for a conflict ends neither OK nor failed)
 * @param failed operations that failed in it
 * @param late operations that ended in it and started more than 2 ms after their intended start: where the server
 *     kept up, the load generator's own lag, which the intended latencies include
 * @param intendedMicros the OK operations' latency from their intended start, microseconds (HdrHistogram, base64)
 * @param actualMicros the same from their actual start
 * @param atGoalMicros the intended latency at the goal's percentile; null without a goal, or when no operation ended
 *     OK in the step
 * @param met whether the step met the goal (when there is one) at 90% of its target rate or more
 */
public record StepFigures(double target, double achieved, long ok, long failed, long late, String intendedMicros,
    String actualMicros, Double atGoalMicros, boolean met) {

  /**
   * A step judged: met when it achieved {@link CurvePlan#ACHIEVED_SHARE} of its rate or more, nothing failed, and
   * (given a goal) its intended latency at the goal's percentile is within the limit.
   *
   * @param intended the OK operations' latency from their intended start, microseconds
   * @param actual the same from their actual start
   * @param goal the latency goal, when there is one
   * @return the step's figures
   */
  static StepFigures judged(double target, double achieved, long ok, long failed, long late, Histogram intended,
      Histogram actual, Optional<LatencyGoal> goal) {
    Double atGoal = goal.filter(any -> intended.getTotalCount() > 0)
        .map(limit -> (double) intended.getValueAtPercentile(limit.percentile())).orElse(null);
    boolean met = achieved >= CurvePlan.ACHIEVED_SHARE * target && failed == 0
        && goal.map(limit -> atGoal != null && atGoal <= limit.limitMicros()).orElse(true);
    return new StepFigures(target, achieved, ok, failed, late, Histograms.encode(intended), Histograms.encode(actual),
        atGoal, met);
  }

  /**
   * Several injectors' staircases as one, step by step: the rates and counts added, the histograms merged, each step
   * judged again on the whole. Each injector ran its share of every rate, over the same steps.
   *
   * @param injectors each injector's steps, in the order they ran
   * @param goal the latency goal, when there is one
   * @return the merged steps, as many as every injector ran
   */
  public static List<StepFigures> merged(List<List<StepFigures>> injectors, Optional<LatencyGoal> goal) {
    int steps = injectors.stream().mapToInt(List::size).min().orElse(0);
    List<StepFigures> merged = new ArrayList<>();
    for (int step = 0; step < steps; step++) {
      double target = 0;
      double achieved = 0;
      long ok = 0;
      long failed = 0;
      long late = 0;
      Histogram intended = new Histogram(3);
      Histogram actual = new Histogram(3);
      for (List<StepFigures> injector : injectors) {
        StepFigures figures = injector.get(step);
        target += figures.target;
        achieved += figures.achieved;
        ok += figures.ok;
        failed += figures.failed;
        late += figures.late;
        intended.add(Histograms.decode(figures.intendedMicros));
        actual.add(Histograms.decode(figures.actualMicros));
      }
      merged.add(judged(target, achieved, ok, failed, late, intended, actual, goal));
    }
    return merged;
  }

  /**
   * @param steps a staircase's steps
   * @return the highest rate asked of a step that met the goal; null when none did
   */
  public static Double highestMet(List<StepFigures> steps) {
    return steps.stream().filter(StepFigures::met).map(StepFigures::target).max(Double::compare).orElse(null);
  }
}
