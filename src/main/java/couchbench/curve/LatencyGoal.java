package couchbench.curve;

import couchbench.startup.SettingsException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A latency goal, -Dsla=p99<10ms: a percentile of the operations' latency on the intended clock (from each one's
 * scheduled start, so that queueing counts) that must stay below a limit.
 *
 * @param percentile e.g. 99, or 99.9
 * @param limitMicros the limit, in microseconds
 */
public record LatencyGoal(double percentile, double limitMicros) {

  private static final Pattern GOAL = Pattern.compile("p(\\d+(?:\\.\\d+)?)\\s*<\\s*(\\d+(?:\\.\\d+)?)\\s*(us|ms|s)");

  /**
   * @param text e.g. "p99<10ms", "p99.9<500us", "p50<1s"
   * @return the goal
   * @throws SettingsException naming -Dsla and the form it takes
   */
  public static LatencyGoal parse(String text) {
    Matcher goal = GOAL.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!goal.matches()) {
      throw new SettingsException("-Dsla=" + text + " is not a latency goal: give a percentile and a limit, e.g."
          + " -Dsla=p99<10ms, -Dsla=p99.9<500us or -Dsla=p50<1s");
    }
    double percentile = Double.parseDouble(goal.group(1));
    if (percentile <= 0 || percentile >= 100) {
      throw new SettingsException("-Dsla=" + text + ": the percentile must be above 0 and below 100, e.g. p99");
    }
    double limit = Double.parseDouble(goal.group(2));
    double micros = switch (goal.group(3)) {
      case "us" -> limit;
      case "ms" -> limit * 1_000;
      default -> limit * 1_000_000;
    };
    if (micros <= 0) {
      throw new SettingsException("-Dsla=" + text + ": the limit must be above 0");
    }
    return new LatencyGoal(percentile, micros);
  }

  /** @return e.g. "p99 < 10 ms" */
  public String describe() {
    String percentileText = percentile == Math.rint(percentile) ? String.valueOf((long) percentile)
        : String.valueOf(percentile);
    return "p" + percentileText + " < " + (limitMicros >= 1000 ? trim(limitMicros / 1000) + " ms"
        : trim(limitMicros) + " us");
  }

  private static String trim(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }
}
