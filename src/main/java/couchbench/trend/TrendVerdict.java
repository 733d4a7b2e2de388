package couchbench.trend;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One column of the run's seconds judged against its series' threshold: the line fitted to it, its slope in % of its
 * mean an hour with the slope's 95% interval, and whether it rises beyond the threshold.
 *
 * @param rule the series and its threshold
 * @param column the column of seconds.csv
 * @param xs the seconds that have a value
 * @param ys their values
 * @param fit the line; null when the column was too short to judge, or 0 in every second
 * @param notJudged why it was not judged; null when it was (a column at 0 throughout holds, without a line)
 */
record TrendVerdict(TrendPlan.Rule rule, String column, List<Double> xs, List<Double> ys, LineFit fit,
    String notJudged) {

  private static final double SECONDS_AN_HOUR = 3600;

  /** How a column fared. */
  enum Outcome {
    /** Rises beyond the threshold, the whole 95% interval above it: the run's exit code says so. */
    RISES("rises"),
    /** Rises beyond the threshold, but the interval reaches below it: not certain, a warning only. */
    MAY_RISE("may rise"),
    /** Within the threshold. */
    HOLDS("holds"),
    /** Too few seconds, or nothing to relate a slope to. */
    NOT_JUDGED("not judged");

    private final String words;

    Outcome(String words) {
      this.words = words;
    }

    @Override
    public String toString() {
      return words;
    }
  }

  /**
   * @param rule the series and its threshold
   * @param column the column's name
   * @param seconds the column's seconds
   * @param values its values, NaN where a second has none
   * @return the verdict
   */
  static TrendVerdict of(TrendPlan.Rule rule, String column, double[] seconds, double[] values) {
    List<Double> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      if (!Double.isNaN(values[i])) {
        xs.add(seconds[i]);
        ys.add(values[i]);
      }
    }
    if (xs.size() < LineFit.MIN_POINTS) {
      return new TrendVerdict(rule, column, xs, ys, null, xs.size() + " " + rule.each() + (xs.size() == 1 ? "" : "s")
          + " with a value: a trend needs at least " + LineFit.MIN_POINTS + " (a run of " + LineFit.MIN_POINTS + " "
          + rule.each() + "s or more)");
    }
    LineFit fit = LineFit.of(xs.stream().mapToDouble(Double::doubleValue).toArray(),
        ys.stream().mapToDouble(Double::doubleValue).toArray());
    if (fit.mean() <= 0) {
      // A series at 0 throughout (no message ever queued) holds; one that is not has no mean to relate a rise to.
      return ys.stream().allMatch(value -> value == 0) ? new TrendVerdict(rule, column, xs, ys, null, null)
          : new TrendVerdict(rule, column, xs, ys, null, "its mean is " + fit.mean() + ": no rise in % of it");
    }
    return new TrendVerdict(rule, column, xs, ys, fit, null);
  }

  /** @return the slope, in % of the column's mean an hour */
  double percentAnHour() {
    return percent(fit.slope());
  }

  Outcome outcome() {
    if (notJudged != null) {
      return Outcome.NOT_JUDGED;
    }
    if (fit == null) {
      return Outcome.HOLDS;
    }
    if (percent(fit.slopeLow()) > rule.percentAnHour()) {
      return Outcome.RISES;
    }
    return percentAnHour() > rule.percentAnHour() ? Outcome.MAY_RISE : Outcome.HOLDS;
  }

  /** @return e.g. "+12.5%/h (95%: +9.1 to +15.9)", or why it was not judged */
  String slope() {
    if (fit == null) {
      return notJudged != null ? notJudged : "0 in every " + rule.each();
    }
    return String.format(Locale.ROOT, "%+.1f%%/h (95%%: %+.1f to %+.1f)", percentAnHour(),
        percent(fit.slopeLow()), percent(fit.slopeHigh()));
  }

  private double percent(double slopeASecond) {
    return slopeASecond * SECONDS_AN_HOUR / fit.mean() * 100;
  }
}
