package couchbench.curve;

import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A run's staircase of target rates, -Dtargets: the same load at each rate in turn, each step an unmeasured settle
 * period (-DsettleSeconds) then a measured one (-DstepSeconds); or, with -Dtargets=auto and a goal (-Dsla), a search
 * for the highest rate that meets it, from -DstartRate.
 *
 * @param targets the fixed rates, in order; empty when it searches
 * @param startRate the search's first rate
 * @param maxSteps the most steps a search runs
 * @param goal the latency goal, when one is given
 * @param settle each step's unmeasured start
 * @param measure each step's measured part
 */
public record CurvePlan(List<Double> targets, double startRate, int maxSteps, Optional<LatencyGoal> goal,
    Duration settle, Duration measure) {

  /** Below this share of its target, a step's achieved rate misses it: the load could not be offered. */
  public static final double ACHIEVED_SHARE = 0.9;

  /**
   * @param settings targets, sla, startRate, maxSteps, settleSeconds, stepSeconds
   * @return the staircase; empty without -Dtargets
   * @throws SettingsException naming the setting and what to give
   */
  public static Optional<CurvePlan> from(Settings settings) {
    Optional<String> given = settings.value("targets");
    if (given.isEmpty()) {
      if (settings.value("sla").isPresent()) {
        throw new SettingsException("-Dsla needs -Dtargets: give -Dtargets=auto to search for the highest rate that"
            + " meets it, or -Dtargets=1000,2000,4000 to run those rates and mark which meet it");
      }
      return Optional.empty();
    }
    // Read through get, so that results.json records it: a merge judges the injectors' steps again against it.
    Optional<LatencyGoal> goal = settings.value("sla").map(sla -> LatencyGoal.parse(settings.get("sla", sla)));
    Duration settle = Duration.ofSeconds(settings.intValue("settleSeconds", 3, 0));
    Duration measure = Duration.ofSeconds(settings.intValue("stepSeconds", 10, 1));
    String targets = settings.get("targets", "");
    if (targets.trim().equalsIgnoreCase("auto")) {
      if (goal.isEmpty()) {
        throw new SettingsException("-Dtargets=auto searches for the highest rate that meets a latency goal: give"
            + " one, e.g. -Dsla=p99<10ms");
      }
      double startRate = settings.doubleValue("startRate", 100);
      if (!(startRate > 0)) {
        throw new SettingsException("-DstartRate=" + startRate + " is not a rate above 0: give the search's first"
            + " rate in operations per second, e.g. -DstartRate=100");
      }
      return Optional.of(new CurvePlan(List.of(), startRate, settings.intValue("maxSteps", 12, 2), goal, settle,
          measure));
    }
    return Optional.of(new CurvePlan(rates(targets), 0, 0, goal, settle, measure));
  }

  /**
   * One step at one rate, measured from its start: a load paced at a fixed rate (-DratePerConnection) rather than a
   * staircase.
   *
   * @param rate operations a second, all users together
   * @param length how long it runs
   * @return the one-step plan
   */
  public static CurvePlan steady(double rate, Duration length) {
    return new CurvePlan(List.of(rate), 0, 0, Optional.empty(), Duration.ZERO, length);
  }

  private static List<Double> rates(String text) {
    List<Double> rates = new ArrayList<>();
    for (String rate : text.split(",")) {
      try {
        double value = Double.parseDouble(rate.trim());
        if (value > 0) {
          rates.add(value);
          continue;
        }
      } catch (NumberFormatException notANumber) {
        // said below, with the whole setting
      }
      throw new SettingsException("-Dtargets=" + text + ": '" + rate.trim() + "' is not a rate above 0; give"
          + " operations per second, e.g. -Dtargets=1000,2000,4000, or -Dtargets=auto with -Dsla");
    }
    return rates;
  }

  /**
   * @param injector this injector's share of the load, one of -Dinjector=I/N
   * @return the staircase of its share: each rate divided among the injectors, whose merged run adds them up again
   * @throws SettingsException for a search over several injectors, which would each judge their own share
   */
  public CurvePlan shareOf(InjectorShare injector) {
    if (injector.alone()) {
      return this;
    }
    if (targets.isEmpty()) {
      throw new SettingsException("-Dtargets=auto over -D" + InjectorShare.PARAMETER + "=" + injector + ": each"
          + " injector would search on its own share and stop at its own rate; give fixed rates, e.g."
          + " -Dtargets=1000,2000,4000, which the injectors split, and whose merged run marks the goal on the whole");
    }
    return new CurvePlan(targets.stream().map(injector::rate).toList(), startRate, maxSteps, goal, settle, measure);
  }

  /**
   * @param threads the virtual users sharing each step's rate
   * @return a fresh search of this staircase, for one system; a search goes no lower than two operations per thread
   *     in a step's measured seconds, below which a step measures too few operations to judge a percentile by
   */
  public RateSearch search(int threads) {
    return targets.isEmpty()
        ? RateSearch.auto(startRate, maxSteps, Math.max(1, 2.0 * threads / measure.toSeconds()))
        : RateSearch.fixed(targets);
  }

  /** @return e.g. "rates 1000, 2000, 4000 /s" or "a search for the highest rate meeting p99 < 10 ms from 100 /s" */
  public String describe() {
    String steps = String.format(Locale.ROOT, "each step %d s settling, %d s measured", settle.toSeconds(),
        measure.toSeconds());
    return (targets.isEmpty()
        ? String.format(Locale.ROOT, "a search for the highest rate meeting %s, from %.0f/s (at most %d steps)",
            goal.orElseThrow().describe(), startRate, maxSteps)
        : "target rates " + String.join(", ", targets.stream().map(rate -> String.format(Locale.ROOT, "%.0f", rate))
            .toList()) + " /s" + goal.map(g -> ", goal " + g.describe()).orElse("")) + "; " + steps;
  }
}
