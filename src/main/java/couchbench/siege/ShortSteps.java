package couchbench.siege;

import couchbench.rounds.StepRule;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The step-length rule of the siege steps: no figure should rest on less than about {@link #MIN_LOAD} of load or
 * {@link StepRule#REQUESTS_PER_USER} requests per user, or a round's figure tells of the moment it ran in (a JIT
 * compilation, a neighbour's burst, the users' start) more than of the server, and the rounds' range of that. Siege's
 * default step, 60 s, keeps to it; where a run's parameters go below it, its page says so.
 */
public final class ShortSteps {

  /** The least load a step's figures should rest on. */
  public static final Duration MIN_LOAD = Duration.ofSeconds(StepRule.SECONDS);

  private ShortSteps() {}

  /**
   * @param plan the length of each step
   * @return a warning for the page when each step is shorter than {@link #MIN_LOAD}
   */
  public static Optional<String> ofPlan(SiegePlan plan) {
    long seconds = plan.duration().toSeconds();
    return plan.duration().compareTo(MIN_LOAD) >= 0 ? Optional.empty()
        : Optional.of("Each step lasted " + seconds + " s (-Dduration=" + seconds + "), under the "
            + MIN_LOAD.toSeconds() + " s of load a figure should rest on: its figures tell of the moment more than of"
            + " the server; give -Dduration=" + MIN_LOAD.toSeconds() + " or more.");
  }

  /**
   * @param step the step's request name, e.g. {@code memcache set round 2}
   * @param figures what it measured
   * @param users the users that sent its requests
   * @return a warning for the page when its users sent fewer than {@link StepRule#REQUESTS_PER_USER} requests each, on
   *     average
   */
  public static Optional<String> ofStep(String step, SiegeFigures figures, int users) {
    long requests = figures.transactions() + figures.failed();
    String perUser = String.format(Locale.ROOT, "%.1f", (double) requests / users);
    return requests >= (long) StepRule.REQUESTS_PER_USER * users ? Optional.empty()
        : Optional.of(step + " rested on " + perUser + " requests per user (" + requests + " requests by " + users
            + " users), under the " + StepRule.REQUESTS_PER_USER + " a figure should rest on: give a longer -Dduration or"
            + " fewer -Dusers.");
  }
}
